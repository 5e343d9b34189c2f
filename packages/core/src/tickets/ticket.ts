import { defineList } from '../list/list-spec.js'
import type { Priority } from '../automation/rule-conditions.js'
import type { DateTimeString } from '../time.js'

/** The due-time columns of a ticket, sortable and filterable (`[lt]`, `[gte]`). */
export const SLA_DUE_FIELDS = ['first_response_due_at', 'next_response_due_at', 'resolution_due_at', 'sla_next_due_at'] as const

/**
 * The ticket as written, with the SLA due times the SLA recorder set on the
 * event's copy of it (the recorder writes them onto the event's ticket, in the
 * same transaction), so a response carries them without another read.
 */
export function withRecordedDue<T extends Ticket> (row: T, evented: Ticket): T {
  const due = Object.fromEntries(SLA_DUE_FIELDS.filter((field) => field in evented).map((field) => [field, evented[field]]))
  return { ...row, ...due }
}

export const TicketStatus = { Open: 1, Pending: 2, Closed: 3 } as const
export type TicketStatusNumber = typeof TicketStatus[keyof typeof TicketStatus]

export function isTicketStatus (value: number): value is TicketStatusNumber {
  return value === TicketStatus.Open || value === TicketStatus.Pending || value === TicketStatus.Closed
}

/** Limits shared by every door (HTTP schemas, importers). */
export const TICKET_LIMITS = {
  title: 250,
  /** Bodies of tickets and comments, as sent (HTML included). */
  body: 65535,
  purchaseCode: 250,
  /** Attachment ids linked by one ticket or comment. */
  attachments: 20
} as const

/**
 * `additional` of a ticket (CONTRACT §8): custom-field answers keyed by field id
 * (as a string) and the marketplace purchase code. Unknown keys are kept as stored.
 */
export interface TicketAdditional {
  fields?: Record<string, string>
  purchase_code?: string
  [key: string]: unknown
}

export interface Ticket {
  id: number
  /** The owner: always a customer. */
  user_id: number
  /** Who raised it: the owner, or staff on the owner's behalf; null once that user is deleted. */
  creator_id: number | null
  category_id: number
  assigned_agent_id: number | null
  status: TicketStatusNumber
  /** low, normal (the default), high or urgent (ticket-tags.ts). */
  priority: Priority
  private: boolean
  title: string
  body: string
  additional: TicketAdditional
  agent_assigned_at: DateTimeString | null
  created_at: DateTimeString
  updated_at: DateTimeString
  /** The ticket this one was merged into (docs/tickets.md "Merge and split"): replies to this one land there. Null (or absent) when not merged. */
  merged_into_id?: number | null
  /** SLA due times (docs/sla.md), kept in the transaction of each change; null when that target does not run. */
  first_response_due_at?: DateTimeString | null
  next_response_due_at?: DateTimeString | null
  resolution_due_at?: DateTimeString | null
  /** The earliest due time whose breach is still to be announced (the escalation job's index). */
  sla_next_due_at?: DateTimeString | null
}

export const ticketList = defineList({
  resource: 'tickets',
  includes: [
    'user', 'creator', 'attachments', 'attachments-count', 'category', 'agent', 'last_reply', 'last_read_by_me', 'replies-count',
    /** The ticket's latest satisfaction rating, for its owner and staff (null for others, and when never rated). */
    'satisfaction',
    /** The ticket's tags, `{id, name}` by name (staff only: customers get an empty list). */
    'tags'
  ],
  /** `priority` sorts by rank (low < normal < high < urgent), not by name. */
  sorts: ['id', 'title', 'status', 'private', 'updated_at', 'created_at', 'priority', ...SLA_DUE_FIELDS],
  defaultSort: 'id',
  keyTypes: {
    id: 'int', title: 'string', status: 'int', private: 'bool', updated_at: 'datetime', created_at: 'datetime', priority: 'int',
    ...Object.fromEntries(SLA_DUE_FIELDS.map((f) => [f, 'datetime' as const]))
  },
  /** `first_name`, `last_name`, `email` match the owner; `search` is the full-text search (CONTRACT §4). */
  partialFilters: ['first_name', 'last_name', 'email', 'search'],
  /**
   * `priority` takes priority names; `tags` tag names (any of them; staff only); `merged` 0 (tickets not merged
   * into another) or 1 (merged ones: closed, their conversation on the target).
   */
  exactFilters: ['status', 'categories', 'agents', 'priority', 'tags', 'merged'],
  /** `updated_since`: tickets changed (a comment counts) at or after a time, for incremental export. */
  sinceFilters: ['updated_since', ...SLA_DUE_FIELDS.map((f) => `${f}[gte]` as const)],
  /** `filter[first_response_due_at][lt]=...`: tickets due before a time (docs/sla.md). */
  beforeFilters: SLA_DUE_FIELDS.map((f) => `${f}[lt]` as const)
})

/**
 * What a new comment does to its ticket's status (CONTRACT §8): `close` closes
 * an Open or Pending ticket and is ignored on a Closed one; otherwise a staff
 * reply on an Open ticket makes it Pending, a customer reply on a Pending or
 * Closed ticket reopens it, and notes change nothing.
 */
export function statusAfterComment (
  status: TicketStatusNumber, comment: { isReply: boolean, byStaff: boolean, close: boolean }
): { status: TicketStatusNumber, closed: boolean } {
  if (comment.close) {
    return status === TicketStatus.Closed ? { status, closed: false } : { status: TicketStatus.Closed, closed: true }
  }
  if (!comment.isReply) return { status, closed: false }
  if (comment.byStaff) return { status: status === TicketStatus.Open ? TicketStatus.Pending : status, closed: false }
  return { status: status === TicketStatus.Open ? status : TicketStatus.Open, closed: false }
}
