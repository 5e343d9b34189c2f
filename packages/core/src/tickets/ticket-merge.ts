import { ValidationError } from '../errors.js'
import type { Store } from '../store.js'
import type { DateTimeString } from '../time.js'
import type { AttachmentTarget } from './attachment.js'
import type { Comment } from './comment.js'
import type { Ticket, TicketAdditional } from './ticket.js'

/*
 * Merging and splitting tickets (docs/tickets.md "Merge and split"). The
 * rules here are pure; `TicketMergeService` carries them out in one
 * transaction and `TicketMergeRepository` (part of `Store`) does the moving.
 */

/** Limits of a split and the default grace period of `unmerge`. */
export const TICKET_MERGE_LIMITS = {
  /** Comments moved by one split. */
  splitComments: 100,
  /** Hours a merge can be undone by default (setting `tickets.merge_undo_hours`). */
  undoHours: 24,
  /** Merged tickets followed to find where a reply lands (older chains, made before a link was refused). */
  landingHops: 10
} as const

/** What a merge or split moved, so it can be undone (all ids as they were at the time). */
export interface TicketMergeMoves {
  /** Comments moved from the source to the target. */
  comment_ids: number[]
  /** Of those, public replies made private because a private ticket's replies went into a public one. */
  privatized_comment_ids: number[]
  /** The comment added to the target holding the source's own body (merge), and the source's attachments moved onto it. */
  body_comment_id: number | null
  body_attachment_ids: string[]
  /** Participants (people Cc'd in by mail) the target gained. */
  participant_ids: number[]
  /** Custom-field answers (field id -> value) and the purchase code the target gained. */
  fields: Record<string, string>
  purchase_code: string | null
  /** Statuses before the merge: the source's, and the target's when the merge reopened it (else null). */
  source_status: number
  reopened_target_from: number | null
}

export interface TicketMerge {
  id: number
  kind: 'merge' | 'split'
  /** Merge: the ticket merged away. Split: the ticket comments were taken from. */
  source_id: number
  /** Merge: the ticket that received. Split: the new ticket. */
  target_id: number
  actor_id: number | null
  moves: TicketMergeMoves
  created_at: DateTimeString
  undone_at: DateTimeString | null
}

export type NewTicketMerge = Omit<TicketMerge, 'id' | 'created_at' | 'undone_at'>

/** Storage port of merges and splits (part of `Store`, same conventions); every method joins the caller's transaction. */
export interface TicketMergeRepository {
  /**
   * Locks the tickets' rows for the rest of the transaction (PostgreSQL
   * `FOR UPDATE`, in id order; SQLite's writer lock covers it), so two merges
   * of the same tickets run one after the other.
   */
  lock(ticketIds: number[]): Promise<void>
  /** The ticket's comments (id, type, privacy), oldest first. */
  commentsOf(ticketId: number): Promise<Array<Pick<Comment, 'id' | 'type' | 'private'>>>
  /**
   * Moves those of `commentIds` that are on `fromTicketId` (with their
   * attachments) to `toTicketId`, refreshing both tickets' search documents;
   * returns the ids moved.
   */
  moveComments(commentIds: number[], fromTicketId: number, toTicketId: number): Promise<number[]>
  /** Those of `commentIds` that are on another ticket than `ticketId` now (deleted ones are on none). */
  commentsElsewhere(commentIds: number[], ticketId: number): Promise<number[]>
  /** Sets `private` of those comments. */
  setCommentsPrivate(commentIds: number[], isPrivate: boolean): Promise<void>
  /** The ids of the ticket's own attachments (those on no comment). */
  ticketAttachmentIds(ticketId: number): Promise<string[]>
  /** Re-links attachments (whoever uploaded them) to a ticket or comment. */
  moveAttachments(ids: string[], target: AttachmentTarget): Promise<void>
  removeParticipants(ticketId: number, userIds: number[]): Promise<void>
  create(merge: NewTicketMerge): Promise<TicketMerge>
  /** The newest merge of `sourceId` into another ticket that was not undone, or null. */
  activeMergeOf(sourceId: number): Promise<TicketMerge | null>
  /** Marks it undone unless it is already (false then: another request undid it first). */
  markUndone(id: number, at: DateTimeString): Promise<boolean>
}

