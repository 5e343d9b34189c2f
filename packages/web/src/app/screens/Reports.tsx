import { useState } from 'preact/hooks'
import { useAsync } from '../hooks.js'
import { loadAgents, loadCategories } from '../data.js'
import { ErrorBanner, Field, Loading, PageHeader, personName } from '../components/ui.js'
import { Chart } from '../reports/Chart.js'
import { browserZone, csvUrl, daysAgo, formatDuration, formatRate, loadReport, METRICS, periodsOf, REPORT_PRIORITIES, type Metric, type Report, type ReportFilters } from '../reports/report-data.js'
import { t, type MessageKey } from '../../messages/index.js'

const SUMMARY: Metric[] = ['first-response-time', 'resolution-time', 'replies', 'reopen-rate', 'satisfaction']

/** Rows of several grouped reports side by side, one per group. */
function summaryRows (reports: Record<string, Report>): Array<{ group: string, cells: Record<string, Record<string, string | number | null>> }> {
  const groups = new Map<string, Record<string, Record<string, string | number | null>>>()
  for (const metric of SUMMARY) {
    for (const row of reports[metric]?.rows ?? []) {
      const key = String(row.group ?? '')
      const cells = groups.get(key) ?? {}
      cells[metric] = row
      groups.set(key, cells)
    }
  }
  return [...groups.entries()].map(([group, cells]) => ({ group, cells }))
}

/**
 * Reports for staff (docs/reports.md): response and resolution times
 * (median and 90th percentile, in calendar or business time), replies,
 * reopen rate, satisfaction, SLA attainment per target, volume and backlog over a date range in a time zone, grouped by category, agent,
 * channel or priority and narrowed to one priority, each downloadable as CSV. Its charts (uPlot) load with this
 * screen only.
 */
