import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { ErrorBanner, Field, Loading, PageHeader, StatusMessage } from '../components/ui.js'
import { QrCode, RecoveryCodes, type Enrolment } from '../components/sign-in.js'
import { t } from '../../messages/index.js'

interface Status { enabled: boolean, required: boolean, recovery_codes_left: number }

/** Profile -> security: two-factor authentication and its recovery codes; the sessions are a link away. */
export default function Security () {
  const status = useAsync(async () => (await api.get<{ data: Status }>('/auth/two-factor')).data, [])
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null)
  const [codes, setCodes] = useState<string[] | null>(null)
  const [code, setCode] = useState('')
  const [done, setDone] = useState('')
  const begin = useAction(async () => { setEnrolment((await api.post<{ data: Enrolment }>('/auth/two-factor/enrolment')).data) })
  const confirm = useAction(async () => {
    const answer = await api.post<{ data: { recovery_codes: string[] } }>('/auth/two-factor/confirmation', { code })
    setEnrolment(null)
    setCode('')
    setCodes(answer.data.recovery_codes)
  })
  const regenerate = useAction(async () => {
    const answer = await api.post<{ data: { recovery_codes: string[] } }>('/auth/two-factor/recovery-codes', { code })
    setCode('')
    setCodes(answer.data.recovery_codes)
  })
  const disable = useAction(async () => {
    await api.delete('/auth/two-factor', { code })
    setCode('')
    setDone(t('twoFactor.disabled'))
    status.reload()
  })
  if (codes !== null) return <RecoveryCodes codes={codes} onDone={() => { setCodes(null); setDone(t('twoFactor.enabledDone')); status.reload() }} />
  const current = status.data
  return (
    <section>
      <PageHeader title={t('security.title')} />
      <p><Link href="/sessions">{t('security.sessionsLink')}</Link></p>
      <h2>{t('twoFactor.title')}</h2>
      <p class="muted">{t('twoFactor.intro')}</p>
      {done !== '' ? <StatusMessage message={done} /> : null}
      <ErrorBanner error={status.error} />
      {current === undefined
        ? <Loading />
        : current.enabled
          ? (
            <div class="panel">
              <p data-testid="two-factor-status">{t('twoFactor.on', { count: current.recovery_codes_left })}</p>
              <ErrorBanner error={regenerate.error ?? disable.error} />
              <Field label={t('twoFactor.code')} name="code" autoComplete="one-time-code" value={code} onValue={setCode} error={regenerate.error ?? disable.error} hint={t('twoFactor.codeHint')} />
              <button type="button" disabled={regenerate.pending} onClick={() => { void regenerate.run() }}>{t('twoFactor.newCodes')}</button>{' '}
              {current.required ? <span class="muted">{t('twoFactor.requiredNote')}</span> : <button type="button" class="danger" disabled={disable.pending} onClick={() => { void disable.run() }}>{t('twoFactor.turnOff')}</button>}
            </div>
            )
          : enrolment === null
            ? (
              <div class="panel">
                <p data-testid="two-factor-status">{current.required ? t('twoFactor.offRequired') : t('twoFactor.off')}</p>
                <ErrorBanner error={begin.error} />
                <button type="button" class="primary" disabled={begin.pending} onClick={() => { void begin.run() }}>{t('twoFactor.turnOn')}</button>
              </div>
              )
            : (
              <form class="panel" onSubmit={(event) => { event.preventDefault(); void confirm.run() }} noValidate>
                <p>{t('twoFactor.scan')}</p>
                <QrCode enrolment={enrolment} />
                <ErrorBanner error={confirm.error} />
                <Field label={t('twoFactor.code')} name="code" autoComplete="one-time-code" value={code} onValue={setCode} error={confirm.error} required />
                <button type="submit" class="primary" disabled={confirm.pending}>{t('twoFactor.confirm')}</button>
              </form>
              )}
    </section>
  )
}
