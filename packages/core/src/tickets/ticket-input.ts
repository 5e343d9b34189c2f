import type { FieldErrors } from '../errors.js'
import { plainText, sanitizeBody } from '../html.js'
import { fieldLabel, requiredPlainText, textLength } from '../text-input.js'
import { TICKET_LIMITS } from './ticket.js'

/** A new ticket, whichever door it came through (HTTP body, CLI, importer). */
export interface TicketInput {
  /** Category id. */
  category: number
  title: string
  /** Plain text or HTML; sanitised before storage. */
  body: string
  /** Default true (CONTRACT §16). */
  private?: boolean | undefined
  /** Ids of the caller's own unlinked attachments. */
  attachments?: string[] | undefined
  /** Staff only: the owner, by id (`customer` is the spec sample's alias)... */
  customer_id?: number | undefined
  customer?: number | undefined
  /** ...or by email; an unknown email creates an Unconfirmed customer with these names. */
  email?: string | undefined
  first_name?: string | undefined
  last_name?: string | undefined
  /** Custom-field answers, {field_id: value}. */
  fields?: Record<string, unknown> | undefined
  purchase_code?: string | undefined
  /** Staff only: low, normal (default), high, urgent. */
  priority?: string | undefined
  /** Staff only: tag names (unknown names create tags). */
  tags?: string[] | undefined
}

/** A partial update: an absent field keeps its value. `status` and `private` are staff-only. */
export interface TicketUpdateInput {
  category?: number | undefined
  title?: string | undefined
  body?: string | undefined
  status?: number | undefined
  private?: boolean | undefined
  /** Staff only. */
  priority?: string | undefined
  /** Staff only: the ticket's tags become exactly these. */
  tags?: string[] | undefined
}

/** A title is plain text (text-input.ts `requiredPlainText`): required, at most 250 characters. */
export function checkedTitle (errors: FieldErrors, title: string): string {
  return requiredPlainText(errors, 'title', title, TICKET_LIMITS.title)
}

/**
 * A body is sanitised HTML (no scripts, event handlers or javascript: URLs);
 * one that is empty once cleaned (no text and no image) counts as missing.
 */
export function checkedBody (errors: FieldErrors, body: string, field = 'body'): string {
  const clean = sanitizedBody(errors, body, field)
  if (field in errors) return clean
  if (plainText(clean, 1) === '' && !/<img\s/i.test(clean)) errors[field] = [`The ${fieldLabel(field)} field is required.`]
  return clean
}

/**
 * The one rule of what a ticket's or comment's body may hold, without asking
 * for one: at most `TICKET_LIMITS.body` characters as sent, then sanitised.
 * A draft's body (which may still be empty) goes through it too.
 */
export function sanitizedBody (errors: FieldErrors, body: string, field = 'body'): string {
  if (textLength(body) > TICKET_LIMITS.body) {
    errors[field] = [`The ${fieldLabel(field)} may not be greater than ${TICKET_LIMITS.body} characters.`]
    return body
  }
  return sanitizeBody(body).trim()
}
