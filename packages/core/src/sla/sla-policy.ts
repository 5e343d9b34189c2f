import { collectFieldErrors, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { defineList } from '../list/list-spec.js'
import { requiredPlainText } from '../text-input.js'
import type { DateTimeString } from '../time.js'
import { businessCalendar, type BusinessCalendar, type BusinessCalendarInput } from './calendar.js'
import type { SlaTargets } from './sla-clock.js'

/** A stored business-hours calendar (docs/sla.md). */
export interface SlaCalendar extends BusinessCalendar {
  id: number
  name: string
  /** The built-in 24/7 calendar (UTC): it cannot be changed or deleted. */
  built_in: boolean
  created_at: DateTimeString
  updated_at: DateTimeString
}

/**
 * Which tickets a policy applies to. Every condition given must hold (AND);
 * a list matches when any of its values does (OR). An empty object matches
 * every ticket. New kinds (e.g. `priorities` once tickets have priorities)
 * are one entry in `SLA_CONDITIONS`.
 */
export interface SlaConditions {
  /** The ticket's category is one of these. */
  category_ids?: number[]
  /** Custom-field answers, by field id (as a string): the answer is one of the values listed. */
  fields?: Record<string, string[]>
  /** The ticket's owner is one of these customers. */
  customer_ids?: number[]
  /** The owner's email address is at one of these domains (`example.com`; lower case, no `@`). */
  email_domains?: string[]
}

/** What a condition reads of a ticket; `email` only when some policy asks for domains. */
export interface SlaTicketFacts {
  category_id: number
  user_id: number
  fields: Record<string, string>
  email?: string | null
}

interface ConditionKind {
  /** The value normalised, or errors keyed under `conditions.<name>`. */
  check: (errors: FieldErrors, field: string, value: unknown) => unknown
  matches: (value: never, ticket: SlaTicketFacts) => boolean
  /** The ticket's owner email is needed to judge it. */
  needsEmail?: boolean
}

const MAX_VALUES = 500

function idList (errors: FieldErrors, field: string, value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_VALUES || !value.every((v) => Number.isSafeInteger(v) && (v as number) > 0)) {
    errors[field] = [`Must be a list of at most ${MAX_VALUES} ids.`]
    return undefined
  }
  return [...new Set(value as number[])]
}

/** The condition kinds, by their key in `conditions`. */
export const SLA_CONDITIONS: Record<keyof SlaConditions, ConditionKind> = {
  category_ids: {
    check: idList,
    matches: (ids: number[], ticket) => ids.includes(ticket.category_id)
  },
  customer_ids: {
    check: idList,
    matches: (ids: number[], ticket) => ids.includes(ticket.user_id)
  },
  email_domains: {
    check: (errors, field, value) => {
      const ok = Array.isArray(value) && value.length <= MAX_VALUES &&
        value.every((v) => typeof v === 'string' && /^[a-z0-9.-]+\.[a-z0-9-]+$/i.test(v.trim().replace(/^@/, '')))
      if (!ok) { errors[field] = ['Must be a list of domains such as "example.com".']; return undefined }
      return [...new Set((value as string[]).map((v) => v.trim().replace(/^@/, '').toLowerCase()))]
    },
    matches: (domains: string[], ticket) => {
      const email = ticket.email ?? ''
      const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase()
      return email.includes('@') && domains.some((d) => domain === d || domain.endsWith(`.${d}`))
    },
    needsEmail: true
  },
  fields: {
    check: (errors, field, value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) { errors[field] = ['Must map field ids to lists of values.']; return undefined }
      const out: Record<string, string[]> = {}
      for (const [key, values] of Object.entries(value)) {
        if (!/^[1-9]\d{0,9}$/.test(key) || !Array.isArray(values) || values.length === 0 || values.length > MAX_VALUES ||
          !values.every((v) => typeof v === 'string' && v.length <= 1000)) {
          errors[`${field}.${key}`] = ['Must be a list of 1 to 500 answers (texts).']
          continue
        }
        out[key] = [...new Set(values as string[])]
      }
      return out
    },
    matches: (wanted: Record<string, string[]>, ticket) =>
      Object.entries(wanted).every(([id, values]) => values.includes(ticket.fields[id] ?? '\u0000'))
  }
}

/** Whether a ticket meets every condition. */
export function matchesConditions (conditions: SlaConditions, ticket: SlaTicketFacts): boolean {
  for (const [name, value] of Object.entries(conditions)) {
    const kind = (SLA_CONDITIONS as Record<string, ConditionKind>)[name]
    if (kind === undefined || value === undefined) continue
    if (!kind.matches(value as never, ticket)) return false
  }
  return true
}

/** Whether judging these conditions needs the owner's email address. */
export function conditionsNeedEmail (conditions: SlaConditions): boolean {
  return Object.keys(conditions).some((name) => (SLA_CONDITIONS as Record<string, ConditionKind>)[name]?.needsEmail === true)
}

/** An SLA policy (docs/sla.md): conditions, targets in business minutes on a calendar, warnings. */
export interface SlaPolicy {
  id: number
  name: string
  /** Order of matching, from 1: the first policy whose conditions hold applies; the default policy comes last whatever its position. */
  position: number
  /** The policy that applies when no other does (exactly one; its conditions are empty; it cannot be deleted). */
  is_default: boolean
  conditions: SlaConditions
  first_response_minutes: number | null
  next_response_minutes: number | null
  resolution_minutes: number | null
  calendar_id: number
  /** Calendar minutes before a due time that a warning is sent; null sends none. */
  warning_minutes: number | null
  /** A warning that would fall outside business hours waits for the next opening (Zammad #4432). */
  warnings_follow_calendar: boolean
  created_at: DateTimeString
  updated_at: DateTimeString
}

