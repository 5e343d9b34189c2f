import { Type, type Static } from '@sinclair/typebox'
import { SLA_LIMITS, type SlaCalendar as SlaCalendarEntity, type SlaPolicy as SlaPolicyEntity, type TicketSlaView, type WithIncludes } from '@helpdesk/core'
import { DateTime, Nullable, NullableDateTime } from '../common.js'

const Interval = Type.Object({
  start: Type.String({ pattern: '^\\d{2}:\\d{2}$', description: 'Local wall-clock time, `HH:MM`, included.' }),
  end: Type.String({ pattern: '^\\d{2}:\\d{2}$', description: 'Local wall-clock time, `HH:MM` (up to `24:00`), excluded.' })
})
const Day = Type.Array(Interval, { maxItems: 12 })
const Hours = Type.Object({
  mon: Type.Optional(Day), tue: Type.Optional(Day), wed: Type.Optional(Day), thu: Type.Optional(Day),
  fri: Type.Optional(Day), sat: Type.Optional(Day), sun: Type.Optional(Day)
}, { additionalProperties: true, description: 'Intervals per weekday (a weekday left out is closed); several make a split shift.' })
const Holiday = Type.Object({ date: Type.String({ description: '`YYYY-MM-DD`, a local day.' }), name: Nullable(Type.String()) })
const HolidayInput = Type.Union([Type.String(), Type.Object({ date: Type.String(), name: Type.Optional(Nullable(Type.String())) })])

export const SlaCalendar = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  time_zone: Type.String({ description: 'IANA name, e.g. `Europe/Berlin`.' }),
  hours: Hours,
  holidays: Type.Array(Holiday),
  twenty_four_seven: Type.Boolean({ description: 'Every minute is business time (holidays still apply).' }),
  built_in: Type.Boolean({ description: 'The built-in 24/7 calendar (UTC): it cannot be changed or deleted.' }),
  policies_count: Type.Optional(Type.Integer()),
  created_at: DateTime,
  updated_at: DateTime
})

export const SlaCalendarCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: SLA_LIMITS.name }),
  time_zone: Type.String({ maxLength: 64 }),
  hours: Type.Optional(Hours),
  holidays: Type.Optional(Type.Array(HolidayInput, { maxItems: 2000 })),
  twenty_four_seven: Type.Optional(Type.Boolean())
}, {
  examples: [{
    name: 'Berlin office', time_zone: 'Europe/Berlin',
    hours: { mon: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }], fri: [{ start: '09:00', end: '15:00' }] },
    holidays: [{ date: '2026-12-25', name: 'Christmas Day' }]
  }]
})
export const SlaCalendarUpdate = Type.Partial(SlaCalendarCreate, { description: 'Absent keys keep their value.' })

export const IcalImportBody = Type.Object({
  ical: Type.String({ minLength: 1, maxLength: 2_000_000, description: 'The text of an iCalendar (.ics) file.' }),
  from_year: Type.Optional(Type.Integer({ minimum: 1970, maximum: 2200, description: 'Default: this year.' })),
  to_year: Type.Optional(Type.Integer({ minimum: 1970, maximum: 2200, description: 'Default: from_year + 1; at most 50 years.' })),
  replace: Type.Optional(Type.Boolean({ description: 'Drop the calendar\'s holidays first (default false: dates it has keep their names).' }))
}, {
  examples: [{
    ical: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//example//EN\r\nBEGIN:VEVENT\r\nUID:xmas\r\nDTSTART;VALUE=DATE:20261225\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:Christmas Day\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    from_year: 2026,
    to_year: 2027
  }]
})

const Conditions = Type.Object({
  category_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { description: 'The ticket\'s category is one of these.' })),
  fields: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Custom-field answers by field id: the answer is one of these.' })),
  customer_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { description: 'The owner is one of these customers.' })),
  email_domains: Type.Optional(Type.Array(Type.String(), { description: 'The owner\'s address is at one of these domains (or a subdomain).' }))
}, { additionalProperties: true, description: 'Every condition given must hold; within a list any value matches. Empty: every ticket.' })

const Minutes = (description: string) => Nullable(Type.Integer({ minimum: 1, maximum: SLA_LIMITS.targetMinutes, description }))

export const SlaPolicy = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  position: Type.Integer({ description: 'Matching order: the first policy whose conditions hold applies; the default policy always last.' }),
  is_default: Type.Boolean(),
  conditions: Conditions,
  first_response_minutes: Minutes('Business minutes from creation to the first staff reply; null: no target.'),
  next_response_minutes: Minutes('Business minutes from a customer reply (after a staff reply) to the next staff reply.'),
  resolution_minutes: Minutes('Business minutes from creation to closing (accumulated across reopenings).'),
  calendar_id: Type.Integer(),
  warning_minutes: Nullable(Type.Integer({ description: 'A warning this many minutes before a due time; null: none.' })),
  warnings_follow_calendar: Type.Boolean({ description: 'A warning outside business hours waits for the next opening.' }),
  calendar: Type.Optional(Nullable(SlaCalendar)),
  created_at: DateTime,
  updated_at: DateTime
})

