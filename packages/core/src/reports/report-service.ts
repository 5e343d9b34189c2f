import type { ServiceContext } from '../context.js'
import { ForbiddenError, ValidationError } from '../errors.js'
import { settingsFrom } from '../settings/settings.js'
import { formatDateTime, isValidTimezone } from '../time.js'
import { requirePerson, type ActorInput } from '../users/actor.js'
import { Role } from '../users/user.js'
import { ensureAdmin, ensureStaff } from '../users/user-policy.js'
import { rebuildReports, updateReports } from './report-updater.js'
import { compareReportGroups, isReportChannel, REPORT_PRIORITIES, type TicketFact } from './report-facts.js'
import type { ReportDimension, ReportScope } from './report-store.js'
import { offsetSegments, utcRange, weekStart } from './report-time.js'

export const REPORT_METRICS = ['first-response-time', 'resolution-time', 'replies', 'reopen-rate', 'volume', 'backlog', 'satisfaction', 'sla-attainment'] as const
export type ReportMetric = typeof REPORT_METRICS[number]
export const REPORT_DIMENSIONS: readonly ReportDimension[] = ['category', 'agent', 'channel', 'priority']

export function isReportMetric (value: string): value is ReportMetric {
  return (REPORT_METRICS as readonly string[]).includes(value)
}

/** What a report is asked for (the query string of `GET /reports/{metric}`). */
export interface ReportQuery {
  /** First local date, `YYYY-MM-DD`. */
  from: string
  /** Last local date (included), `YYYY-MM-DD`. */
  to: string
  /** IANA name; default `UTC`. */
  time_zone?: string
  group_by?: ReportDimension
  /** Volume per `day` (default) or ISO `week`. */
  interval?: 'day' | 'week'
  /** Response and resolution times in `calendar` time (default) or in `business` time of each ticket's SLA calendar. */
  time?: 'calendar' | 'business'
  category?: number
  agent?: number
  channel?: string
  /** Only tickets of this priority (low, normal, high, urgent), as it is now. */
  priority?: string
}

export type ReportCell = string | number | null

/** A report: a table with its columns named (CSV has them as its header). */
export interface Report {
  metric: ReportMetric
  from: string
  to: string
  time_zone: string
  group_by: ReportDimension | null
  /** Response and resolution times: calendar or business time. */
  time?: 'calendar' | 'business'
  /** Response and resolution times: true when the percentiles were estimated from the histograms (within `HISTOGRAM_MAX_ERROR`). */
  estimated?: boolean
  columns: string[]
  rows: Array<Record<string, ReportCell>>
}

/** Percentiles are exact up to this many durations in a report's scope, and estimated from the histograms above. */
export const REPORT_EXACT_PERCENTILES_UP_TO = 20_000
/** The SLA targets of the attainment report, in order. */
export const SLA_REPORT_TARGETS = ['first_response', 'next_response', 'resolution'] as const

/** At most this many days per report. */
export const REPORT_MAX_DAYS = 731
/** The backlog's age buckets, in days: `[lower, upper)`. */
export const BACKLOG_BUCKETS: ReadonlyArray<{ name: string, minDays: number }> = [
  { name: '0-1d', minDays: 0 }, { name: '1-3d', minDays: 1 }, { name: '3-7d', minDays: 3 }, { name: '7-30d', minDays: 7 }, { name: '30d+', minDays: 30 }
]

const DATE = /^\d{4}-\d{2}-\d{2}$/

const ratio = (part: number, whole: number): number | null => whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000
const groupValue = (value: number | string | null): ReportCell => value

/**
 * Reports (docs/reports.md): figures from the rollups (`report_hourly`,
 * `report_ticket_facts`) over local dates in a time zone. Staff only:
 * administrators see every ticket, agents the tickets of their categories
 * and their own figures; the setting `reports.admins_only` keeps them to
 * administrators.
 */
export class ReportService {
  /** Percentiles exact up to this many durations (tests set 0 to read the histograms). */
  exactPercentilesUpTo = REPORT_EXACT_PERCENTILES_UP_TO

  constructor (private readonly ctx: ServiceContext) {}

