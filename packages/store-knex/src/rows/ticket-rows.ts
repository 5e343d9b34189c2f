import { priorityOfRank, priorityRank } from '@helpdesk/core'
import type {
  Attachment, Comment, CommentTypeNumber, NewComment, NewTicket, Ticket, TicketAdditional, TicketPatch, TicketStatusNumber
} from '@helpdesk/core'
import { bool, parseJson } from './row-values.js'

export interface TicketRow {
  id: number
  user_id: number
  creator_id: number | null
  category_id: number
  assigned_agent_id: number | null
  status: number
  /** The priority's rank (0 low … 3 urgent). */
  priority: number
  private: number | boolean
  title: string
  body: string
  additional: string
  agent_assigned_at: string | null
  created_at: string
  updated_at: string
  first_response_due_at?: string | null
  next_response_due_at?: string | null
  resolution_due_at?: string | null
  sla_next_due_at?: string | null
  merged_into_id?: number | null
}

/** The columns a Ticket is built from (never the search document). */
export const ticketColumns = [
  'id', 'user_id', 'creator_id', 'category_id', 'assigned_agent_id', 'status', 'priority', 'private', 'title', 'body', 'additional',
  'agent_assigned_at', 'created_at', 'updated_at',
  'first_response_due_at', 'next_response_due_at', 'resolution_due_at', 'sla_next_due_at', 'merged_into_id'
].map((c) => `tickets.${c}`)

export function ticketFromRow (row: TicketRow): Ticket {
  const additional = parseJson<TicketAdditional>(row.additional, {})
  return {
    id: row.id,
    user_id: row.user_id,
    creator_id: row.creator_id,
    category_id: row.category_id,
    assigned_agent_id: row.assigned_agent_id,
    status: Number(row.status) as TicketStatusNumber,
    priority: priorityOfRank(Number(row.priority)),
    private: bool(row.private),
    title: row.title,
    body: row.body,
    additional: { ...additional, fields: additional.fields ?? {} },
    agent_assigned_at: row.agent_assigned_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    first_response_due_at: row.first_response_due_at ?? null,
    next_response_due_at: row.next_response_due_at ?? null,
    resolution_due_at: row.resolution_due_at ?? null,
    sla_next_due_at: row.sla_next_due_at ?? null,
    merged_into_id: row.merged_into_id ?? null
  }
}

export function rowFromNewTicket (ticket: NewTicket, now: string): Omit<TicketRow, 'id'> {
  return {
    user_id: ticket.user_id,
    creator_id: ticket.creator_id,
    category_id: ticket.category_id,
    assigned_agent_id: ticket.assigned_agent_id ?? null,
    status: ticket.status,
    priority: priorityRank(ticket.priority ?? 'normal'),
    private: ticket.private,
    title: ticket.title,
    body: ticket.body,
    additional: JSON.stringify(ticket.additional),
    agent_assigned_at: ticket.agent_assigned_at ?? null,
    created_at: ticket.created_at ?? now,
    updated_at: ticket.updated_at ?? ticket.created_at ?? now
  }
}

export function rowFromTicketPatch (patch: TicketPatch, now: string): Partial<TicketRow> {
  const { additional, priority, ...rest } = patch
  return {
    ...rest,
    ...(additional !== undefined ? { additional: JSON.stringify(additional) } : {}),
    ...(priority !== undefined ? { priority: priorityRank(priority) } : {}),
    updated_at: now
  }
}

export interface CommentRow {
  id: number
  ticket_id: number
  user_id: number | null
  body: string
  preview: string
  type: number
  private: number | boolean
  created_at: string
  updated_at: string
}

export const commentColumns = ['id', 'ticket_id', 'user_id', 'body', 'preview', 'type', 'private', 'created_at', 'updated_at']
  .map((c) => `comments.${c}`)

export function commentFromRow (row: CommentRow): Comment {
  return {
    id: row.id,
    ticket_id: row.ticket_id,
    user_id: row.user_id,
    body: row.body,
    preview: row.preview,
    type: Number(row.type) as CommentTypeNumber,
    private: bool(row.private),
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

export function rowFromNewComment (comment: NewComment, now: string): Omit<CommentRow, 'id'> {
  const at = comment.created_at ?? now
  return {
    ticket_id: comment.ticket_id,
    user_id: comment.user_id,
    body: comment.body,
    preview: comment.preview,
    type: comment.type,
    private: comment.private,
    created_at: at,
    updated_at: at
  }
}

export const attachmentColumns = [
  'id', 'user_id', 'ticket_id', 'comment_id', 'name', 'file_name', 'mime_type', 'size', 'created_at', 'updated_at'
].map((c) => `attachments.${c}`)

export function attachmentFromRow (row: Attachment): Attachment {
  return {
    id: String(row.id),
    user_id: row.user_id,
    ticket_id: row.ticket_id,
    comment_id: row.comment_id,
    name: row.name,
    file_name: row.file_name,
    mime_type: row.mime_type,
    size: Number(row.size),
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}
