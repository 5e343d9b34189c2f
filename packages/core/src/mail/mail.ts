import type { Readable } from 'node:stream'
import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

/** How the help desk sends and receives mail (HelpdeskOptions `mail`). */
export interface MailSettings {
  /** The sender of every mail, e.g. `Support <support@example.com>`. */
  from: string
  /**
   * The address replies go to; each mail gets a variant bound to its ticket
   * and recipient (`support+<ticket>.<recipient>.<key>.<mac>@example.com`,
   * signed with a key kept in the database), which is how a reply finds its
   * ticket and who it may come from. Default: the address of `from`.
   */
  replyTo?: string | undefined
  /** Inbound addresses and the category a new ticket sent to each gets: `{ 'support@example.com': 1 }`. */
  inbound?: Record<string, number> | undefined
  /** The API's public base URL (e.g. `https://help.example.com/api/v1`): links to large attachments and the unsubscribe link. */
  publicUrl?: string | undefined
  /**
   * The web console's public URL (e.g. `https://help.example.com`): each mail
   * links to the ticket's page there (`/tickets/<id>` for staff,
   * `/portal/tickets/<id>` for customers). Default: `publicUrl` without a
   * trailing `/api/v<n>`; no link when neither gives one.
   */
  consoleUrl?: string | undefined
  /**
   * authserv-ids (RFC 8601) of the receiving servers whose
   * `Authentication-Results` are believed: a staff member's reply by mail is
   * posted only when such a header shows DKIM or SPF passing aligned with the
   * `From:` domain. Default: none (staff replies by mail are held).
   */
  trustedAuthServIds?: string[] | undefined
  /** A directory of template files (`<kind>.txt`, `<kind>.html`) overriding the built-in ones. */
  templatesDir?: string | undefined
  /** Attachments larger than this (in total, bytes) are sent as links. Default 10 MiB. */
  maxAttachmentBytes?: number | undefined
  /** Inbound mails accepted per sender per hour; more are kept unprocessed. Default 60. */
  rateLimitPerHour?: number | undefined
}

/** One mail ready for a transport. `headers` carries the threading and notification headers. */
export interface OutgoingMail {
  from: string
  to: string
  replyTo?: string | undefined
  subject: string
  text: string
  html: string
  messageId: string
  inReplyTo?: string | undefined
  references?: string[] | undefined
  headers: Record<string, string>
  attachments: Array<{ filename: string, contentType: string, content: Readable | Buffer }>
}

/** Sends one mail (SMTP through nodemailer in `@helpdesk/mail`); rejects when the server refuses it. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ response: string }>
  close?(): void | Promise<void>
}

export interface MailAddress { address: string, name: string }

/** A received mail as the doors hand it over (parsed by `@helpdesk/mail`). */
export interface InboundMail {
  /** With angle brackets, as in the header; null when the mail has none. */
  messageId: string | null
  inReplyTo: string[]
  references: string[]
  from: MailAddress | null
  /** The SMTP envelope sender when known; '' is the null sender `<>` of bounces. */
  envelopeFrom?: string | null | undefined
  to: MailAddress[]
  cc: MailAddress[]
  /** The SMTP envelope recipients when known (they include Bcc). */
  envelopeTo?: string[] | undefined
  subject: string
  text: string | null
  html: string | null
  /** Header values by lowercase name (only the first of each). */
  headers: Record<string, string>
  /** Every `Authentication-Results` header, topmost (last added) first; absent when the door did not read them. */
  authenticationResults?: AuthenticationResults[] | undefined
  attachments: Array<{ filename: string | null, content: Buffer }>
  /** The original message, kept with the record. */
  raw: Buffer
}

/** One `Authentication-Results` header (RFC 8601) as a door parsed it. */
export interface AuthenticationResults {
  /** Who added the header (its authserv-id), lowercase, without a version. */
  authservId: string
  /** Each method's result: `{ method: 'dkim', result: 'pass', properties: { 'header.d': 'example.com' } }`. */
  results: Array<{ method: string, result: string, properties: Record<string, string> }>
}

export type MailDirection = 'in' | 'out'
/**
 * out: pending -> sent | failed (retried by the job until it gives up) | cancelled (ticket or comment gone).
 * in: received -> processed | ignored (auto-reply, bounce, our own mail) | failed (kept with the reason)
 *     | held (its sender is not verified: kept for an administrator) -> processed (released) | discarded.
 */
export const MAIL_STATUSES = ['pending', 'sent', 'failed', 'cancelled', 'received', 'processed', 'ignored', 'held', 'discarded'] as const
export type MailStatus = typeof MAIL_STATUSES[number]

/**
 * The records of sent or received mail (administrators), newest first:
 * `filter[status]` (any of the statuses, comma separated) and
 * `filter[ticket]` (a ticket's mail), paged like every list.
 */
export const mailList = defineList({
  resource: 'mail',
  includes: [],
  sorts: ['id'],
  defaultSort: '-id',
  keyTypes: { id: 'int' },
  partialFilters: [],
  exactFilters: ['status', 'ticket']
})

/** Kinds of outbound mail; each has a text and an HTML template. */
export type MailKind = 'reply' | 'closed' | 'new-ticket' | 'customer-reply' | 'assigned' | 'test' | AccountMailKind

/** Mails about a person's account (sign-in): each carries a single-use link. */
export type AccountMailKind = 'password-reset' | 'magic-link' | 'verify-email'

/** A row of `mail_messages`: one mail sent to one recipient, or one mail received. */
export interface MailMessage {
  id: number
  direction: MailDirection
  status: MailStatus
  kind: string | null
  message_id: string | null
  ticket_id: number | null
  comment_id: number | null
  /** The recipient (out) or the sender (in) as a user, when known. */
  user_id: number | null
  author_id: number | null
  sender: string | null
  recipient: string | null
  subject: string | null
  error: string | null
  attempts: number
  /** The secret of the one-click unsubscribe link of a mail to a customer; never shown. */
  unsubscribe_token: string | null
  created_at: DateTimeString
  updated_at: DateTimeString
  sent_at: DateTimeString | null
}

/**
 * A ticket's mail thread: the Message-ID its mails refer to, and its
 * per-ticket reply token. Mails no longer carry that token (their reply
 * addresses are bound to a recipient, `reply-tokens.ts`); it is still read,
 * so replies to mails sent before find their ticket, naming no one.
 */
export interface MailThread {
  ticket_id: number
  reply_token: string
  root_message_id: string
}
