import { ValidationError, type FieldErrors } from '../errors.js'
import { PRIORITIES, type Priority, type RuleTicket } from './rule-conditions.js'

/**
 * The actions of macros, triggers and automations. Field actions change the
 * ticket and are applied here, purely, in order; effect actions (a note, a
 * mail, a notification, a webhook call, an assignment strategy that needs the
 * agents' load) are returned for the service to carry out in the same
 * transaction.
 */
export type FieldAction =
  | { type: 'set_status', value: number }
  | { type: 'set_priority', value: Priority }
  | { type: 'set_category', value: number }
  | { type: 'set_field', field_id: number, value: string }
  | { type: 'add_tags', value: string[] }
  | { type: 'remove_tags', value: string[] }
  | { type: 'set_private', value: boolean }
  | { type: 'assign', value: number | null }

export type AssignStrategy = 'round_robin' | 'least_open'

export type EffectAction =
  | { type: 'assign_by', strategy: AssignStrategy }
  | { type: 'add_note', body: string }
  | { type: 'reply', body: string }
  | { type: 'notify', to: 'assignee' | 'category_agents' | number[], message: string }
  | { type: 'webhook', webhook_id: number }

export type RuleAction = FieldAction | EffectAction

export const MAX_ACTIONS = 30
const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} _.-]{0,49}$/u

const positiveInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0
const text = (value: unknown, max: number): value is string => typeof value === 'string' && value.trim() !== '' && value.length <= max

function tagList (value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > 50) return null
  const tags = value.map((tag) => typeof tag === 'string' ? tag.trim().toLowerCase() : '')
  return tags.every((tag) => TAG_PATTERN.test(tag)) ? [...new Set(tags)] : null
}

/** The action, normalised, or the message of what is wrong with it. */
function checkAction (input: unknown): RuleAction | { problem: string, key: string } {
  if (typeof input !== 'object' || input === null) return { key: 'type', problem: 'An action is an object with a type.' }
  const a = input as Record<string, unknown>
  switch (a.type) {
    case 'set_status': return [1, 2, 3].includes(a.value as number) ? { type: 'set_status', value: a.value as number } : { key: 'value', problem: 'The status must be 1 (open), 2 (pending) or 3 (closed).' }
    case 'set_priority': return (PRIORITIES as readonly unknown[]).includes(a.value) ? { type: 'set_priority', value: a.value as Priority } : { key: 'value', problem: `The priority must be one of ${PRIORITIES.join(', ')}.` }
    case 'set_category': return positiveInt(a.value) ? { type: 'set_category', value: a.value } : { key: 'value', problem: 'The category must be an id.' }
    case 'set_field':
      if (!positiveInt(a.field_id)) return { key: 'field_id', problem: 'The field must be an id.' }
      return typeof a.value === 'string' && a.value.length <= 1000 ? { type: 'set_field', field_id: a.field_id, value: a.value } : { key: 'value', problem: 'The value must be a string.' }
    case 'add_tags': case 'remove_tags': {
      const tags = tagList(a.value)
      return tags !== null ? { type: a.type, value: tags } : { key: 'value', problem: 'The value must be a list of 1 to 50 tags (letters, digits, space, _ . -; at most 50 characters each).' }
    }
    case 'set_private': return typeof a.value === 'boolean' ? { type: 'set_private', value: a.value } : { key: 'value', problem: 'The value must be true or false.' }
    case 'assign': return a.value === null || positiveInt(a.value) ? { type: 'assign', value: a.value } : { key: 'value', problem: 'The value must be an agent id, or null to unassign.' }
    case 'assign_by': return a.strategy === 'round_robin' || a.strategy === 'least_open' ? { type: 'assign_by', strategy: a.strategy } : { key: 'strategy', problem: 'The strategy must be round_robin or least_open.' }
    case 'add_note': return text(a.body, 65535) ? { type: 'add_note', body: a.body } : { key: 'body', problem: 'The note must not be empty.' }
    case 'reply': return text(a.body, 65535) ? { type: 'reply', body: a.body } : { key: 'body', problem: 'The reply must not be empty.' }
    case 'notify': {
      const to = a.to
      const okTo = to === 'assignee' || to === 'category_agents' || (Array.isArray(to) && to.length > 0 && to.length <= 100 && to.every(positiveInt))
      if (!okTo) return { key: 'to', problem: 'to must be assignee, category_agents or a list of user ids.' }
      return text(a.message, 1000) ? { type: 'notify', to: to as 'assignee', message: a.message } : { key: 'message', problem: 'The message must not be empty.' }
    }
    case 'webhook': return positiveInt(a.webhook_id) ? { type: 'webhook', webhook_id: a.webhook_id } : { key: 'webhook_id', problem: 'The webhook must be an id.' }
    default: return { key: 'type', problem: `Unknown action type ${String(a.type)}.` }
  }
}