export default function ReportsScreen () {
  const [filters, setFilters] = useState<ReportFilters>({ from: daysAgo(29), to: daysAgo(0), time_zone: browserZone(), group_by: '', interval: 'day', time: 'calendar' })
  const change = (patch: Partial<ReportFilters>) => { setFilters({ ...filters, ...patch }) }
  const names = useAsync(async () => {
    const [categories, agents] = await Promise.all([loadCategories().catch(() => []), loadAgents()])
    return { categories: new Map(categories.map((c) => [String(c.id), c.name])), agents: new Map(agents.map((a) => [String(a.id), personName(a)])) }
  }, [])
  const reports = useAsync(async () => {
    const loaded = await Promise.all(METRICS.map(async (metric) => [metric, await loadReport(metric, filters)] as const))
    return Object.fromEntries(loaded) as Record<Metric, Report>
  }, [JSON.stringify(filters)])

  const groupName = (group: string): string => {
    if (filters.group_by === '') return t('reports.all')
    if (filters.group_by === 'category') return names.data?.categories.get(group) ?? `#${group}`
    if (filters.group_by === 'agent') return group === '0' ? t('reports.unassigned') : names.data?.agents.get(group) ?? `#${group}`
    if (filters.group_by === 'priority') return t(`priority.${group}` as MessageKey)
    return group
  }
  const data = reports.data
  const volume = data?.volume
  const backlog = data?.backlog
  const backlogBuckets = ['0-1d', '1-3d', '3-7d', '7-30d', '30d+']
  const backlogCounts = backlogBuckets.map((bucket) => (backlog?.rows ?? []).filter((r) => r.age === bucket).reduce((n, r) => n + Number(r.tickets), 0))

  return (
    <section class="reports">
      <PageHeader title={t('reports.title')} />
      <form class="report-filters" onSubmit={(e) => { e.preventDefault() }}>
        <Field label={t('reports.from')} name="from" type="date" value={filters.from} onValue={(from) => { change({ from }) }} />
        <Field label={t('reports.to')} name="to" type="date" value={filters.to} onValue={(to) => { change({ to }) }} />
        <Field label={t('reports.timeZone')} name="time_zone" value={filters.time_zone} onValue={(zone) => { change({ time_zone: zone }) }} error={reports.error} />
        <Field label={t('reports.groupBy')} name="group_by" value={filters.group_by} onValue={(g) => { change({ group_by: g as ReportFilters['group_by'] }) }}
          options={[{ value: '', label: t('reports.noGrouping') }, { value: 'category', label: t('reports.byCategory') }, { value: 'agent', label: t('reports.byAgent') }, { value: 'channel', label: t('reports.byChannel') }, { value: 'priority', label: t('reports.byPriority') }]} />
        <Field label={t('reports.priority')} name="priority" value={filters.priority ?? ''} onValue={(p) => { change({ priority: p as ReportFilters['priority'] }) }}
          options={[{ value: '', label: t('reports.anyPriority') }, ...REPORT_PRIORITIES.map((p) => ({ value: p, label: t(`priority.${p}`) }))]} />
        <Field label={t('reports.interval')} name="interval" value={filters.interval} onValue={(i) => { change({ interval: i as ReportFilters['interval'] }) }}
          options={[{ value: 'day', label: t('reports.daily') }, { value: 'week', label: t('reports.weekly') }]} />
        <Field label={t('reports.time')} name="time" value={filters.time ?? 'calendar'} onValue={(time) => { change({ time: time as ReportFilters['time'] }) }}
          options={[{ value: 'calendar', label: t('reports.calendarTime') }, { value: 'business', label: t('reports.businessTime') }]} />
      </form>
      {reports.error !== undefined ? <ErrorBanner error={reports.error} /> : null}
      {data === undefined ? (reports.error === undefined ? <Loading /> : null) : (
        <>
          <h2>{t('reports.summary')}</h2>
          <table class="report-table">
            <thead>
              <tr>
                <th scope="col">{filters.group_by === '' ? '' : t(`reports.group.${filters.group_by}` as MessageKey)}</th>
                <th scope="col">{t('reports.firstResponse')}</th>
                <th scope="col">{t('reports.resolution')}</th>
                <th scope="col">{t('reports.replies')}</th>
                <th scope="col">{t('reports.reopenRate')}</th>
                <th scope="col">{t('reports.satisfaction')}</th>
              </tr>
            </thead>
            <tbody>
              {summaryRows(data).map(({ group, cells }) => (
                <tr key={group}>
                  <th scope="row">{groupName(group)}</th>
                  <td>{t('reports.medianP90', { median: formatDuration(cells['first-response-time']?.median_s), p90: formatDuration(cells['first-response-time']?.p90_s) })}</td>
                  <td>{t('reports.medianP90', { median: formatDuration(cells['resolution-time']?.median_s), p90: formatDuration(cells['resolution-time']?.p90_s) })}</td>
                  <td>{cells.replies?.mean_replies ?? '–'}</td>
                  <td>{formatRate(cells['reopen-rate']?.reopen_rate)}</td>
                  <td>{formatRate(cells.satisfaction?.score)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data['first-response-time'].estimated === true || data['resolution-time'].estimated === true ? <p class="muted">{t('reports.estimated')}</p> : null}
          <h2>{t('reports.sla')}</h2>
          {data['sla-attainment'].rows.length > 0
            ? (
              <table class="report-table">
                <thead>
                  <tr>
                    <th scope="col">{filters.group_by === '' ? '' : t(`reports.group.${filters.group_by}` as MessageKey)}</th>
                    <th scope="col">{t('reports.slaTarget')}</th>
                    <th scope="col">{t('reports.met')}</th>
                    <th scope="col">{t('reports.breached')}</th>
                    <th scope="col">{t('reports.slaRate')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data['sla-attainment'].rows.map((row) => (
                    <tr key={`${String(row.group ?? '')}|${String(row.target)}`}>
                      <th scope="row">{groupName(String(row.group ?? ''))}</th>
                      <td>{t(`reports.sla.${String(row.target)}` as MessageKey)}</td>
                      <td>{row.met}</td>
                      <td>{row.breached}</td>
                      <td>{formatRate(row.rate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              )
            : <p class="muted">{t('reports.noSla')}</p>}
          <h2>{t('reports.volume')}</h2>
          {volume !== undefined && volume.rows.length > 0
            ? (() => {
                const periods = periodsOf(volume.from, volume.to, filters.interval)
                const byPeriod = new Map(volume.rows.map((r) => [String(r.period), r]))
                return (
                  <Chart label={t('reports.volumeChart')} x={periods.map((p) => Date.parse(`${p}T00:00:00Z`) / 1000)} series={[
                    { label: t('reports.created'), values: periods.map((p) => Number(byPeriod.get(p)?.created ?? 0)), color: '#2563eb' },
                    { label: t('reports.solved'), values: periods.map((p) => Number(byPeriod.get(p)?.resolved ?? 0)), color: '#16a34a' }
                  ]} />
                )
              })()
            : <p class="muted">{t('reports.noData')}</p>}
          <h2>{t('reports.backlog')}</h2>
          <Chart label={t('reports.backlogChart')} x={backlogBuckets.map((_b, i) => i)} categories={backlogBuckets}
            series={[{ label: t('reports.openTickets'), values: backlogCounts, color: '#d97706' }]} />
          <h2>{t('reports.downloads')}</h2>
          <ul class="report-downloads">
            {METRICS.map((metric) => <li key={metric}><a href={csvUrl(metric, filters)} download>{t(`reports.csv.${metric}` as MessageKey)}</a></li>)}
            <li><a href={csvUrl('tickets', filters)} download>{t('reports.csv.tickets')}</a></li>
          </ul>
        </>
      )}
    </section>
  )
}
