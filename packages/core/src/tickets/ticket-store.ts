import type { Priority } from '../automation/rule-conditions.js'
import type { Tag } from '../knowledge-base/article.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { DateTimeString } from '../time.js'
import type { Attachment, AttachmentTarget, UploadQuota } from './attachment.js'
import type { Comment } from './comment.js'
import type { CommentVisibility, TicketScope } from './ticket-policy.js'
import type { Ticket, TicketAdditional, TicketStatusNumber } from './ticket.js'

/*
 * The storage port for tickets, comments and attachments (part of `Store`,
 * same conventions). Every write of a ticket, and of its owner's names or
 * email, keeps the ticket's full-text search document in step in the same
 * transaction.
 */

export interface NewTicket {
  user_id: number
  creator_id: number | null
  category_id: number
  status: TicketStatusNumber
  private: boolean
  title: string
  /** Already sanitised. */
  body: string
  additional: TicketAdditional
  /** Default normal. */
  priority?: Priority
  assigned_agent_id?: number | null
  agent_assigned_at?: DateTimeString | null
  /** Default now; imports keep their original times. */
  created_at?: DateTimeString
  updated_at?: DateTimeString
}

export type TicketPatch = Partial<Pick<Ticket,
  'category_id' | 'title' | 'body' | 'status' | 'priority' | 'private' | 'assigned_agent_id' | 'agent_assigned_at' | 'additional' | 'merged_into_id'
>>

export interface TicketRepository {
  findById(id: number): Promise<Ticket | null>
  /** Those of `ids` that exist, in one query, in no particular order (bulk actions). */
  findByIds(ids: number[]): Promise<Ticket[]>
  /** Inserts the ticket and its search document. */
  create(ticket: NewTicket): Promise<Ticket>
  /**
   * Inserts many (imports) in batches, with their comments when given
   * (`ticket` is the index of the comment's ticket in `tickets`): the search
   * documents, which hold the comments, are written once. Returns the
   * tickets' ids in input order.
   */
  createMany(tickets: NewTicket[], comments?: Array<{ ticket: number, comment: Omit<NewComment, 'ticket_id'> }>): Promise<number[]>
  /** Applies the patch, sets `updated_at` to now and refreshes the search document. Null when missing. */
  update(id: number, patch: TicketPatch): Promise<Ticket | null>
  /** Deletes the ticket with its comments, reads, attachment rows and search document. */
  delete(id: number): Promise<boolean>
  /**
   * One page of the tickets `scope.tickets` allows, with the query's filters
   * (`search` included) and includes, or the page after a cursor. `total`
   * comes from counts kept per category, status, agent and privacy when the
   * filters allow; a search or owner filter matching very many tickets gets a
   * lower bound (`totalIsLowerBound`).
   */
  list(scope: TicketScope, query: ListQuery): Promise<Page<WithIncludes<Ticket>>>
  /**
   * How many tickets `list` would page through for the query's filters
   * (sort, page and includes ignored): from the counts when the filters
   * allow, else one count that stops at a limit (`lowerBound` then).
   */
  count(scope: TicketScope, query: ListQuery): Promise<{ total: number, lowerBound: boolean }>
  /**
   * `count` of each query, in the order given, at a cost that does not grow
   * with their number: one statement for all of them, plus, for each query
   * with a search, the few bounded reads that plan it (as `list` plans one).
   * Each result is the one `count` returns for that query.
   */
  countMany(scope: TicketScope, queries: readonly ListQuery[]): Promise<Array<{ total: number, lowerBound: boolean }>>
  /** The query's includes for one ticket the caller may see. */
  withIncludes(ticket: Ticket, scope: TicketScope, query: ListQuery): Promise<WithIncludes<Ticket>>
  /**
   * Records that `userId` read the ticket at `at` (`last_read_by_me`), by the
   * time it resolves; a later read is never replaced by an earlier one. The
   * store may commit concurrent reads together.
   */
  markRead(ticketId: number, userId: number, at: DateTimeString): Promise<void>
  /** The ids among `ids` that exist. */
  existingIds(ids: number[]): Promise<number[]>
  /**
   * Replaces the ticket's tags by name (already normalised), creating tags
   * not seen before in the shared tag table; returns them, by name.
   */
  setTags(ticketId: number, names: string[]): Promise<Tag[]>
  /** The tags of each of the tickets (by name), in one query; tickets without tags are absent. */
  tagsOf(ticketIds: number[]): Promise<Map<number, Tag[]>>
}

