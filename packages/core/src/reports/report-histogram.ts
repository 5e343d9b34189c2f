import type { DateTimeString } from '../time.js'
import type { TicketFact } from './report-facts.js'

/**
 * Duration histograms (docs/reports.md#percentiles-over-long-ranges): per UTC
 * day and per UTC month, per metric, the count and sum of durations in fixed
 * log-spaced buckets, for all tickets and for each category, agent,
 * channel and priority. The median and 90th percentile of a long range are then found by
 * summing bucket counts instead of sorting every ticket's duration: the
 * bucket holding the nearest-rank value is exact, the value within it is
 * estimated as the bucket's midpoint, off by at most half the bucket's width
 * (`HISTOGRAM_MAX_ERROR` of the value). Counts and sums (the mean) are exact.
 */

/** Durations below this many seconds have a bucket each (exact). */
export const HISTOGRAM_EXACT_BELOW = 60
/** Buckets per doubling above that: each bucket is 2^(1/12) ≈ 1.0595 times as wide as the previous one. */
export const HISTOGRAM_BUCKETS_PER_DOUBLING = 12
/** The largest relative error of an estimated percentile: half a bucket's width, (2^(1/12) - 1) / 2 ≈ 2.98 %, plus rounding to a second. */
export const HISTOGRAM_MAX_ERROR = (2 ** (1 / HISTOGRAM_BUCKETS_PER_DOUBLING) - 1) / 2

/** The durations kept in histograms: calendar and business first response and resolution. */
export const DURATION_METRICS = ['first_response_s', 'resolution_s', 'first_response_bs', 'resolution_bs'] as const
export type DurationMetric = typeof DURATION_METRICS[number]
/** The instant a duration counts at: first responses at creation, resolutions at resolution. */
export const DURATION_AT: Record<DurationMetric, 'created_at' | 'resolved_at'> = {
  first_response_s: 'created_at', resolution_s: 'resolved_at', first_response_bs: 'created_at', resolution_bs: 'resolved_at'
}
/** The histograms' breakdowns: `all` tickets (group ''), and by each dimension (group: its value as text, agent 0 for none). */
export const HISTOGRAM_DIMENSIONS = ['all', 'category', 'agent', 'channel', 'priority'] as const
export type HistogramDimension = typeof HISTOGRAM_DIMENSIONS[number]

/** The bucket of a duration in seconds (non-negative integer). */
export function bucketOf (seconds: number): number {
  const v = Math.max(0, Math.floor(seconds))
  if (v < HISTOGRAM_EXACT_BELOW) return v
  return HISTOGRAM_EXACT_BELOW + Math.floor(HISTOGRAM_BUCKETS_PER_DOUBLING * Math.log2(v / HISTOGRAM_EXACT_BELOW) + 1e-9)
}

const boundsCache = new Map<number, { lo: number, hi: number }>()

/** The smallest and largest whole seconds of a bucket (found with `bucketOf` itself, so the two always agree). */
export function bucketBounds (bucket: number): { lo: number, hi: number } {
  const cached = boundsCache.get(bucket)
  if (cached !== undefined) return cached
  if (bucket < HISTOGRAM_EXACT_BELOW) return { lo: bucket, hi: bucket }
  const first = (b: number): number => {
    let v = Math.ceil(HISTOGRAM_EXACT_BELOW * 2 ** ((b - HISTOGRAM_EXACT_BELOW) / HISTOGRAM_BUCKETS_PER_DOUBLING))
    while (v > 0 && bucketOf(v - 1) >= b) v--
    while (bucketOf(v) < b) v++
    return v
  }
  const bounds = { lo: first(bucket), hi: first(bucket + 1) - 1 }
  boundsCache.set(bucket, bounds)
  return bounds
}

/** The value reported for a bucket: its midpoint, whole seconds (the bucket's only value when it has one). */
export function bucketEstimate (bucket: number): number {
  const { lo, hi } = bucketBounds(bucket)
  return Math.round((lo + hi) / 2)
}

/** One histogram cell: a period (`YYYY-MM-DD` day or `YYYY-MM` month, UTC), a metric, a breakdown and group, a bucket. */
export interface HistogramRow {
  period: string
  metric: DurationMetric
  dim: HistogramDimension
  grp: string
  bucket: number
  tickets: number
  total_s: number
}

const histogramKey = (r: Pick<HistogramRow, 'period' | 'metric' | 'dim' | 'grp' | 'bucket'>): string => `${r.period}|${r.metric}|${r.dim}|${r.grp}|${r.bucket}`

/** What one ticket adds to the histograms: each of its durations, at its day and month, under every breakdown. */
export function histogramContributions (fact: TicketFact): HistogramRow[] {
  const rows: HistogramRow[] = []
  const groups: Record<HistogramDimension, string> = { all: '', category: String(fact.category_id), agent: String(fact.agent_id ?? 0), channel: fact.channel, priority: fact.priority }
  for (const metric of DURATION_METRICS) {
    const value = fact[metric]
    const at: DateTimeString | null = fact[DURATION_AT[metric]]
    if (value === null || at === null) continue
    const bucket = bucketOf(value)
    for (const period of [at.slice(0, 10), at.slice(0, 7)]) {
      for (const dim of HISTOGRAM_DIMENSIONS) rows.push({ period, metric, dim, grp: groups[dim], bucket, tickets: 1, total_s: value })
    }
  }
  return rows
}

/** The change to the histograms when facts go from `before` to `after`; cells that cancel out are left out. */
export function histogramDelta (before: readonly TicketFact[], after: readonly TicketFact[]): HistogramRow[] {
  const cells = new Map<string, HistogramRow>()
  const add = (fact: TicketFact, sign: 1 | -1): void => {
    for (const row of histogramContributions(fact)) {
      const key = histogramKey(row)
      const cell = cells.get(key)
      if (cell === undefined) cells.set(key, { ...row, tickets: sign, total_s: sign * row.total_s })
      else {
        cell.tickets += sign
        cell.total_s += sign * row.total_s
      }
    }
  }
  for (const fact of before) add(fact, -1)
  for (const fact of after) add(fact, 1)
  return [...cells.values()].filter((c) => c.tickets !== 0 || c.total_s !== 0)
}

/** Nearest-rank percentiles from bucket counts (`counts`: bucket -> tickets): the median's and the 90th percentile's buckets, estimated. */
export function histogramPercentiles (counts: ReadonlyMap<number, number>): { count: number, median: number | null, p90: number | null } {
  const buckets = [...counts.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0])
  const count = buckets.reduce((s, [, n]) => s + n, 0)
  if (count === 0) return { count, median: null, p90: null }
  const at = (rank: number): number => {
    let seen = 0
    for (const [bucket, n] of buckets) {
      seen += n
      if (seen >= rank) return bucketEstimate(bucket)
    }
    return bucketEstimate(buckets.at(-1)?.[0] ?? 0)
  }
  return { count, median: at(Math.floor((count + 1) / 2)), p90: at(Math.floor((9 * count + 9) / 10)) }
}