export interface SlaPolicyInput {
  name?: string
  conditions?: Record<string, unknown>
  first_response_minutes?: number | null
  next_response_minutes?: number | null
  resolution_minutes?: number | null
  calendar_id?: number
  warning_minutes?: number | null
  warnings_follow_calendar?: boolean
}

export interface SlaCalendarInput extends Partial<BusinessCalendarInput> { name?: string }

export const SLA_LIMITS = {
  name: 100,
  /** A target of at most one year of business minutes. */
  targetMinutes: 525_600,
  warningMinutes: 10_080,
  policies: 200
} as const

export const slaCalendarList = defineList({
  resource: 'sla-calendars',
  includes: ['policies-count'],
  sorts: ['id', 'name', 'created_at'],
  defaultSort: 'id',
  keyTypes: { id: 'int', name: 'string', created_at: 'datetime' },
  partialFilters: ['name'],
  exactFilters: []
})

export const slaPolicyList = defineList({
  resource: 'sla-policies',
  includes: ['calendar'],
  sorts: ['position', 'id', 'name'],
  defaultSort: 'position',
  keyTypes: { id: 'int', name: 'string', position: 'int' },
  partialFilters: ['name'],
  exactFilters: ['calendar']
})

/** The policy's targets as the clock reads them. */
export function policyTargets (policy: Pick<SlaPolicy, 'first_response_minutes' | 'next_response_minutes' | 'resolution_minutes'>): SlaTargets {
  return {
    first_response_minutes: policy.first_response_minutes,
    next_response_minutes: policy.next_response_minutes,
    resolution_minutes: policy.resolution_minutes
  }
}

function minutes (errors: FieldErrors, field: string, value: unknown, max: number): number | null {
  if (value === null) return null
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > max) {
    errors[field] = [`Must be a whole number of minutes from 1 to ${max}, or null.`]
    return null
  }
  return value as number
}

/** Checks a policy's fields (all of them when `full`, the ones given otherwise); 422 keyed by field. */
export function checkPolicyInput (input: SlaPolicyInput, full: boolean, isDefault = false): Partial<Omit<SlaPolicy, 'id' | 'position' | 'is_default' | 'created_at' | 'updated_at'>> {
  const errors: FieldErrors = {}
  const out: Partial<Omit<SlaPolicy, 'id' | 'position' | 'is_default' | 'created_at' | 'updated_at'>> = {}
  if (input.name !== undefined || full) out.name = requiredPlainText(errors, 'name', input.name ?? '', SLA_LIMITS.name)
  if (input.conditions !== undefined) {
    const conditions: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(input.conditions)) {
      const kind = (SLA_CONDITIONS as Record<string, ConditionKind>)[name]
      if (kind === undefined) { errors[`conditions.${name}`] = [`Unknown condition. Known: ${Object.keys(SLA_CONDITIONS).join(', ')}.`]; continue }
      const checked = kind.check(errors, `conditions.${name}`, value)
      if (checked !== undefined) conditions[name] = checked
    }
    if (isDefault && Object.keys(input.conditions).length > 0) errors.conditions = ['The default policy applies to every ticket: it has no conditions.']
    out.conditions = conditions as SlaConditions
  } else if (full) out.conditions = {}
  for (const name of ['first_response_minutes', 'next_response_minutes', 'resolution_minutes'] as const) {
    if (input[name] !== undefined) out[name] = minutes(errors, name, input[name], SLA_LIMITS.targetMinutes)
    else if (full) out[name] = null
  }
  if (input.warning_minutes !== undefined) out.warning_minutes = minutes(errors, 'warning_minutes', input.warning_minutes, SLA_LIMITS.warningMinutes)
  else if (full) out.warning_minutes = 30
  if (input.warnings_follow_calendar !== undefined) out.warnings_follow_calendar = input.warnings_follow_calendar
  else if (full) out.warnings_follow_calendar = true
  if (input.calendar_id !== undefined) {
    if (!Number.isSafeInteger(input.calendar_id) || input.calendar_id < 1) errors.calendar_id = ['The selected calendar is invalid.']
    else out.calendar_id = input.calendar_id
  } else if (full) errors.calendar_id = ['The calendar is required.']
  throwIfInvalid(errors)
  return out
}

/** Checks a calendar (merged over `current` for an update); 422 keyed by field. */
export function checkCalendarInput (input: SlaCalendarInput, current: SlaCalendar | null): { name: string, calendar: BusinessCalendar } {
  const errors: FieldErrors = {}
  const name = input.name !== undefined || current === null ? requiredPlainText(errors, 'name', input.name ?? '', SLA_LIMITS.name) : current.name
  const calendar = collectFieldErrors(errors, () => businessCalendar({
    time_zone: input.time_zone ?? current?.time_zone ?? '',
    hours: input.hours ?? current?.hours ?? {},
    holidays: input.holidays ?? current?.holidays ?? [],
    twenty_four_seven: input.twenty_four_seven ?? current?.twenty_four_seven ?? false
  }))
  throwIfInvalid(errors)
  return { name, calendar: calendar! }
}
