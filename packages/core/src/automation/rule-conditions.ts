import { ValidationError, type FieldErrors } from '../errors.js'

/**
 * The conditions of triggers, automations and (later) views: a small,
 * declarative language over the facts of one ticket change, validated once
 * when a rule is saved and evaluated without any I/O. `all` must all hold and,
 * when `any` is not empty, at least one of `any` must hold (Zendesk's shape,
 * which support leads already know).
 */

/** The priorities of a ticket, lowest first (their order is what `above`/`below` compare). */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
export type Priority = typeof PRIORITIES[number]

/** What a trigger reacts to. */
export const TRIGGER_EVENTS = ['ticket.created', 'ticket.updated', 'comment.customer', 'comment.staff', 'sla.warning', 'sla.breached'] as const
export type TriggerEvent = typeof TRIGGER_EVENTS[number]

/** The door a change came through, as rules see it. */
export const RULE_CHANNELS = ['console', 'api', 'mail', 'import', 'cli', 'automation', 'system'] as const
export type RuleChannel = typeof RULE_CHANNELS[number]

/** The ticket as rules see it: plain values, tags lowercased, custom fields by id. */
export interface RuleTicket {
  id: number
  status: number
  category_id: number
  assigned_agent_id: number | null
  priority: Priority
  tags: string[]
  /** Custom-field answers keyed by field id (as a string). */
  fields: Record<string, string>
  title: string
  private: boolean
}

/** One change of one ticket, with everything a condition may look at. */
export interface RuleFacts {
  event: TriggerEvent
  channel: RuleChannel
  ticket: RuleTicket
  /** The ticket before the change (null when it was just created). */
  previous: RuleTicket | null
  /** The owner's address, lowercased (null for a customer without one). */
  customer_email: string | null
  /** The text of the comment that made the change (comment events), HTML removed. */
  comment_text: string | null
  /** Whether `now` falls within business hours of the ticket's calendar (the caller decides with the SLA calendar; true without one). */
  within_business_hours: boolean
}

interface ConditionShape<F extends string, O extends string, V> { field: F, operator: O, value: V }

export type IdCondition<F extends string> =
  | ConditionShape<F, 'is' | 'is_not', number | null>
  | ConditionShape<F, 'in' | 'not_in', number[]>
export type PriorityCondition =
  | ConditionShape<'priority', 'is' | 'is_not' | 'above' | 'below', Priority>
  | ConditionShape<'priority', 'in' | 'not_in', Priority[]>
export type TagCondition = ConditionShape<'tags', 'includes_any' | 'includes_all' | 'includes_none', string[]>
export type TextCondition<F extends string> = ConditionShape<F, 'contains' | 'not_contains' | 'contains_word' | 'is' | 'is_not', string>
export type FieldCondition =
  | ConditionShape<`field:${number}`, 'is' | 'is_not' | 'contains' | 'not_contains', string>
  | ConditionShape<`field:${number}`, 'present' | 'blank', null>
export type ChannelCondition = ConditionShape<'channel', 'is' | 'is_not', RuleChannel> | ConditionShape<'channel', 'in' | 'not_in', RuleChannel[]>
export type DomainCondition = ConditionShape<'customer_email_domain', 'is' | 'is_not', string> | ConditionShape<'customer_email_domain', 'in' | 'not_in', string[]>
export type ChangeCondition = ConditionShape<'changed', 'is', ChangeableField>
  | ConditionShape<`changed:${ChangeableField}`, 'to' | 'from', string | number | null>

/** Fields whose change a condition can ask about. */
export const CHANGEABLE_FIELDS = ['status', 'category_id', 'assigned_agent_id', 'priority', 'tags', 'private', 'title'] as const
export type ChangeableField = typeof CHANGEABLE_FIELDS[number]

