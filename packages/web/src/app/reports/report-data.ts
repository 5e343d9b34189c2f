import { api, apiBase } from '../api.js'

/** A report as `GET /reports/{metric}` answers it (docs/reports.md). */
export interface Report {
  metric: string
  from: string
  to: string
  time_zone: string
  group_by: string | null
  /** Response and resolution times: calendar or business time; `estimated` when the percentiles came from histograms. */
  time?: 'calendar' | 'business'
  estimated?: boolean
  columns: string[]
  rows: Array<Record<string, string | number | null>>
}

export interface ReportFilters {
  from: string
  to: string
  time_zone: string
  group_by: '' | 'category' | 'agent' | 'channel' | 'priority'
  interval: 'day' | 'week'
  /** Response and resolution times in calendar (default) or business time. */
  time?: 'calendar' | 'business'
  agent?: number
  /** Only tickets of this priority (as they are now); absent or '': every priority. */
  priority?: '' | ReportPriority
}

/** The priorities a report can be narrowed to, low to urgent. */
export const REPORT_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
export type ReportPriority = typeof REPORT_PRIORITIES[number]

export const METRICS = ['volume', 'first-response-time', 'resolution-time', 'replies', 'reopen-rate', 'satisfaction', 'backlog', 'sla-attainment'] as const
export type Metric = typeof METRICS[number]

/** The query string of a report (and of its CSV). */
export function reportQuery (metric: Metric | 'tickets', f: ReportFilters, csv = false): string {
  const params = new URLSearchParams({ from: f.from, to: f.to, time_zone: f.time_zone })
  if (f.group_by !== '' && metric !== 'volume' && metric !== 'tickets') params.set('group_by', f.group_by)
  if (metric === 'volume') params.set('interval', f.interval)
  if ((metric === 'first-response-time' || metric === 'resolution-time') && f.time === 'business') params.set('time', 'business')
  if (f.agent !== undefined) params.set('agent', String(f.agent))
  if (f.priority !== undefined && f.priority !== '') params.set('priority', f.priority)
  if (csv) params.set('format', 'csv')
  return `/reports/${metric}?${params.toString()}`
}

export async function loadReport (metric: Metric, f: ReportFilters): Promise<Report> {
  return (await api.get<{ data: Report }>(reportQuery(metric, f))).data
}

/** A download link; the session cookie authorises it, so a plain <a href> works. */
export function csvUrl (metric: Metric | 'tickets', f: ReportFilters): string {
  return apiBase() + reportQuery(metric, f, true)
}

/** `YYYY-MM-DD` of a date `days` before today (local). */
export function daysAgo (days: number, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** The browser's time zone, else UTC. */
export function browserZone (): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    return 'UTC'
  }
}

/** Seconds as a short duration: `45s`, `12m`, `3h 20m`, `2d 4h`. */
export function formatDuration (seconds: number | string | null | undefined): string {
  if (seconds === null || seconds === undefined || seconds === '') return '–'
  const s = Math.round(Number(seconds))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m`
  const h = Math.floor(m / 60)
  if (h < 48) return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`
  const d = Math.floor(h / 24)
  return h % 24 === 0 ? `${d}d` : `${d}d ${h % 24}h`
}

/** A fraction 0-1 as a percentage. */
export function formatRate (value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '–'
  return `${Math.round(Number(value) * 1000) / 10}%`
}

/** Every period (`YYYY-MM-DD` days, or the Mondays of ISO weeks) from `from` to `to`: charts show empty periods as 0. */
export function periodsOf (from: string, to: string, interval: 'day' | 'week'): string[] {
  const start = Date.parse(`${from}T00:00:00Z`)
  const end = Date.parse(`${to}T00:00:00Z`)
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return []
  const day = 86_400_000
  const first = interval === 'week' ? start - ((new Date(start).getUTCDay() + 6) % 7) * day : start
  const periods: string[] = []
  for (let at = first; at <= end && periods.length < 800; at += interval === 'week' ? 7 * day : day) periods.push(new Date(at).toISOString().slice(0, 10))
  return periods
}
