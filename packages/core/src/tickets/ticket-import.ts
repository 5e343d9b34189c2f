import { nowString, type ServiceContext } from '../context.js'
import type { FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import type { Store } from '../store.js'
import type { DateTimeString } from '../time.js'
import { CommentType, commentPreview, type CommentTypeNumber } from './comment.js'
import { checkedBody, checkedTitle } from './ticket-input.js'
import type { NewComment, NewTicket } from './ticket-store.js'
import { isTicketStatus, TicketStatus, type TicketAdditional, type TicketStatusNumber } from './ticket.js'

/** One ticket of an import, with its conversation. Times default to now. */
export interface TicketImport {
  user_id: number
  creator_id?: number | null
  category_id: number
  title: string
  body: string
  status?: TicketStatusNumber
  private?: boolean
  assigned_agent_id?: number | null
  purchase_code?: string | null
  /** Custom-field answers as stored, keyed by field id. */
  fields?: Record<string, string>
  created_at?: DateTimeString
  updated_at?: DateTimeString
  comments?: Array<{
    user_id: number | null
    body: string
    type?: CommentTypeNumber
    private?: boolean
    created_at?: DateTimeString
  }>
}

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

function checkTime (errors: FieldErrors, field: string, value: string | undefined): void {
  if (value !== undefined && !DATETIME.test(value)) errors[field] = ['The time must be a UTC datetime, YYYY-MM-DD HH:MM:SS.']
}

/**
 * Validates all items (422 keyed `N.field`, `N.comments.M.field`), then writes
 * them in batches in `tx`: bodies sanitised, search documents built, no events.
 */
export async function importTickets (ctx: ServiceContext, tx: Store, items: TicketImport[]): Promise<number[]> {
  if (items.length === 0) return []
  const errors: FieldErrors = {}
  const categories = new Set(await tx.categories.existingIds([...new Set(items.map((i) => i.category_id))]))
  const now = nowString(ctx)
  const comments: Array<{ index: number, comment: NewComment }> = []
  const tickets: NewTicket[] = items.map((item, index) => {
    const own: FieldErrors = {}
    const title = checkedTitle(own, item.title)
    const body = checkedBody(own, item.body)
    if (!categories.has(item.category_id)) own.category_id = ['The selected category is invalid.']
    if (item.status !== undefined && !isTicketStatus(item.status)) own.status = ['The status must be 1, 2 or 3.']
    checkTime(own, 'created_at', item.created_at)
    checkTime(own, 'updated_at', item.updated_at)
    for (const [field, messages] of Object.entries(own)) errors[`${index}.${field}`] = messages
    ;(item.comments ?? []).forEach((c, position) => {
      const commentErrors: FieldErrors = {}
      const commentBody = checkedBody(commentErrors, c.body)
      checkTime(commentErrors, 'created_at', c.created_at)
      for (const [field, messages] of Object.entries(commentErrors)) errors[`${index}.comments.${position}.${field}`] = messages
      comments.push({
        index,
        comment: {
          ticket_id: 0,
          user_id: c.user_id,
          body: commentBody,
          preview: commentPreview(commentBody),
          type: c.type === CommentType.Note ? CommentType.Note : CommentType.Reply,
          private: c.private ?? false,
          created_at: c.created_at ?? item.updated_at ?? item.created_at ?? now
        }
      })
    })
    const additional: TicketAdditional = { fields: item.fields ?? {} }
    if (item.purchase_code !== undefined && item.purchase_code !== null && item.purchase_code.trim() !== '') {
      additional.purchase_code = item.purchase_code.trim()
    }
    return {
      user_id: item.user_id,
      creator_id: item.creator_id === undefined ? item.user_id : item.creator_id,
      category_id: item.category_id,
      status: item.status ?? TicketStatus.Open,
      private: item.private ?? true,
      title,
      body,
      additional,
      assigned_agent_id: item.assigned_agent_id ?? null,
      agent_assigned_at: item.assigned_agent_id === undefined || item.assigned_agent_id === null ? null : (item.created_at ?? now),
      created_at: item.created_at ?? now,
      updated_at: item.updated_at ?? item.created_at ?? now
    }
  })
  throwIfInvalid(errors)
  // Tickets and comments together: their search documents (which hold the comments) are written once.
  return await tx.tickets.createMany(tickets, comments.map(({ index, comment }) => ({ ticket: index, comment })))
}