export type RuleCondition =
  | IdCondition<'status'> | IdCondition<'category_id'> | IdCondition<'assigned_agent_id'>
  | PriorityCondition | TagCondition | FieldCondition | ChannelCondition | DomainCondition
  | TextCondition<'subject'> | TextCondition<'comment'>
  | ConditionShape<'private', 'is', boolean>
  | ConditionShape<'within_business_hours', 'is', boolean>
  | ChangeCondition

export interface RuleConditions {
  all: RuleCondition[]
  any: RuleCondition[]
}

/** At most this many conditions in each of `all` and `any`. */
export const MAX_CONDITIONS = 50

const ID_FIELDS = new Set(['status', 'category_id', 'assigned_agent_id'])
const TEXT_FIELDS = new Set(['subject', 'comment'])

function isIntOrNull (value: unknown): value is number | null {
  return value === null || (Number.isInteger(value) && (value as number) > 0)
}

function isStringList (value: unknown, max = 100): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.length <= max && value.every((item) => typeof item === 'string' && item.trim() !== '' && item.length <= 250)
}

function isPriority (value: unknown): value is Priority {
  return typeof value === 'string' && (PRIORITIES as readonly string[]).includes(value)
}

function isChannel (value: unknown): value is RuleChannel {
  return typeof value === 'string' && (RULE_CHANNELS as readonly string[]).includes(value)
}

/** What is wrong with one condition, or null. */
function conditionProblem (input: unknown): { key: 'field' | 'operator' | 'value', message: string } | null {
  if (typeof input !== 'object' || input === null) return { key: 'field', message: 'A condition is an object with field, operator and value.' }
  const { field, operator, value } = input as Record<string, unknown>
  if (typeof field !== 'string') return { key: 'field', message: 'The field must be a string.' }
  const op = typeof operator === 'string' ? operator : ''
  const badOperator = (allowed: string[]) => allowed.includes(op) ? null : { key: 'operator' as const, message: `The operator must be one of ${allowed.join(', ')}.` }
  if (ID_FIELDS.has(field)) {
    const bad = badOperator(['is', 'is_not', 'in', 'not_in'])
    if (bad !== null) return bad
    if (op === 'in' || op === 'not_in') {
      return Array.isArray(value) && value.length > 0 && value.length <= 500 && value.every((v) => isIntOrNull(v) && v !== null) ? null : { key: 'value', message: 'The value must be a list of ids.' }
    }
    return isIntOrNull(value) && (value !== null || field === 'assigned_agent_id') ? null : { key: 'value', message: 'The value must be an id.' }
  }
  if (field === 'priority') {
    const bad = badOperator(['is', 'is_not', 'above', 'below', 'in', 'not_in'])
    if (bad !== null) return bad
    if (op === 'in' || op === 'not_in') return Array.isArray(value) && value.length > 0 && value.every(isPriority) ? null : { key: 'value', message: `The value must be a list of ${PRIORITIES.join(', ')}.` }
    return isPriority(value) ? null : { key: 'value', message: `The value must be one of ${PRIORITIES.join(', ')}.` }
  }
  if (field === 'tags') {
    return badOperator(['includes_any', 'includes_all', 'includes_none']) ?? (isStringList(value) ? null : { key: 'value', message: 'The value must be a list of tags.' })
  }
  if (/^field:[1-9]\d{0,9}$/.test(field)) {
    const bad = badOperator(['is', 'is_not', 'contains', 'not_contains', 'present', 'blank'])
    if (bad !== null) return bad
    if (op === 'present' || op === 'blank') return value === null || value === undefined ? null : { key: 'value', message: 'present and blank take no value.' }
    return typeof value === 'string' && value.length <= 1000 ? null : { key: 'value', message: 'The value must be a string.' }
  }
  if (field === 'channel') {
    const bad = badOperator(['is', 'is_not', 'in', 'not_in'])
    if (bad !== null) return bad
    if (op === 'in' || op === 'not_in') return Array.isArray(value) && value.length > 0 && value.every(isChannel) ? null : { key: 'value', message: `The value must be a list of ${RULE_CHANNELS.join(', ')}.` }
    return isChannel(value) ? null : { key: 'value', message: `The value must be one of ${RULE_CHANNELS.join(', ')}.` }
  }
  if (field === 'customer_email_domain') {
    const bad = badOperator(['is', 'is_not', 'in', 'not_in'])
    if (bad !== null) return bad
    const domain = (v: unknown) => typeof v === 'string' && /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(v.replace(/^@/, ''))
    if (op === 'in' || op === 'not_in') return Array.isArray(value) && value.length > 0 && value.length <= 500 && value.every(domain) ? null : { key: 'value', message: 'The value must be a list of domains.' }
    return domain(value) ? null : { key: 'value', message: 'The value must be a domain, like example.com.' }
  }
  if (TEXT_FIELDS.has(field)) {
    const bad = badOperator(['contains', 'not_contains', 'contains_word', 'is', 'is_not'])
    if (bad !== null) return bad
    return typeof value === 'string' && value.trim() !== '' && value.length <= 1000 ? null : { key: 'value', message: 'The value must be a non-empty string.' }
  }
  if (field === 'private' || field === 'within_business_hours') {
    return badOperator(['is']) ?? (typeof value === 'boolean' ? null : { key: 'value', message: 'The value must be true or false.' })
  }
  if (field === 'changed') {
    return badOperator(['is']) ?? ((CHANGEABLE_FIELDS as readonly unknown[]).includes(value) ? null : { key: 'value', message: `The value must be one of ${CHANGEABLE_FIELDS.join(', ')}.` })
  }
  const changed = /^changed:(.+)$/.exec(field)
  if (changed !== null && (CHANGEABLE_FIELDS as readonly string[]).includes(changed[1] as string)) {
    return badOperator(['to', 'from']) ?? (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? null : { key: 'value', message: 'The value must be a string, a number, true, false or null.' })
  }
  return { key: 'field', message: `Unknown field ${field}.` }
}

