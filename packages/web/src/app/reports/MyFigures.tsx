import { useAsync } from '../hooks.js'
import { browserZone, daysAgo, formatDuration, formatRate, loadReport, type ReportFilters } from './report-data.js'
import { t } from '../../messages/index.js'

/** An agent's own figures over the last 30 days, on their home screen (numbers only: no chart library here). */
export function MyFigures ({ agentId }: { agentId: number }) {
  const figures = useAsync(async () => {
    const f: ReportFilters = { from: daysAgo(29), to: daysAgo(0), time_zone: browserZone(), group_by: '', interval: 'day', agent: agentId }
    const [frt, res, sat, volume] = await Promise.all([loadReport('first-response-time', f), loadReport('resolution-time', f), loadReport('satisfaction', f), loadReport('volume', f)])
    return {
      solved: volume.rows.reduce((n, r) => n + Number(r.resolved), 0),
      firstResponse: frt.rows[0]?.median_s ?? null,
      resolution: res.rows[0]?.median_s ?? null,
      satisfaction: sat.rows[0]?.score ?? null
    }
  }, [agentId])
  // Reports may be kept to administrators (reports.admins_only): then there is nothing to show.
  if (figures.data === undefined) return null
  const f = figures.data
  return (
    <section class="my-figures" aria-label={t('reports.myFigures')}>
      <h2>{t('reports.myFigures')}</h2>
      <dl>
        <div><dt>{t('reports.solved')}</dt><dd>{f.solved}</dd></div>
        <div><dt>{t('reports.medianFirstResponse')}</dt><dd>{formatDuration(f.firstResponse)}</dd></div>
        <div><dt>{t('reports.medianResolution')}</dt><dd>{formatDuration(f.resolution)}</dd></div>
        <div><dt>{t('reports.satisfaction')}</dt><dd>{formatRate(f.satisfaction)}</dd></div>
      </dl>
    </section>
  )
}