/** Validates and normalises a rule's actions; throws a ValidationError keyed `actions.3.value`. */
export function ruleActions (input: unknown, key = 'actions', options: { allowEmpty?: boolean } = {}): RuleAction[] {
  if (!Array.isArray(input)) throw ValidationError.field(key, 'The actions must be a list.')
  if (input.length === 0 && options.allowEmpty !== true) throw ValidationError.field(key, 'Give at least one action.')
  if (input.length > MAX_ACTIONS) throw ValidationError.field(key, `At most ${MAX_ACTIONS} actions.`)
  const errors: FieldErrors = {}
  const out: RuleAction[] = []
  input.forEach((action, index) => {
    const checked = checkAction(action)
    if ('problem' in checked) errors[`${key}.${index}.${checked.key}`] = [checked.problem]
    else out.push(checked)
  })
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  return out
}

export function isFieldAction (action: RuleAction): action is FieldAction {
  return ['set_status', 'set_priority', 'set_category', 'set_field', 'add_tags', 'remove_tags', 'set_private', 'assign'].includes(action.type)
}

/** One field a rule changed: what the history records. */
export interface RuleChange {
  field: string
  from: unknown
  to: unknown
}

/**
 * Applies the field actions, in order, to a copy of the ticket: the new
 * ticket, what changed (an action that sets what is already there changes
 * nothing), and the effect actions left for the caller, in their order.
 */
export function applyRuleActions (ticket: RuleTicket, actions: RuleAction[]): { ticket: RuleTicket, changes: RuleChange[], effects: EffectAction[] } {
  const next: RuleTicket = { ...ticket, tags: [...ticket.tags], fields: { ...ticket.fields } }
  const effects: EffectAction[] = []
  for (const action of actions) {
    switch (action.type) {
      case 'set_status': next.status = action.value; break
      case 'set_priority': next.priority = action.value; break
      case 'set_category': next.category_id = action.value; break
      case 'set_private': next.private = action.value; break
      case 'assign': next.assigned_agent_id = action.value; break
      case 'set_field': next.fields[String(action.field_id)] = action.value; break
      case 'add_tags': next.tags = [...new Set([...next.tags, ...action.value])]; break
      case 'remove_tags': next.tags = next.tags.filter((tag) => !action.value.includes(tag)); break
      default: effects.push(action)
    }
  }
  return { ticket: next, changes: ruleTicketChanges(ticket, next), effects }
}

/** The fields that differ between two states of a ticket (tags compared as sets). */
export function ruleTicketChanges (before: RuleTicket, after: RuleTicket): RuleChange[] {
  const changes: RuleChange[] = []
  for (const field of ['status', 'priority', 'category_id', 'assigned_agent_id', 'private', 'title'] as const) {
    if (before[field] !== after[field]) changes.push({ field, from: before[field], to: after[field] })
  }
  const sorted = (tags: string[]) => [...tags].sort()
  if (sorted(before.tags).join('\u0000') !== sorted(after.tags).join('\u0000')) changes.push({ field: 'tags', from: sorted(before.tags), to: sorted(after.tags) })
  for (const id of new Set([...Object.keys(before.fields), ...Object.keys(after.fields)])) {
    const from = before.fields[id] ?? null
    const to = after.fields[id] ?? null
    if (from !== to) changes.push({ field: `field:${id}`, from, to })
  }
  return changes
}
