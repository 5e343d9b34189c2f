import type { Knex } from 'knex'
import {
  BACKLOG_BUCKETS, bucketOf, compareReportGroups, DURATION_AT, formatDateTime, histogramPercentiles, HOURLY_MEASURES, isPriority, isReportChannel, parseDateTime,
  type BacklogRow, type DurationMetric, type DurationStats, type HistogramDimension, type HistogramRow, type HourlyRow, type HourlySums,
  type ReportDimension, type ReportRepository, type ReportScope, type SlaVerdict, type TicketFact, type TicketFactSource
} from '@helpdesk/core'
import type { RepositoryContext } from './repository-context.js'

const FACTS = 'report_ticket_facts'
const HOURLY = 'report_hourly'
const DAILY = 'report_daily'
const HISTOGRAM = 'report_duration_histogram'
/** Rows per insert statement (13 columns: well under both databases' parameter limits). */
const INSERT_BATCH = 200
const Admin = 1
const Agent = 2
const Reply = 1

type Row = Record<string, unknown>

const num = (v: unknown): number => Number(v)
const numOrNull = (v: unknown): number | null => v === null || v === undefined ? null : Number(v)
const time = (v: unknown): string => v instanceof Date ? formatDateTime(v) : String(v).slice(0, 19)
const timeOrNull = (v: unknown): string | null => v === null || v === undefined ? null : time(v)

/** A stored fact in `ticketFact`'s key order (facts are compared as JSON). */
function factFromRow (row: Row): TicketFact {
  return {
    ticket_id: num(row.ticket_id),
    category_id: num(row.category_id),
    agent_id: numOrNull(row.agent_id),
    channel: isReportChannel(row.channel) ? row.channel : 'unknown',
    priority: isPriority(row.priority) ? row.priority : 'normal',
    status: num(row.status),
    created_at: time(row.created_at),
    first_response_at: timeOrNull(row.first_response_at),
    resolved_at: timeOrNull(row.resolved_at),
    first_response_s: numOrNull(row.first_response_s),
    resolution_s: numOrNull(row.resolution_s),
    replies: num(row.replies),
    reopens: num(row.reopens),
    rating: row.rating === 'good' || row.rating === 'bad' ? row.rating : null,
    first_response_bs: numOrNull(row.first_response_bs),
    resolution_bs: numOrNull(row.resolution_bs),
    sla_first_response: verdict(row.sla_first_response),
    sla_next_response: verdict(row.sla_next_response),
    sla_resolution: verdict(row.sla_resolution)
  }
}

const verdict = (v: unknown): SlaVerdict => v === 'met' || v === 'breached' ? v : null

/**
 * The histogram breakdown that answers a scope grouped by `groupBy`: the one
 * dimension the filters and the grouping use (`all` for none); null when they
 * use two or more (the histograms are per dimension, not per combination).
 */
function histogramDimension (scope: ReportScope, groupBy: ReportDimension | null): HistogramDimension | null {
  const dims = new Set<ReportDimension>()
  if (scope.categories !== undefined || scope.category !== undefined) dims.add('category')
  if (scope.agent !== undefined) dims.add('agent')
  if (scope.channel !== undefined) dims.add('channel')
  if (scope.priority !== undefined) dims.add('priority')
  if (groupBy !== null) dims.add(groupBy)
  if (dims.size > 1) return null
  return [...dims][0] ?? 'all'
}

/** Whole UTC months inside `[firstDay, lastDay)` (days), and the days before and after them. */
function monthsAndDays (firstDay: string, lastDay: string): { months: string[], before: [string, string], after: [string, string] } {
  const months: string[] = []
  let start = firstDay.endsWith('-01') ? firstDay : `${nextMonth(firstDay.slice(0, 7))}-01`
  const monthsFrom = start
  while (`${nextMonth(start.slice(0, 7))}-01` <= lastDay) {
    months.push(start.slice(0, 7))
    start = `${nextMonth(start.slice(0, 7))}-01`
  }
  if (months.length === 0) return { months, before: [firstDay, lastDay], after: [lastDay, lastDay] }
  return { months, before: [firstDay, monthsFrom], after: [start, lastDay] }
}

function nextMonth (month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}

function hourlyFromRow (row: Row): HourlyRow {
  const out = { hour: time(row.hour), category_id: num(row.category_id), agent_id: num(row.agent_id), channel: String(row.channel), priority: String(row.priority) } as HourlyRow
  for (const m of HOURLY_MEASURES) out[m] = num(row[m])
  return out
}

