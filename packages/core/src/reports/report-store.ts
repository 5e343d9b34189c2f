import type { DateTimeString } from '../time.js'
import type { HourlyRow, TicketFact, TicketFactSource } from './report-facts.js'
import type { DurationMetric, HistogramRow } from './report-histogram.js'

/** Which tickets a report reads: a time range (UTC, `[from, to)`) and filters on the dimensions. */
export interface ReportScope {
  from: DateTimeString
  to: DateTimeString
  /** Only these categories (an agent's own); undefined: all. */
  categories?: readonly number[]
  category?: number
  agent?: number
  channel?: string
  /** Only tickets of this priority (now). */
  priority?: string
}

export type ReportDimension = 'category' | 'agent' | 'channel' | 'priority'

/** Sums of the hourly rollup for one hour and group. */
export interface HourlySums extends Omit<HourlyRow, 'category_id' | 'agent_id' | 'channel' | 'priority'> {
  /** The group's value (category id, agent id with 0 for none, channel, priority), or null when ungrouped. */
  group: number | string | null
}

/** A stretch of time in which a zone's offset stays the same: up to `until` (excluded; null: the rest). */
export interface OffsetSegment { until: DateTimeString | null, offsetMinutes: number }

/** Nearest-rank percentiles of one group. */
export interface DurationStats { group: number | string | null, count: number, mean: number | null, median: number | null, p90: number | null }

/** How percentiles are computed (docs/reports.md#percentiles-over-long-ranges). */
export interface DurationOptions {
  /**
   * Exact (every duration read and sorted) while the scope holds at most this
   * many durations, estimated from the histograms above; 0: always from the
   * histograms where they apply.
   */
  exactUpTo: number
}

/** Percentiles with how they were found. */
export interface DurationResult { stats: DurationStats[], estimated: boolean }

export interface BacklogRow { group: number | string | null, bucket: string, count: number }

/** The storage port of reports (part of `Store`, same conventions). */
export interface ReportRepository {
  /** What the facts of these tickets are computed from; tickets that no longer exist are left out. */
  sources(ticketIds: readonly number[]): Promise<TicketFactSource[]>
  /** The stored facts of these tickets. */
  facts(ticketIds: readonly number[]): Promise<TicketFact[]>
  /**
   * Stores `facts`, removes the facts of `removed`, adds `delta` to the
   * hourly rollup and `histograms` to the duration histograms (rows that
   * fall to zero everywhere are deleted).
   */
  apply(facts: readonly TicketFact[], removed: readonly number[], delta: readonly HourlyRow[], histograms: readonly HistogramRow[]): Promise<void>
  /** Takes the rollups' lock (the cursor row) for this transaction and returns the cursor. */
  lockCursor(): Promise<number>
  setCursor(eventId: number): Promise<void>
  /** Whether the rollups were built from every ticket once (a rebuild finished). */
  isBuilt(): Promise<boolean>
  setBuilt(built: boolean): Promise<void>
  /** Up to `limit` ticket ids with id > `afterId`, ascending. */
  ticketIdsAfter(afterId: number, limit: number): Promise<number[]>
  /** Tickets without facts (imported ones: imports raise no ticket events), up to `limit`. */
  ticketsWithoutFacts(limit: number): Promise<number[]>
  /** How many tickets there are (for progress). */
  ticketCount(): Promise<number>
  /** Empties the facts and the hourly rollup. */
  clear(): Promise<void>
  /** Records the door a new ticket came through. */
  recordChannel(ticketId: number, channel: string): Promise<void>

  /**
   * Sums in scope per local day (and group): each hour row counts on the
   * date of its start shifted by the offset of the segment it falls in
   * (`segments`: the zone's offsets over the range, in order, the last one
   * open-ended). `hour` of each result is that local date, `YYYY-MM-DD`.
   */
  daily(scope: ReportScope, groupBy: ReportDimension | null, segments: readonly OffsetSegment[]): Promise<HourlySums[]>
  /** Sums in scope (per group). `hour` is empty. */
  totals(scope: ReportScope, groupBy: ReportDimension | null): Promise<HourlySums[]>
  /** Percentiles of a duration over facts whose `at` column (`DURATION_AT`) lies in scope: exact, or from the histograms. */
  durations(scope: ReportScope, metric: DurationMetric, groupBy: ReportDimension | null, options: DurationOptions): Promise<DurationResult>
  /** Tickets unresolved now (open or pending) in scope's filters (not its range), by age at `asOf` (`BACKLOG_BUCKETS`). */
  backlog(scope: ReportScope, groupBy: ReportDimension | null, asOf: DateTimeString): Promise<BacklogRow[]>
  /** The fact rows in scope (created or resolved in range), by ticket id, for CSV export: a page after `afterId`. */
  factRows(scope: ReportScope, afterId: number, limit: number): Promise<TicketFact[]>
  /** Every hourly row (tests compare live and rebuilt rollups). */
  allHourly(): Promise<HourlyRow[]>
  allFacts(): Promise<TicketFact[]>
  /** Every histogram row (tests compare live and rebuilt rollups). */
  allHistograms(): Promise<HistogramRow[]>
  /** Every daily row (tests). */
  allDaily(): Promise<Array<Record<string, string | number>>>
}
