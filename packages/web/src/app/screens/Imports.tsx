import { useEffect, useId, useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAction } from '../hooks.js'
import { ErrorBanner, PageHeader } from '../components/ui.js'
import { t, type MessageKey } from '../../messages/index.js'
import type { ImportJob } from '../types.js'

const POLL_MS = 1000

export default function Imports () {
  const id = useId()
  const [file, setFile] = useState<File | null>(null)
  const [job, setJob] = useState<ImportJob | null>(null)
  const start = useAction(async () => {
    if (file === null) return
    const form = new FormData()
    form.append('file', file, file.name)
    setJob((await api.post<{ data: ImportJob }>('/imports', form)).data)
  })
  const poll = useAction(async (jobId: number) => { setJob((await api.get<{ data: ImportJob }>(`/imports/${jobId}`)).data) })

  useEffect(() => {
    if (job === null || job.status === 'completed' || job.status === 'failed') return
    const timer = setTimeout(() => { void poll.run(job.id) }, POLL_MS)
    return () => { clearTimeout(timer) }
  }, [job])

  const finished = job !== null && (job.status === 'completed' || job.status === 'failed')
  return (
    <section class="narrow">
      <PageHeader title={t('imports.title')} />
      <p>{t('imports.intro')}</p>
      <form onSubmit={(e) => { e.preventDefault(); void start.run() }} noValidate>
        <ErrorBanner error={start.error ?? poll.error} />
        <div class="field">
          <label for={id}>{t('imports.file')}</label>
          <input id={id} name="file" type="file" accept=".json,.jsonl,.csv,application/json,text/csv" onChange={(e) => { setFile(e.currentTarget.files?.[0] ?? null) }} />
        </div>
        <button type="submit" class="primary" disabled={file === null || start.pending || (job !== null && !finished)}>{t('imports.start')}</button>
      </form>
      {job !== null
        ? (
          <section class="panel" aria-labelledby="import-status">
            <h2 id="import-status">{t('imports.job', { id: job.id })}</h2>
            <p role="status" aria-live="polite">{t(`imports.status.${job.status}` as MessageKey)} — {t('imports.progress', { processed: job.processed, total: job.total, created: job.created, failed: job.failed })}</p>
            <progress class="progress" max={job.total > 0 ? job.total : 1} value={job.total > 0 ? job.processed : (finished ? 1 : 0)} aria-label={t('imports.progressLabel')} />
            {job.message !== null ? <p class={job.status === 'failed' ? 'field-error' : ''}>{job.message}</p> : null}
          </section>
          )
        : null}
    </section>
  )
}