/**
 * Why `source` may not be merged into `target`, as a sentence for the
 * `target_id` field, or null. Both tickets must belong to the same customer:
 * merging two customers' tickets would show each one's replies (and private
 * replies) to the other, so it is refused rather than half-hidden.
 */
export function mergeRefusal (source: Ticket, target: Ticket): string | null {
  if (source.id === target.id) return 'A ticket cannot be merged into itself.'
  if (target.merged_into_id != null) return `Ticket #${target.id} was itself merged into #${target.merged_into_id}: merge into #${target.merged_into_id} instead.`
  if (source.user_id !== target.user_id) return `Ticket #${target.id} belongs to another customer: only tickets of the same customer can be merged.`
  return null
}

/**
 * Refuses (422 on `key`) any change of a merged ticket but undoing the
 * merge: it is closed and everything addressed to it lands on the target, so
 * reopening it (or retagging, reassigning, a macro) would show a ticket in
 * the open views whose replies go elsewhere. PATCH, privacy, assigning and
 * unassigning, bulk actions and macros ask this; triggers and automations
 * skip a merged ticket instead.
 */
export function ensureNotMerged (ticket: Pick<Ticket, 'id' | 'merged_into_id'>, key = 'status'): void {
  if (ticket.merged_into_id != null) throw ValidationError.field(key, `Ticket #${ticket.id} was merged into #${ticket.merged_into_id}: undo the merge instead.`)
}

/**
 * The custom-field answers and purchase code of `source` that `target` lacks
 * (an empty answer counts as lacking), of the fields `asked` (the target
 * category's field ids): an answer to a question the target's category does
 * not ask stays with the source.
 */
export function answersTargetLacks (
  source: TicketAdditional, target: TicketAdditional, asked: ReadonlySet<string>
): { fields: Record<string, string>, purchase_code: string | null } {
  const fields: Record<string, string> = {}
  const have = target.fields ?? {}
  for (const [id, value] of Object.entries(source.fields ?? {})) {
    if (asked.has(id) && value !== '' && (have[id] === undefined || have[id] === '')) fields[id] = value
  }
  const code = source.purchase_code
  return { fields, purchase_code: typeof code === 'string' && code !== '' && (target.purchase_code ?? '') === '' ? code : null }
}

/** `additional` with answers added (merge) or removed where they still hold the value added (unmerge). */
export function withAnswers (additional: TicketAdditional, added: { fields: Record<string, string>, purchase_code: string | null }, remove = false): TicketAdditional {
  const fields = { ...(additional.fields ?? {}) }
  const next: TicketAdditional = { ...additional, fields }
  for (const [id, value] of Object.entries(added.fields)) {
    if (!remove) fields[id] = value
    else if (fields[id] === value) delete fields[id]
  }
  if (added.purchase_code !== null) {
    if (!remove) next.purchase_code = added.purchase_code
    else if (next.purchase_code === added.purchase_code) delete next.purchase_code
  }
  return next
}

/** The title of a ticket split from `ticket` when none is given. */
export function splitTitle (ticket: Pick<Ticket, 'id' | 'title'>, max: number): string {
  const suffix = ` (split from #${ticket.id})`
  const room = max - suffix.length
  const title = [...ticket.title]
  return (title.length > room ? `${title.slice(0, Math.max(0, room - 1)).join('')}…` : ticket.title) + suffix
}

/**
 * Where something addressed to `ticket` lands: the ticket it was merged
 * into, followed along older chains (at most `landingHops`), or `ticket`
 * itself. A merged-into ticket that no longer exists ends the walk.
 */
export async function landingTicket (store: Store, ticket: Ticket): Promise<Ticket> {
  let current = ticket
  for (let hop = 0; hop < TICKET_MERGE_LIMITS.landingHops && current.merged_into_id != null; hop++) {
    const next = await store.tickets.findById(current.merged_into_id)
    if (next === null || next.id === ticket.id) break
    current = next
  }
  return current
}