/** `body` already sanitised; `created_at` defaults to now (imports keep their original times). */
export type NewComment = Omit<Comment, 'id' | 'created_at' | 'updated_at'> & { created_at?: DateTimeString }

export interface CommentRepository {
  findById(id: number): Promise<Comment | null>
  create(comment: NewComment): Promise<Comment>
  /** Inserts many (imports) in batches; returns their ids in input order. */
  createMany(comments: NewComment[]): Promise<number[]>
  /** Null when missing. */
  update(id: number, patch: Partial<Pick<Comment, 'body' | 'preview' | 'private'>>): Promise<Comment | null>
  /** Deletes the comment and its attachment rows. */
  delete(id: number): Promise<boolean>
  /** One page of the ticket's comments that `visibility` allows. */
  list(ticket: Pick<Ticket, 'id' | 'user_id'>, visibility: CommentVisibility, query: ListQuery): Promise<Page<WithIncludes<Comment>>>
  /** The query's includes for one comment the caller may see. */
  withIncludes(comment: Comment, query: ListQuery): Promise<WithIncludes<Comment>>
  /** Ids of the ticket's comments after `afterId` that `visibility` allows, not written by `exceptUserId`, oldest first, at most `limit`. */
  idsAfter(ticket: Pick<Ticket, 'id' | 'user_id'>, visibility: CommentVisibility, afterId: number, exceptUserId: number, limit: number): Promise<number[]>
}

/** A fresh upload: not linked yet. */
export type NewAttachment = Omit<Attachment, 'user_id' | 'ticket_id' | 'comment_id' | 'created_at' | 'updated_at'> & { user_id: number }

export interface AttachmentRepository {
  create(attachment: NewAttachment): Promise<Attachment>
  /** How many unlinked uploads `userId` holds, and their bytes together. */
  unlinkedUsage(userId: number): Promise<{ files: number, bytes: number }>
  /**
   * Creates the attachment unless the uploader's unlinked uploads, this one
   * included, would pass `quota` (then null, nothing written). Concurrent calls
   * for one uploader are serialised (the user's row is locked first).
   */
  createWithinQuota(attachment: NewAttachment, quota: UploadQuota): Promise<Attachment | null>
  findById(id: string): Promise<Attachment | null>
  /** Those of `ids` that exist, in no particular order. */
  findByIds(ids: string[]): Promise<Attachment[]>
  /**
   * Links those of `ids` that `uploaderId` uploaded and that are still unlinked;
   * returns how many it linked (fewer than asked means another request won a race).
   * A linked upload leaves the draft that held it.
   */
  link(ids: string[], uploaderId: number, target: AttachmentTarget): Promise<number>
  delete(id: string): Promise<boolean>
  /** Stored file names of the ticket's attachments, its comments' included. */
  fileNamesOfTicket(ticketId: number): Promise<string[]>
  /** Stored file names of every attachment on the tickets a customer owns (comments' included). */
  fileNamesOfTicketsOwnedBy(userId: number): Promise<string[]>
  fileNamesOfComment(commentId: number): Promise<string[]>
  /**
   * Deletes at most `limit` attachments created before `before` that are still
   * unlinked and held by no draft (checked in the same statement); returns
   * their stored file names.
   */
  deleteUnlinkedBefore(before: DateTimeString, limit: number): Promise<string[]>
}
