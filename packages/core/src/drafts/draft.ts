import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'
import type { Attachment } from '../tickets/attachment.js'
import type { CommentTypeNumber } from '../tickets/comment.js'

/**
 * A comment not sent yet: one per person and ticket, whichever its type (the
 * console's composer is one box with a reply/note switch). Private to its
 * author; it goes when the author sends a comment on the ticket, discards it,
 * or loses the ticket (deleted), or is deleted.
 */
export interface Draft {
  id: number
  /** The author. */
  user_id: number
  ticket_id: number
  /** 1 Reply, 2 Note: what it becomes when sent. */
  type: CommentTypeNumber
  /** Sanitised HTML, as a comment's body (may be empty while it holds only attachments). */
  body: string
  private: boolean
  /** The author's uploads it holds; kept from pruning while the draft exists. */
  attachments: Attachment[]
  created_at: DateTimeString
  updated_at: DateTimeString
}

/** What a save sends: the whole draft (a save replaces it). */
export interface DraftInput {
  body: string
  /** Default 1 (Reply). */
  type?: CommentTypeNumber | undefined
  private?: boolean | undefined
  /** Ids of the caller's own unlinked uploads; default none. */
  attachments?: string[] | undefined
}

/** How many drafts one person may keep at once (422 past that). */
export const DRAFT_LIMITS = { perUser: 500 } as const

export const draftList = defineList({
  resource: 'drafts',
  includes: ['ticket'],
  sorts: ['updated_at'],
  defaultSort: '-updated_at',
  keyTypes: { updated_at: 'datetime' },
  partialFilters: [],
  exactFilters: ['type']
})
