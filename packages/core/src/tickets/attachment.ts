import type { DateTimeString } from '../time.js'

/** "30 MB" is 30 x 2^20 bytes (CONTRACT §16). */
export const ATTACHMENT_MAX_BYTES = 30 * 2 ** 20

/** Unlinked attachments older than this may be pruned (CONTRACT §12). */
export const UNLINKED_ATTACHMENT_TTL_MS = 24 * 60 * 60 * 1000

export const ATTACHMENT_NAME_MAX = 250

/**
 * What one user may hold in uploads not yet linked to a ticket or comment (they are
 * removed after 24 h): at most `maxFiles` files and `maxBytes` bytes together.
 */
export interface UploadQuota {
  maxBytes: number
  maxFiles: number
}

/** 200 MB and 50 files. */
export const DEFAULT_UPLOAD_QUOTA: UploadQuota = { maxBytes: 200 * 2 ** 20, maxFiles: 50 }

/** UUID-shaped attachment ids (lowercase hex, as generated). */
export const ATTACHMENT_ID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'

export interface Attachment {
  id: string
  /** The uploader; null once that user is deleted. */
  user_id: number | null
  /** The ticket it belongs to (also set for a comment's attachments); null while unlinked. */
  ticket_id: number | null
  /** The comment it belongs to, or null. */
  comment_id: number | null
  /** The name the client gave, for people. */
  name: string
  /** The stored name: generated (uuid + extension of the sniffed type), never from client input. */
  file_name: string
  mime_type: string
  size: number
  created_at: DateTimeString
  updated_at: DateTimeString
}

/** Where attachments are linked to: a ticket, or a comment of that ticket. */
export interface AttachmentTarget {
  ticket_id: number
  comment_id: number | null
}

/**
 * The client's file name made safe to show and to send back in a header:
 * no path, no control characters, no bidirectional-text controls (which
 * make `invoice\u202Efdp.exe` read as "invoiceexe.pdf"), at most 250
 * characters; `file` when nothing is left.
 */
export function displayName (clientName: string | undefined): string {
  const base = (clientName ?? '').split(/[\\/]/).at(-1) ?? ''
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim()
  const chars = [...clean]
  return chars.length === 0 ? 'file' : chars.slice(0, ATTACHMENT_NAME_MAX).join('')
}