/** The column a dimension groups by (`agent`: 0 for unassigned, as in the hourly rollup). */
function groupColumn (groupBy: ReportDimension | null, table: 'facts' | 'hourly'): string {
  if (groupBy === 'category') return 'category_id'
  if (groupBy === 'agent') return table === 'facts' ? 'coalesce(agent_id, 0)' : 'agent_id'
  if (groupBy === 'channel') return 'channel'
  if (groupBy === 'priority') return 'priority'
  return 'null'
}

/** The scope's filters on the dimensions (not its range). */
function filtered (qb: Knex.QueryBuilder, scope: ReportScope, table: 'facts' | 'hourly'): Knex.QueryBuilder {
  if (scope.categories !== undefined) qb.whereIn('category_id', [...scope.categories])
  if (scope.category !== undefined) qb.where('category_id', scope.category)
  if (scope.agent !== undefined) qb.where('agent_id', scope.agent === 0 && table === 'facts' ? null : scope.agent)
  if (scope.channel !== undefined) qb.where('channel', scope.channel)
  if (scope.priority !== undefined) qb.where('priority', scope.priority)
  return qb
}

const nextDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

const groupOf = (groupBy: ReportDimension | null, value: unknown): number | string | null =>
  groupBy === null || value === null || value === undefined ? null : groupBy === 'channel' || groupBy === 'priority' ? String(value) : Number(value)