/**
 * Validates and normalises rule conditions (tags and domains lowercased,
 * `any` defaulting to empty). Throws a ValidationError keyed
 * `conditions.all.2.operator` and so on.
 */
export function ruleConditions (input: unknown, key = 'conditions'): RuleConditions {
  const errors: FieldErrors = {}
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw ValidationError.field(key, 'The conditions must be an object with all and any.')
  const raw = input as { all?: unknown, any?: unknown }
  const out: RuleConditions = { all: [], any: [] }
  for (const group of ['all', 'any'] as const) {
    const list = raw[group] ?? []
    if (!Array.isArray(list)) { errors[`${key}.${group}`] = ['Must be a list of conditions.']; continue }
    if (list.length > MAX_CONDITIONS) { errors[`${key}.${group}`] = [`At most ${MAX_CONDITIONS} conditions.`]; continue }
    list.forEach((condition, index) => {
      const problem = conditionProblem(condition)
      if (problem !== null) { errors[`${key}.${group}.${index}.${problem.key}`] = [problem.message]; return }
      out[group].push(normaliseCondition(condition as RuleCondition))
    })
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  return out
}

function normaliseCondition (condition: RuleCondition): RuleCondition {
  const lower = (v: string) => v.trim().toLowerCase().replace(/^@/, '')
  if (condition.field === 'tags') return { ...condition, value: [...new Set(condition.value.map(lower))] }
  if (condition.field === 'customer_email_domain') {
    return Array.isArray(condition.value) ? { ...condition, value: condition.value.map(lower) } as RuleCondition : { ...condition, value: lower(condition.value as string) } as RuleCondition
  }
  return condition
}

const priorityRank = (priority: Priority): number => PRIORITIES.indexOf(priority)

function escapeRegExp (text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function textMatches (haystack: string | null, operator: string, needle: string): boolean {
  const text = (haystack ?? '').toLowerCase()
  const word = needle.toLowerCase()
  switch (operator) {
    case 'contains': return text.includes(word)
    case 'not_contains': return !text.includes(word)
    case 'contains_word': return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(word)}($|[^\\p{L}\\p{N}])`, 'u').test(text)
    case 'is': return text.trim() === word.trim()
    default: return text.trim() !== word.trim()
  }
}

function fieldValue (ticket: RuleTicket, field: ChangeableField): string | number | boolean | null {
  const value = ticket[field]
  return Array.isArray(value) ? [...value].sort().join(',') : value
}

/** Whether one condition holds for the facts. */
export function conditionHolds (condition: RuleCondition, facts: RuleFacts): boolean {
  const { ticket } = facts
  switch (condition.field) {
    case 'status': case 'category_id': case 'assigned_agent_id': {
      const actual = ticket[condition.field]
      if (condition.operator === 'is') return actual === condition.value
      if (condition.operator === 'is_not') return actual !== condition.value
      const inList = actual !== null && (condition.value as number[]).includes(actual)
      return condition.operator === 'in' ? inList : !inList
    }
    case 'priority': {
      if (condition.operator === 'in') return condition.value.includes(ticket.priority)
      if (condition.operator === 'not_in') return !condition.value.includes(ticket.priority)
      const diff = priorityRank(ticket.priority) - priorityRank(condition.value as Priority)
      return condition.operator === 'is' ? diff === 0 : condition.operator === 'is_not' ? diff !== 0 : condition.operator === 'above' ? diff > 0 : diff < 0
    }
    case 'tags': {
      const tags = new Set(ticket.tags.map((tag) => tag.toLowerCase()))
      if (condition.operator === 'includes_any') return condition.value.some((tag) => tags.has(tag))
      if (condition.operator === 'includes_all') return condition.value.every((tag) => tags.has(tag))
      return !condition.value.some((tag) => tags.has(tag))
    }
    case 'channel': {
      if (condition.operator === 'is') return facts.channel === condition.value
      if (condition.operator === 'is_not') return facts.channel !== condition.value
      return condition.operator === 'in' ? condition.value.includes(facts.channel) : !condition.value.includes(facts.channel)
    }
    case 'customer_email_domain': {
      const domain = facts.customer_email?.split('@').pop()?.toLowerCase() ?? null
      const is = (d: string) => domain !== null && (domain === d || domain.endsWith(`.${d}`))
      if (condition.operator === 'is') return is(condition.value)
      if (condition.operator === 'is_not') return !is(condition.value)
      const domains = condition.value as string[]
      return condition.operator === 'in' ? domains.some(is) : !domains.some(is)
    }
    case 'subject': return textMatches(ticket.title, condition.operator, condition.value)
    case 'comment': return textMatches(facts.comment_text, condition.operator, condition.value)
    case 'private': return ticket.private === condition.value
    case 'within_business_hours': return facts.within_business_hours === condition.value
    case 'changed': return facts.previous === null || fieldValue(facts.previous, condition.value) !== fieldValue(ticket, condition.value)
    default: {
      const changed = /^changed:(.+)$/.exec(condition.field)
      if (changed !== null) {
        const name = changed[1] as ChangeableField
        const before = facts.previous === null ? null : fieldValue(facts.previous, name)
        const after = fieldValue(ticket, name)
        if (before === after) return false
        const wanted = (condition as { value: string | number | null }).value
        return condition.operator === 'to' ? after === wanted : before === wanted
      }
      const id = (condition.field as string).slice('field:'.length)
      const answer = ticket.fields[id] ?? ''
      const { operator } = condition as FieldCondition
      if (operator === 'present') return answer.trim() !== ''
      if (operator === 'blank') return answer.trim() === ''
      return textMatches(answer, operator, (condition as { value: string }).value)
    }
  }
}

/** Whether the conditions hold: every one of `all`, and one of `any` when it has any. */
export function conditionsHold (conditions: RuleConditions, facts: RuleFacts): boolean {
  if (!conditions.all.every((condition) => conditionHolds(condition, facts))) return false
  return conditions.any.length === 0 || conditions.any.some((condition) => conditionHolds(condition, facts))
}
