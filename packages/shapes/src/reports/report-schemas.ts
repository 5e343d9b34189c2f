import { Type, type Static } from '@sinclair/typebox'
import { REPORT_CHANNELS, REPORT_DIMENSIONS, REPORT_METRICS, REPORT_PRIORITIES } from '@helpdesk/core'
import { DateTime, Nullable } from '../common.js'

const LocalDate = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description, examples: ['2026-03-01'] })
const Dimension = Type.Union(REPORT_DIMENSIONS.map((d) => Type.Literal(d)), {
  description: 'Groups the rows: by category id, assigned agent id (0: unassigned), channel or priority (low to urgent, as it is now).'
})
const PriorityName = Type.Union(REPORT_PRIORITIES.map((p) => Type.Literal(p)), { description: 'Only tickets of this priority (as it is now).' })
const ChannelName = Type.Union(REPORT_CHANNELS.map((c) => Type.Literal(c)), { description: 'The door tickets came in through.' })
const Format = Type.Union([Type.Literal('json'), Type.Literal('csv')], {
  description: '`csv` answers `text/csv` (as does `Accept: text/csv`); default JSON.'
})

/** What every report and the ticket rows take. */
const scope = {
  from: LocalDate('First local date of the range (in `time_zone`).'),
  to: LocalDate('Last local date of the range, included (at most 731 days after `from`).'),
  time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone the dates are local to (default `UTC`). Days are cut at its midnight.', examples: ['Europe/Berlin'] })),
  category: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Only this category.' })),
  agent: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'Only tickets assigned to this agent (0: unassigned). An agent asking for their own id sees all their tickets.' })),
  channel: Type.Optional(ChannelName),
  priority: Type.Optional(PriorityName),
  format: Type.Optional(Format)
}

export const ReportParams = Type.Object({
  metric: Type.Union(REPORT_METRICS.map((m) => Type.Literal(m)), { description: 'See docs/reports.md for the exact definition of each.' })
})

export const ReportQuerystring = Type.Object({
  ...scope,
  group_by: Type.Optional(Dimension),
  interval: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('week')], { description: '`volume` only: local days (default) or ISO weeks (Monday).' })),
  time: Type.Optional(Type.Union([Type.Literal('calendar'), Type.Literal('business')], {
    description: '`first-response-time` and `resolution-time`: calendar time (default) or business time of each ticket\'s SLA calendar (tickets without an SLA policy are left out).'
  }))
}, { additionalProperties: false })
export type ReportQuerystring = Static<typeof ReportQuerystring>

export const TicketRowsQuerystring = Type.Object({
  ...scope,
  after: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'JSON pages: the rows after this ticket id (`meta.next_after` of the previous page).' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, description: 'JSON pages: rows per page, default 1000. CSV has every row.' }))
}, { additionalProperties: false })
export type TicketRowsQuerystring = Static<typeof TicketRowsQuerystring>

const Cell = Type.Union([Type.String(), Type.Number(), Type.Null()])

export const Report = Type.Object({
  metric: Type.String({ description: 'The report.' }),
  from: Type.String(),
  to: Type.String(),
  time_zone: Type.String(),
  group_by: Nullable(Dimension),
  time: Type.Optional(Type.Union([Type.Literal('calendar'), Type.Literal('business')], { description: 'Response and resolution times: which time they are in.' })),
  estimated: Type.Optional(Type.Boolean({ description: 'Response and resolution times: the percentiles were estimated from duration histograms, within 3 % of the exact value (see docs/reports.md); counts and means are exact.' })),
  columns: Type.Array(Type.String(), { description: 'The columns of each row, in order (the CSV header).' }),
  rows: Type.Array(Type.Record(Type.String(), Cell), {
    description: 'One object per row. Durations are seconds of calendar time (`*_s`); rates and scores are fractions 0-1 (4 decimals); null when there is nothing to measure.'
  })
}, {
  examples: [{
    metric: 'first-response-time', from: '2026-03-01', to: '2026-03-31', time_zone: 'Europe/Berlin', group_by: 'channel',
    columns: ['group', 'tickets', 'mean_s', 'median_s', 'p90_s'],
    rows: [{ group: 'mail', tickets: 412, mean_s: 9120.5, median_s: 3600, p90_s: 25200 }]
  }]
})

export const TicketFactRow = Type.Object({
  ticket_id: Type.Integer(),
  category_id: Type.Integer(),
  agent_id: Nullable(Type.Integer()),
  channel: Type.String(),
  priority: Type.String({ description: 'low, normal, high or urgent: the ticket\'s priority now.' }),
  status: Type.Integer({ description: '1 Open, 2 Pending, 3 Closed.' }),
  created_at: DateTime,
  first_response_at: Nullable(DateTime),
  resolved_at: Nullable(DateTime),
  first_response_s: Nullable(Type.Integer()),
  resolution_s: Nullable(Type.Integer()),
  replies: Type.Integer(),
  reopens: Type.Integer(),
  rating: Nullable(Type.String()),
  first_response_bs: Nullable(Type.Integer({ description: 'First response in business seconds of the SLA calendar.' })),
  resolution_bs: Nullable(Type.Integer({ description: 'Resolution in business seconds of the SLA calendar.' })),
  sla_first_response: Nullable(Type.String({ description: '`met`, `breached`, or null (no target, or not decided yet).' })),
  sla_next_response: Nullable(Type.String()),
  sla_resolution: Nullable(Type.String())
})

export const TicketRows = Type.Object({
  data: Type.Array(TicketFactRow),
  meta: Type.Object({ next_after: Nullable(Type.Integer({ description: 'Pass as `after` for the next page; null on the last.' })) })
})

/** The reports' entry of `GET/PATCH /settings`. */
export const ReportSettings = {
  'reports.admins_only': Type.Boolean({ description: 'Reports for administrators only; otherwise agents see those of their categories too. Default false.' })
}