  /** The scope of a query for this caller: the UTC range and the categories an agent may see (422 on a bad query, 403 when not allowed). */
  async scope (caller: ActorInput, query: ReportQuery): Promise<{ scope: ReportScope, zone: string }> {
    const actor = requirePerson(caller)
    ensureStaff(actor)
    if (actor.role !== Role.Admin) {
      const stored = await this.ctx.store.settings.all()
      if (settingsFrom(Object.fromEntries(stored.map((s) => [s.key, s.value])))['reports.admins_only']) {
        throw new ForbiddenError('Reports are for administrators only (setting reports.admins_only).')
      }
    }
    const errors: Record<string, string[]> = {}
    const zone = query.time_zone ?? 'UTC'
    if (!isValidTimezone(zone)) errors.time_zone = ['Must be an IANA time zone, e.g. Europe/Berlin.']
    if (!DATE.test(query.from) || Number.isNaN(Date.parse(`${query.from}T00:00:00Z`))) errors.from = ['Must be a date, YYYY-MM-DD.']
    if (!DATE.test(query.to) || Number.isNaN(Date.parse(`${query.to}T00:00:00Z`))) errors.to = ['Must be a date, YYYY-MM-DD.']
    if (errors.from === undefined && errors.to === undefined) {
      const days = (Date.parse(`${query.to}T00:00:00Z`) - Date.parse(`${query.from}T00:00:00Z`)) / 86_400_000
      if (days < 0) errors.to = ['Must be on or after from.']
      else if (days >= REPORT_MAX_DAYS) errors.to = [`At most ${REPORT_MAX_DAYS} days per report.`]
    }
    if (query.time !== undefined && query.time !== 'calendar' && query.time !== 'business') errors.time = ['Must be calendar or business.']
    if (query.channel !== undefined && !isReportChannel(query.channel)) errors.channel = ['Must be console, api, mail, import, cli or unknown.']
    if (query.priority !== undefined && !(REPORT_PRIORITIES as readonly string[]).includes(query.priority)) errors.priority = [`Must be ${REPORT_PRIORITIES.join(', ')}.`]
    if (query.group_by !== undefined && !REPORT_DIMENSIONS.includes(query.group_by)) errors.group_by = [`Must be ${REPORT_DIMENSIONS.join(', ')}.`]
    if (Object.keys(errors).length > 0) throw new ValidationError(errors)
    const range = utcRange(query.from, query.to, zone)
    const scope: ReportScope = { from: range.from, to: range.to }
    if (query.category !== undefined) scope.category = query.category
    if (query.agent !== undefined) scope.agent = query.agent
    if (query.channel !== undefined) scope.channel = query.channel
    if (query.priority !== undefined) scope.priority = query.priority
    // An agent: the tickets of their categories, or their own figures (assigned to them) wherever they are.
    if (actor.role !== Role.Admin && query.agent !== actor.id) scope.categories = await this.ctx.store.users.categoryIds(actor.id)
    return { scope, zone }
  }