export function createReportRepository (ctx: RepositoryContext): ReportRepository {
  const { db } = ctx
  /** The hourly rollup's sums in scope, by `period` (an expression over `hour`, or null for none) and group. */
  const sums = async (scope: ReportScope, groupBy: ReportDimension | null, period: string | null, periodBindings: Knex.RawBinding[]): Promise<HourlySums[]> => {
    const group = groupColumn(groupBy, 'hourly')
    const q = db(HOURLY).select(db.raw(`${period ?? "''"} as period`, periodBindings), db.raw(`${group} as grp`))
      .select(HOURLY_MEASURES.map((m) => db.raw(`sum(${m}) as ${m}`)))
      // Hours starting in the range: local midnights fall on whole hours in whole-hour time zones.
      .where('hour', '>=', `${scope.from.slice(0, 13)}:00:00`).where('hour', '<', scope.to)
    const keys = [...(period === null ? [] : ['1']), ...(groupBy === null ? [] : ['2'])]
    // By position: the period's expression carries bindings.
    if (keys.length > 0) q.groupByRaw(keys.join(', ')).orderByRaw('1')
    const rows = await filtered(q, scope, 'hourly') as Row[]
    return rows.map((r): HourlySums => {
      const out = { hour: period === 'hour' ? time(r.period) : String(r.period ?? ''), group: groupOf(groupBy, r.grp) } as HourlySums
      for (const m of HOURLY_MEASURES) out[m] = num(r[m] ?? 0)
      return out
    })
  }
  /** The daily rollup's sums over whole UTC days `[firstDay, lastDay)`, by group (and by day with `byDay`). */
  const dailySums = async (scope: ReportScope, groupBy: ReportDimension | null, firstDay: string, lastDay: string, byDay = false): Promise<HourlySums[]> => {
    const group = groupColumn(groupBy, 'hourly')
    const q = db(DAILY).select(db.raw(`${byDay ? 'day' : "''"} as period`), db.raw(`${group} as grp`))
      .select(HOURLY_MEASURES.map((m) => db.raw(`sum(${m}) as ${m}`)))
      .where('day', '>=', firstDay).where('day', '<', lastDay)
    const keys = [...(byDay ? ['1'] : []), ...(groupBy === null ? [] : ['2'])]
    if (keys.length > 0) q.groupByRaw(keys.join(', '))
    const rows = await filtered(q, scope, 'hourly') as Row[]
    return rows.filter((r) => HOURLY_MEASURES.some((m) => r[m] !== null)).map((r): HourlySums => {
      const out = { hour: String(r.period ?? ''), group: groupOf(groupBy, r.grp) } as HourlySums
      for (const m of HOURLY_MEASURES) out[m] = num(r[m] ?? 0)
      return out
    })
  }
  /** Every duration in scope read from the facts (the covering index for calendar times) and sorted: exact percentiles. */
  const exactDurations = async (scope: ReportScope, metric: DurationMetric, groupBy: ReportDimension | null, range?: { from: string, to: string }): Promise<DurationStats[]> => {
    const values = await durationValues(scope, metric, groupBy, range ?? scope)
    const stats: DurationStats[] = []
    for (const { group: g, list } of values.values()) {
      const sorted = Float64Array.from(list).sort()
      const n = sorted.length
      let total = 0
      for (const v of sorted) total += v
      // Nearest rank: the median is the value of rank ceil(n/2), the 90th percentile of rank ceil(9n/10).
      stats.push({ group: g, count: n, mean: Math.round((total / n) * 10) / 10, median: sorted[Math.floor((n + 1) / 2) - 1] ?? null, p90: sorted[Math.floor((9 * n + 9) / 10) - 1] ?? null })
    }
    return stats.sort((a, b) => compareReportGroups(a.group, b.group))
  }
  /** The durations whose instant lies in `[range.from, range.to)`, per group, unsorted. */
  const durationValues = async (scope: ReportScope, metric: DurationMetric, groupBy: ReportDimension | null, range: { from: string, to: string }): Promise<Map<string, { group: number | string | null, list: number[] }>> => {
    const at = DURATION_AT[metric]
    const group = groupColumn(groupBy, 'facts')
    const values = new Map<string, { group: number | string | null, list: number[] }>()
    if (range.from >= range.to) return values
    // The range's durations straight from the covering index, unsorted: sorting a few hundred thousand integers
    // in JS costs less than the databases' sorts and window functions over them.
    const rows = await filtered(db(FACTS).select(db.raw(`${group} as grp`), db.raw(`${metric} as v`))
      .where(at, '>=', range.from).where(at, '<', range.to).whereNotNull(metric), scope, 'facts') as Row[]
    for (const r of rows) {
      const key = String(r.grp)
      let entry = values.get(key)
      if (entry === undefined) values.set(key, entry = { group: groupOf(groupBy, r.grp), list: [] })
      entry.list.push(num(r.v))
    }
    return values
  }
  /**
   * The bucket counts and duration sums in scope per group (the histogram
   * breakdown's group as text): whole UTC months from the monthly cells,
   * the whole UTC days around them from the daily cells, and the hours of a
   * day cut by the time zone's midnight straight from the facts.
   */
  const histogramCells = async (scope: ReportScope, metric: DurationMetric, dim: HistogramDimension, grouped: boolean): Promise<Map<string, { counts: Map<number, number>, total: number }>> => {
    const out = new Map<string, { counts: Map<number, number>, total: number }>()
    const add = (value: string, bucket: number, tickets: number, total: number): void => {
      // Ungrouped (the breakdown only filters): one group.
      const grp = grouped ? value : ''
      let cell = out.get(grp)
      if (cell === undefined) out.set(grp, cell = { counts: new Map(), total: 0 })
      cell.counts.set(bucket, (cell.counts.get(bucket) ?? 0) + tickets)
      cell.total += total
    }
    const firstDay = scope.from.endsWith(' 00:00:00') ? scope.from.slice(0, 10) : nextDay(scope.from.slice(0, 10))
    const lastDay = scope.to.slice(0, 10)
    if (firstDay >= lastDay) {
      for (const [grp, v] of await durationValues(scope, metric, dim === 'all' ? null : dim, scope)) for (const x of v.list) add(grp, bucketOf(x), 1, x)
      return out
    }
    // The hours before the first whole day and after the last one, exact.
    for (const range of [{ from: scope.from, to: `${firstDay} 00:00:00` }, { from: `${lastDay} 00:00:00`, to: scope.to }]) {
      for (const [grp, v] of await durationValues(scope, metric, dim === 'all' ? null : dim, range)) for (const x of v.list) add(grp, bucketOf(x), 1, x)
    }
    const { months, before, after } = monthsAndDays(firstDay, lastDay)
    const cells = (q: Knex.QueryBuilder): Knex.QueryBuilder => {
      q.select('grp', 'bucket').sum({ tickets: 'tickets', total_s: 'total_s' }).where('metric', metric).where('dim', dim).groupBy('grp', 'bucket')
      if (dim === 'category') {
        if (scope.categories !== undefined) q.whereIn('grp', scope.categories.map(String))
        if (scope.category !== undefined) q.where('grp', String(scope.category))
      }
      if (dim === 'agent' && scope.agent !== undefined) q.where('grp', String(scope.agent))
      if (dim === 'channel' && scope.channel !== undefined) q.where('grp', scope.channel)
      if (dim === 'priority' && scope.priority !== undefined) q.where('grp', scope.priority)
      return q
    }
    const parts: Row[][] = []
    if (months.length > 0) parts.push(await cells(db(HISTOGRAM).whereIn('period', months)) as Row[])
    for (const [from, to] of [before, after]) {
      if (from < to) parts.push(await cells(db(HISTOGRAM).where('period', '>=', from).where('period', '<', to).whereRaw('length(period) = 10')) as Row[])
    }
    for (const r of parts.flat()) add(String(r.grp), num(r.bucket), num(r.tickets), num(r.total_s))
    return out
  }
  return {
    async sources (ids) {
      if (ids.length === 0) return []
      const list = [...ids]
      // A ticket merged into another counts as gone (its facts leave the rollups; its comments moved to the target).
      const tickets = await db('tickets').select('id', 'category_id', 'assigned_agent_id', 'status', 'priority', 'created_at', 'updated_at').whereIn('id', list)
        .whereNull('merged_into_id') as Row[]
      if (tickets.length === 0) return []
      const present = tickets.map((t) => num(t.id))
      const [channels, imported, replies, resolutions] = [
        await db('ticket_channels').select('ticket_id', 'channel').whereIn('ticket_id', present) as Row[],
        await db('import_external_ids').select('local_id').where('source_type', 'ticket').whereIn('local_id', present) as Row[],
        // A cross join so that SQLite keeps this order (comments by ticket, then their authors): joined the other way,
        // it read every comment of the staff (a few agents write most of them) to find those of 500 tickets.
        await db('comments as c').crossJoin(db.raw('users as u')).whereRaw('u.id = c.user_id')
          .select('c.ticket_id', 'c.created_at')
          .whereIn('c.ticket_id', present).where('c.type', Reply).where('c.private', false).whereIn('u.role', [Admin, Agent]) as Row[],
        await db('ticket_resolutions').select('ticket_id', 'resolution', 'closed_at', 'rating').whereIn('ticket_id', present) as Row[]
      ]
      const channelOf = new Map(channels.map((r) => [num(r.ticket_id), String(r.channel)]))
      const importedIds = new Set(imported.map((r) => num(r.local_id)))
      const repliesOf = new Map<number, string[]>()
      for (const r of replies) {
        const id = num(r.ticket_id)
        const list = repliesOf.get(id) ?? []
        list.push(time(r.created_at))
        repliesOf.set(id, list)
      }
      const resolutionsOf = new Map<number, TicketFactSource['resolutions'][number][]>()
      for (const r of resolutions) {
        const id = num(r.ticket_id)
        const list = resolutionsOf.get(id) ?? []
        list.push({ resolution: num(r.resolution), closed_at: time(r.closed_at), rating: r.rating === null ? null : String(r.rating) })
        resolutionsOf.set(id, list)
      }
      return tickets.map((t): TicketFactSource => {
        const id = num(t.id)
        return {
          ticket: { id, category_id: num(t.category_id), assigned_agent_id: numOrNull(t.assigned_agent_id), status: num(t.status), priority: num(t.priority), created_at: time(t.created_at), updated_at: time(t.updated_at) },
          channel: channelOf.get(id) ?? null,
          imported: importedIds.has(id),
          staffReplies: repliesOf.get(id) ?? [],
          resolutions: resolutionsOf.get(id) ?? []
        }
      })
    },

    async facts (ids) {
      if (ids.length === 0) return []
      return (await db(FACTS).select('*').whereIn('ticket_id', [...ids]) as Row[]).map(factFromRow)
    },

    async apply (facts, removed, delta, histograms) {
      const gone = [...removed, ...facts.map((f) => f.ticket_id)]
      for (let i = 0; i < gone.length; i += 500) await db(FACTS).whereIn('ticket_id', gone.slice(i, i + 500)).delete()
      for (let i = 0; i < facts.length; i += INSERT_BATCH / 2) await db(FACTS).insert(facts.slice(i, i + INSERT_BATCH / 2))
      if (histograms.length > 0) {
        const mergeCells = { tickets: db.raw(`${HISTOGRAM}.tickets + excluded.tickets`), total_s: db.raw(`${HISTOGRAM}.total_s + excluded.total_s`) }
        for (let i = 0; i < histograms.length; i += INSERT_BATCH * 2) {
          await db(HISTOGRAM).insert(histograms.slice(i, i + INSERT_BATCH * 2)).onConflict(['metric', 'dim', 'period', 'grp', 'bucket']).merge(mergeCells)
        }
        // Cells that fell back to zero go, as in the other rollups.
        if (histograms.some((h) => h.tickets < 0)) {
          const periods = [...new Set(histograms.filter((h) => h.tickets < 0).map((h) => h.period))]
          for (let i = 0; i < periods.length; i += 500) await db(HISTOGRAM).whereIn('period', periods.slice(i, i + 500)).where('tickets', 0).delete()
        }
      }
      if (delta.length === 0) return
      const merge = Object.fromEntries(HOURLY_MEASURES.map((m) => [m, db.raw(`${HOURLY}.${m} + excluded.${m}`)]))
      for (let i = 0; i < delta.length; i += INSERT_BATCH) {
        const rows = delta.slice(i, i + INSERT_BATCH).map((d) => ({ ...d, hod: Number(d.hour.slice(11, 13)) }))
        await db(HOURLY).insert(rows).onConflict(['hour', 'category_id', 'agent_id', 'channel', 'priority']).merge(merge)
      }
      // The days move by the sum of their hours' moves.
      const days = new Map<string, Row>()
      for (const d of delta) {
        const key = `${d.hour.slice(0, 10)}|${d.category_id}|${d.agent_id}|${d.channel}|${d.priority}`
        const row = days.get(key) ?? { day: d.hour.slice(0, 10), category_id: d.category_id, agent_id: d.agent_id, channel: d.channel, priority: d.priority, ...Object.fromEntries(HOURLY_MEASURES.map((m) => [m, 0])) }
        for (const m of HOURLY_MEASURES) row[m] = num(row[m]) + d[m]
        days.set(key, row)
      }
      const daily = [...days.values()].filter((row) => HOURLY_MEASURES.some((m) => row[m] !== 0))
      const mergeDaily = Object.fromEntries(HOURLY_MEASURES.map((m) => [m, db.raw(`${DAILY}.${m} + excluded.${m}`)]))
      for (let i = 0; i < daily.length; i += INSERT_BATCH) {
        await db(DAILY).insert(daily.slice(i, i + INSERT_BATCH)).onConflict(['day', 'category_id', 'agent_id', 'channel', 'priority']).merge(mergeDaily)
      }
      // Rows every measure of which fell back to zero go: a rollup rebuilt from scratch has none.
      const hours = [...new Set(delta.map((d) => d.hour))]
      for (let i = 0; i < hours.length; i += 500) {
        const q = db(HOURLY).whereIn('hour', hours.slice(i, i + 500))
        for (const m of HOURLY_MEASURES) q.where(m, 0)
        await q.delete()
      }
      const dayKeys = [...new Set(daily.map((d) => String(d.day)))]
      for (let i = 0; i < dayKeys.length; i += 500) {
        const q = db(DAILY).whereIn('day', dayKeys.slice(i, i + 500))
        for (const m of HOURLY_MEASURES) q.where(m, 0)
        await q.delete()
      }
    },

    async lockCursor () {
      await db('report_state').where('name', 'cursor').update({ value: db.ref('value') })
      const row = await db('report_state').select('value').where('name', 'cursor').first() as Row | undefined
      return row === undefined ? 0 : num(row.value)
    },

    async setCursor (eventId) {
      await db('report_state').where('name', 'cursor').update({ value: eventId })
    },

    async isBuilt () {
      const row = await db('report_state').select('value').where('name', 'built').first() as Row | undefined
      return row !== undefined && num(row.value) === 1
    },

    async setBuilt (built) {
      await db('report_state').where('name', 'built').update({ value: built ? 1 : 0 })
    },

    async ticketIdsAfter (afterId, limit) {
      return (await db('tickets').select('id').where('id', '>', afterId).orderBy('id').limit(limit) as Row[]).map((r) => num(r.id))
    },

    async ticketsWithoutFacts (limit) {
      return (await db('tickets as t').leftJoin(`${FACTS} as f`, 'f.ticket_id', 't.id').whereNull('f.ticket_id').whereNull('t.merged_into_id')
        .select('t.id').orderBy('t.id').limit(limit) as Row[]).map((r) => num(r.id))
    },

    async ticketCount () {
      const row = await db('tickets').count({ n: '*' }).first() as Row | undefined
      return num(row?.n ?? 0)
    },

    async clear () {
      await db(FACTS).delete()
      await db(HOURLY).delete()
      await db(DAILY).delete()
      await db(HISTOGRAM).delete()
    },

    async recordChannel (ticketId, channel) {
      await db('ticket_channels').insert({ ticket_id: ticketId, channel }).onConflict('ticket_id').ignore()
    },

    async daily (scope, groupBy, segments) {
      // The UTC days the range touches, from the daily rollup; then, per stretch of one offset, the hours whose local
      // date differs from their UTC date (a few hours of each day, read through the hour-of-day index) move to it.
      // Local dates outside the range (the touched days' other hours) are left out by the caller's range.
      const firstDay = scope.from.slice(0, 10)
      const lastDay = nextDay(new Date(Date.parse(`${scope.to.replace(' ', 'T')}Z`) - 1000).toISOString().slice(0, 10))
      const byDay = new Map<string, HourlySums>()
      const add = (day: string, row: HourlySums, sign: 1 | -1): void => {
        const key = `${day}|${String(row.group)}`
        const sum = byDay.get(key) ?? { ...Object.fromEntries(HOURLY_MEASURES.map((m) => [m, 0])), hour: day, group: row.group } as HourlySums
        for (const m of HOURLY_MEASURES) sum[m] += sign * row[m]
        byDay.set(key, sum)
      }
      for (const row of await dailySums(scope, groupBy, firstDay, lastDay, true)) add(row.hour, row, 1)
      let start = `${firstDay} 00:00:00`
      for (const segment of segments) {
        const end = segment.until === null || segment.until > `${lastDay} 00:00:00` ? `${lastDay} 00:00:00` : segment.until
        const o = segment.offsetMinutes
        const moved = Array.from({ length: 24 }, (_, h) => h).filter((h) => Math.floor((h * 60 + o) / 1440) !== 0)
        if (moved.length > 0 && start < end) {
          const group = groupColumn(groupBy, 'hourly')
          const q = db(HOURLY).select('hour', db.raw(`${group} as grp`)).select(HOURLY_MEASURES.map((m) => db.raw(`sum(${m}) as ${m}`)))
            .whereIn('hod', moved).where('hour', '>=', start).where('hour', '<', end)
            .groupByRaw(groupBy === null ? '1' : '1, 2')
          for (const r of await filtered(q, scope, 'hourly') as Row[]) {
            const hour = time(r.hour)
            const row = { hour, group: groupOf(groupBy, r.grp) } as HourlySums
            for (const m of HOURLY_MEASURES) row[m] = num(r[m] ?? 0)
            const local = new Date(Date.parse(`${hour.replace(' ', 'T')}Z`) + o * 60_000).toISOString().slice(0, 10)
            add(hour.slice(0, 10), row, -1)
            add(local, row, 1)
          }
        }
        if (segment.until === null || segment.until >= end) break
        start = segment.until
      }
      return [...byDay.values()].sort((a, b) => a.hour < b.hour ? -1 : a.hour > b.hour ? 1 : 0)
    },

    async totals (scope, groupBy) {
      // Whole UTC days from the daily rollup, the hours before the first and after the last from the hourly one.
      const from = `${scope.from.slice(0, 13)}:00:00`
      const firstDay = from.endsWith(' 00:00:00') ? from.slice(0, 10) : nextDay(from.slice(0, 10))
      const lastDay = scope.to.slice(0, 10)
      if (firstDay >= lastDay) return await sums(scope, groupBy, null, [])
      const parts = [
        await sums({ ...scope, to: `${firstDay} 00:00:00` }, groupBy, null, []),
        await dailySums(scope, groupBy, firstDay, lastDay),
        await sums({ ...scope, from: `${lastDay} 00:00:00` }, groupBy, null, [])
      ]
      const byGroup = new Map<string, HourlySums>()
      for (const row of parts.flat()) {
        const key = String(row.group)
        const sum = byGroup.get(key)
        if (sum === undefined) byGroup.set(key, { ...row, hour: '' })
        else for (const m of HOURLY_MEASURES) sum[m] += row[m]
      }
      return [...byGroup.values()]
    },

    async durations (scope, metric, groupBy, options) {
      const dim = histogramDimension(scope, groupBy)
      if (dim === null) return { stats: await exactDurations(scope, metric, groupBy), estimated: false }
      const histogram = await histogramCells(scope, metric, dim, groupBy !== null)
      let count = 0
      for (const cells of histogram.values()) for (const n of cells.counts.values()) count += n
      // The counts are exact: none in the histograms is none in the facts (e.g. business time without SLA calendars).
      if (count === 0) return { stats: [], estimated: false }
      // Few enough to read them all: exact (a short range, a narrow filter).
      if (count <= options.exactUpTo) return { stats: await exactDurations(scope, metric, groupBy), estimated: false }
      const stats: DurationStats[] = []
      for (const [grp, cells] of histogram) {
        const p = histogramPercentiles(cells.counts)
        if (p.count === 0) continue
        stats.push({ group: groupBy === null ? null : groupOf(groupBy, grp), count: p.count, mean: Math.round((cells.total / p.count) * 10) / 10, median: p.median, p90: p.p90 })
      }
      return { stats: stats.sort((a, b) => compareReportGroups(a.group, b.group)), estimated: true }
    },

    async backlog (scope, groupBy, asOf) {
      // SQLite: a unary plus (a no-op there) keeps the grouping from choosing the category or agent index, which
      // with statistics it did, reading every fact (2.5 s at 1M) instead of the open ones through the covering index.
      const group = `${ctx.dialect.name === 'sqlite' ? '+' : ''}${groupColumn(groupBy, 'facts')}`
      const now = parseDateTime(asOf)
      const edges = BACKLOG_BUCKETS.slice(1).map((b) => formatDateTime(new Date(now - b.minDays * 86_400_000)))
      const cases = BACKLOG_BUCKETS.slice(0, -1).map((b) => `when created_at > ? then '${b.name}'`).join(' ')
      const bucket = `case ${cases} else '${BACKLOG_BUCKETS.at(-1)?.name ?? ''}' end`
      const q = filtered(db(FACTS).select(db.raw(`${group} as grp`), db.raw(`${bucket} as bucket`, edges), db.raw('count(*) as n'))
        .whereIn('status', [1, 2]).where('created_at', '<=', asOf), scope, 'facts')
        
        // By position: the bucket's expression carries bindings, so it cannot be repeated as such.
        .groupByRaw(groupBy === null ? '2' : '1, 2')
      const rows = await q as Row[]
      const order = BACKLOG_BUCKETS.map((b) => b.name)
      return rows.map((r): BacklogRow => ({ group: groupOf(groupBy, r.grp), bucket: String(r.bucket), count: num(r.n) }))
        .sort((a, b) => compareReportGroups(a.group, b.group) || order.indexOf(a.bucket) - order.indexOf(b.bucket))
    },

    async factRows (scope, afterId, limit) {
      const q = filtered(db(FACTS).select('*').where('ticket_id', '>', afterId)
        .where((w) => {
          void w.where((a) => { void a.where('created_at', '>=', scope.from).where('created_at', '<', scope.to) })
            .orWhere((b) => { void b.where('resolved_at', '>=', scope.from).where('resolved_at', '<', scope.to) })
        }), scope, 'facts').orderBy('ticket_id').limit(limit)
      return (await q as Row[]).map(factFromRow)
    },

    async allHourly () {
      return (await db(HOURLY).select('*').orderBy(['hour', 'category_id', 'agent_id', 'channel', 'priority']) as Row[]).map(hourlyFromRow)
    },

    async allDaily () {
      return (await db(DAILY).select('*').orderBy(['day', 'category_id', 'agent_id', 'channel', 'priority']) as Row[]).map((row) => {
        const out: Record<string, string | number> = { day: String(row.day), category_id: num(row.category_id), agent_id: num(row.agent_id), channel: String(row.channel), priority: String(row.priority) }
        for (const m of HOURLY_MEASURES) out[m] = num(row[m])
        return out
      })
    },

    async allHistograms () {
      return (await db(HISTOGRAM).select('*').orderBy(['metric', 'dim', 'period', 'grp', 'bucket']) as Row[]).map((r): HistogramRow => ({
        period: String(r.period), metric: String(r.metric) as DurationMetric, dim: String(r.dim) as HistogramDimension, grp: String(r.grp), bucket: num(r.bucket), tickets: num(r.tickets), total_s: num(r.total_s)
      }))
    },

    async allFacts () {
      return (await db(FACTS).select('*').orderBy('ticket_id') as Row[]).map(factFromRow)
    }
  }
}