export const SlaPolicyCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: SLA_LIMITS.name }),
  conditions: Type.Optional(Conditions),
  first_response_minutes: Type.Optional(Minutes('Default null.')),
  next_response_minutes: Type.Optional(Minutes('Default null.')),
  resolution_minutes: Type.Optional(Minutes('Default null.')),
  calendar_id: Type.Integer({ minimum: 1 }),
  warning_minutes: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: SLA_LIMITS.warningMinutes, description: 'Default 30.' }))),
  warnings_follow_calendar: Type.Optional(Type.Boolean({ description: 'Default true.' }))
}, {
  examples: [{ name: 'VIP', conditions: { email_domains: ['bigcustomer.com'] }, first_response_minutes: 30, resolution_minutes: 480, calendar_id: 2 }]
})
export const SlaPolicyUpdate = Type.Partial(SlaPolicyCreate, { description: 'Absent keys keep their value.' })
export const PolicyOrderBody = Type.Object({
  order: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: SLA_LIMITS.policies, description: 'Every policy id but the default one, in matching order.' })
}, { examples: [{ order: [3, 2] }] })

const TargetRecord = Type.Object({
  state: Type.String({ description: '`running`, `paused`, `met`, `stopped` or `idle`.' }),
  target_minutes: Type.Integer(),
  due_at: NullableDateTime,
  met_at: NullableDateTime,
  breached: Type.Boolean(),
  overdue_minutes: Type.Integer({ description: 'Business minutes past the target.' }),
  cycles: Type.Optional(Type.Integer()),
  breached_cycles: Type.Optional(Type.Integer())
})

export const TicketSla = Type.Object({
  ticket_id: Type.Integer(),
  policy_id: Nullable(Type.Integer()),
  paused_minutes: Type.Integer({ description: 'Business minutes paused so far (kept across policy changes).' }),
  targets: Type.Object({
    first_response: Type.Optional(Nullable(TargetRecord)),
    next_response: Type.Optional(Nullable(TargetRecord)),
    resolution: Type.Optional(Nullable(TargetRecord))
  }),
  evaluated_at: NullableDateTime,
  first_response_due_at: NullableDateTime,
  next_response_due_at: NullableDateTime,
  resolution_due_at: NullableDateTime,
  sla_next_due_at: NullableDateTime
})

export function presentCalendar (calendar: SlaCalendarEntity): Static<typeof SlaCalendar> {
  const item = calendar as WithIncludes<SlaCalendarEntity>
  return {
    id: calendar.id,
    name: calendar.name,
    time_zone: calendar.time_zone,
    hours: calendar.hours,
    holidays: calendar.holidays,
    twenty_four_seven: calendar.twenty_four_seven,
    built_in: calendar.built_in,
    ...(item.policies_count !== undefined ? { policies_count: item.policies_count as number } : {}),
    created_at: calendar.created_at,
    updated_at: calendar.updated_at
  }
}

export function presentPolicy (policy: SlaPolicyEntity): Static<typeof SlaPolicy> {
  const item = policy as WithIncludes<SlaPolicyEntity>
  const calendar = item.calendar as SlaCalendarEntity | null | undefined
  return {
    id: policy.id,
    name: policy.name,
    position: policy.position,
    is_default: policy.is_default,
    conditions: policy.conditions,
    first_response_minutes: policy.first_response_minutes,
    next_response_minutes: policy.next_response_minutes,
    resolution_minutes: policy.resolution_minutes,
    calendar_id: policy.calendar_id,
    warning_minutes: policy.warning_minutes,
    warnings_follow_calendar: policy.warnings_follow_calendar,
    ...(calendar !== undefined ? { calendar: calendar === null ? null : presentCalendar(calendar) } : {}),
    created_at: policy.created_at,
    updated_at: policy.updated_at
  }
}

export function presentTicketSla (view: TicketSlaView): Static<typeof TicketSla> {
  return { ...view, targets: view.targets }
}

/** The SLA's administrator settings (part of `/settings`). */
export const SlaSettings = {
  'sla.paused_statuses': Type.Array(Type.Integer({ minimum: 1, maximum: 1000 }), {
    maxItems: 50,
    description: 'Statuses besides Pending (which always pauses) in which SLA clocks stand still; not 3 (Closed). Default none.'
  })
}