  async report (caller: ActorInput, metric: ReportMetric, query: ReportQuery): Promise<Report> {
    const { scope, zone } = await this.scope(caller, query)
    const groupBy = query.group_by ?? null
    const head = { metric, from: query.from, to: query.to, time_zone: zone, group_by: groupBy }
    const reports = this.ctx.store.reports
    const grouped = groupBy === null ? [] : ['group']
    switch (metric) {
      case 'first-response-time':
      case 'resolution-time': {
        const time = query.time ?? 'calendar'
        const column = `${metric === 'first-response-time' ? 'first_response' : 'resolution'}_${time === 'business' ? 'bs' : 's'}` as const
        const { stats, estimated } = await reports.durations(scope, column, groupBy, { exactUpTo: this.exactPercentilesUpTo })
        return {
          ...head,
          time,
          estimated,
          columns: [...grouped, 'tickets', 'mean_s', 'median_s', 'p90_s'],
          rows: stats.map((s) => ({ ...(groupBy === null ? {} : { group: groupValue(s.group) }), tickets: s.count, mean_s: s.mean, median_s: s.median, p90_s: s.p90 }))
        }
      }
      case 'backlog': {
        const rows = await reports.backlog(scope, groupBy, this.now())
        return {
          ...head,
          columns: [...grouped, 'age', 'tickets'],
          rows: rows.map((r) => ({ ...(groupBy === null ? {} : { group: groupValue(r.group) }), age: r.bucket, tickets: r.count }))
        }
      }
      case 'volume': {
        const interval = query.interval ?? 'day'
        const days = await reports.daily(scope, groupBy, offsetSegments(scope.from, scope.to, zone))
        const sums = new Map<string, { period: string, group: ReportCell, created: number, resolved: number }>()
        for (const h of days) {
          // The days read are whole UTC days: their hours before and after the range fall on local dates outside it.
          if (h.hour < query.from || h.hour > query.to) continue
          const period = interval === 'week' ? weekStart(h.hour) : h.hour
          const key = `${period}|${String(h.group)}`
          const sum = sums.get(key) ?? { period, group: groupValue(h.group), created: 0, resolved: 0 }
          sum.created += h.created
          sum.resolved += h.resolved
          sums.set(key, sum)
        }
        const rows = [...sums.values()]
          .filter((s) => s.created !== 0 || s.resolved !== 0)
          .sort((a, b) => a.period < b.period ? -1 : a.period > b.period ? 1 : compareReportGroups(a.group, b.group))
          .map((s) => ({ period: s.period, ...(groupBy === null ? {} : { group: s.group }), created: s.created, resolved: s.resolved }))
        return { ...head, columns: ['period', ...grouped, 'created', 'resolved'], rows }
      }
      default: {
        const hours = await reports.totals(scope, groupBy)
        const sums = new Map<string, { group: ReportCell, resolved: number, replies: number, reopened: number, reopens: number, good: number, bad: number }>()
        for (const h of hours) {
          const key = String(h.group)
          const sum = sums.get(key) ?? { group: groupValue(h.group), resolved: 0, replies: 0, reopened: 0, reopens: 0, good: 0, bad: 0 }
          sum.resolved += h.resolved
          sum.replies += h.replies
          sum.reopened += h.reopened
          sum.reopens += h.reopens
          sum.good += h.rated_good
          sum.bad += h.rated_bad
          sums.set(key, sum)
        }
        const list = [...sums.values()].filter((s) => s.resolved !== 0)
          .sort((a, b) => compareReportGroups(a.group, b.group))
        const g = (s: { group: ReportCell }): Record<string, ReportCell> => groupBy === null ? {} : { group: s.group }
        if (metric === 'sla-attainment') {
          const rows: Array<Record<string, ReportCell>> = []
          for (const h of [...hours].sort((a, b) => compareReportGroups(a.group, b.group))) {
            for (const target of SLA_REPORT_TARGETS) {
              const met = h[`sla_${target}_met`]
              const breached = h[`sla_${target}_breached`]
              if (met + breached === 0) continue
              rows.push({ ...(groupBy === null ? {} : { group: groupValue(h.group) }), target, met, breached, rate: ratio(met, met + breached) })
            }
          }
          return { ...head, columns: [...grouped, 'target', 'met', 'breached', 'rate'], rows }
        }
        if (metric === 'replies') {
          return { ...head, columns: [...grouped, 'resolved', 'replies', 'mean_replies'], rows: list.map((s) => ({ ...g(s), resolved: s.resolved, replies: s.replies, mean_replies: ratio(s.replies, s.resolved) })) }
        }
        if (metric === 'reopen-rate') {
          return { ...head, columns: [...grouped, 'resolved', 'reopened', 'reopens', 'reopen_rate'], rows: list.map((s) => ({ ...g(s), resolved: s.resolved, reopened: s.reopened, reopens: s.reopens, reopen_rate: ratio(s.reopened, s.resolved) })) }
        }
        return {
          ...head,
          columns: [...grouped, 'resolved', 'good', 'bad', 'score'],
          rows: list.map((s) => ({ ...g(s), resolved: s.resolved, good: s.good, bad: s.bad, score: ratio(s.good, s.good + s.bad) }))
        }
      }
    }
  }

  /** The ticket-level rows behind the reports: tickets created or resolved in the range, by id, a page after `after`. */
  async tickets (caller: ActorInput, query: ReportQuery, after = 0, limit = 1000): Promise<TicketFact[]> {
    const { scope } = await this.scope(caller, query)
    return await this.ctx.store.reports.factRows(scope, after, Math.max(1, Math.min(10_000, limit)))
  }

  /** Empties the rollups and computes them again from the tickets (`helpdesk reports:rebuild`): administrators and the system. */
  async rebuild (caller: ActorInput, onProgress?: (done: number, total: number) => void): Promise<{ tickets: number }> {
    ensureAdmin(caller)
    const rebuilt = await rebuildReports(this.ctx.store, onProgress)
    // Changes made during the rebuild: applied now rather than at the next run of the job.
    await updateReports(this.ctx.store, this.ctx.clock)
    return rebuilt
  }

  /** Brings the rollups up to date with the event log now (what the `reports.update` job does). */
  async update (): Promise<{ events: number, tickets: number }> {
    return await updateReports(this.ctx.store, this.ctx.clock)
  }

  /** Now, for the backlog's ages. */
  now (): string {
    return formatDateTime(this.ctx.clock.now())
  }
}

/** The columns of the ticket-level rows. */
export const TICKET_FACT_COLUMNS: ReadonlyArray<keyof TicketFact> = [
  'ticket_id', 'category_id', 'agent_id', 'channel', 'priority', 'status', 'created_at', 'first_response_at', 'resolved_at',
  'first_response_s', 'resolution_s', 'replies', 'reopens', 'rating', 'first_response_bs', 'resolution_bs',
  'sla_first_response', 'sla_next_response', 'sla_resolution'
]

function csvCell (value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = String(value)
  // Quoted when needed; a leading formula character is neutralised (spreadsheets would run it).
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** A table as CSV (RFC 4180, CRLF line ends, a header line). */
export function toCsv (columns: readonly string[], rows: readonly object[]): string {
  const lines = [columns.map(csvCell).join(',')]
  for (const row of rows) lines.push(columns.map((c) => csvCell((row as Record<string, unknown>)[c])).join(','))
  return `${lines.join('\r\n')}\r\n`
}
