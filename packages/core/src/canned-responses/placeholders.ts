import { escapeHtml, sanitizeBody } from '../html.js'
import { TicketStatus } from '../tickets/ticket.js'
import type { User } from '../users/user.js'

/**
 * The placeholder tokens a canned response may use (CONTRACT §10). Written in
 * double braces, spaces inside allowed: `{{ ticket.id }}`, `{{customer.email}}`.
 */
export const PLACEHOLDER_TOKENS = [
  'ticket.id', 'ticket.title', 'ticket.status', 'ticket.category',
  'customer.first_name', 'customer.last_name', 'customer.email',
  'agent.first_name', 'agent.last_name'
] as const
export type PlaceholderToken = typeof PLACEHOLDER_TOKENS[number]
export type PlaceholderValues = Record<PlaceholderToken, string>

const TOKEN = /\{\{\s*([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\s*\}\}/g

const STATUS_WORDS: Record<number, string> = { [TicketStatus.Open]: 'Open', [TicketStatus.Pending]: 'Pending', [TicketStatus.Closed]: 'Closed' }

/**
 * Replaces each known token of `template` with its value, then sanitises the
 * result with the bodies' sanitiser (`sanitizeBody`); unknown tokens stay as
 * written. A value is escaped for where it lands: the template is sanitised
 * HTML, so a token is either in text or in a double-quoted attribute value,
 * and `escapeHtml` (`& < > " '`) is the escape of both (a value cannot end the
 * attribute or open a tag). Escaping alone does not make a value safe in a
 * URL attribute: a customer named `javascript:alert(1)//` filled into
 * `<a href="{{customer.first_name}}">` is a script URL without any character
 * to escape. Sanitising the filled HTML drops such a link target (and any
 * scheme bodies may not hold), as it would in a body typed by hand.
 * A regular expression rather than a template engine: the token set is
 * closed, there is no logic, and engines (Mustache, Handlebars) blank out
 * unknown tokens instead of keeping them.
 */
export function renderPlaceholders (template: string, values: PlaceholderValues): string {
  const filled = template.replace(TOKEN, (whole: string, name: string) => {
    return Object.hasOwn(values, name) ? escapeHtml(values[name as PlaceholderToken]) : whole
  })
  return sanitizeBody(filled)
}

/** What a response is rendered against: the ticket, its category, its owner and the agent who answers. */
export interface PlaceholderSubjects {
  ticket: { id: number, title: string, status: number }
  category: { name: string } | null
  customer: Pick<User, 'first_name' | 'last_name' | 'email'> | null
  /** The ticket's assigned agent, else the caller. */
  agent: Pick<User, 'first_name' | 'last_name'>
}

export function placeholderValues ({ ticket, category, customer, agent }: PlaceholderSubjects): PlaceholderValues {
  return {
    'ticket.id': String(ticket.id),
    'ticket.title': ticket.title,
    'ticket.status': STATUS_WORDS[ticket.status] ?? String(ticket.status),
    'ticket.category': category?.name ?? '',
    'customer.first_name': customer?.first_name ?? '',
    'customer.last_name': customer?.last_name ?? '',
    'customer.email': customer?.email ?? '',
    'agent.first_name': agent.first_name,
    'agent.last_name': agent.last_name
  }
}
