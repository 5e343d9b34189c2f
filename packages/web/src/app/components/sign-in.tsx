import { useEffect, useState } from 'preact/hooks'
import { api, apiBase } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import type { SecondFactor, SignInOutcome } from '../session.js'
import { useSession } from '../session.js'
import { ErrorBanner, Field } from './ui.js'
import { t } from '../../messages/index.js'

export interface Enrolment { secret: string, otpauth_url: string, qr_svg: string }

/** An authenticator app's QR code (an SVG the server drew from the otpauth URL) and the secret to type by hand. */
export function QrCode ({ enrolment }: { enrolment: Enrolment }) {
  return (
    <div class="qr">
      <div class="qr-code" role="img" aria-label={t('twoFactor.qrLabel')} dangerouslySetInnerHTML={{ __html: enrolment.qr_svg }} />
      <p class="muted">{t('twoFactor.manual')} <code data-testid="totp-secret">{enrolment.secret}</code></p>
    </div>
  )
}

/** Ten recovery codes, shown once: copy or download them before going on. */
export function RecoveryCodes ({ codes, onDone }: { codes: string[], onDone: () => void }) {
  const [copied, setCopied] = useState(false)
  const text = `${codes.join('\n')}\n`
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`
  return (
    <section class="narrow" aria-labelledby="recovery-title">
      <h1 id="recovery-title">{t('twoFactor.codesTitle')}</h1>
      <p>{t('twoFactor.codesIntro')}</p>
      <ul class="recovery-codes" aria-label={t('twoFactor.codesTitle')}>
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ul>
      <p>
        <button type="button" onClick={() => { void navigator.clipboard?.writeText(text).then(() => { setCopied(true) }, () => {}) }}>{copied ? t('twoFactor.copied') : t('twoFactor.copy')}</button>{' '}
        <a class="button" href={href} download="helpdesk-recovery-codes.txt">{t('twoFactor.download')}</a>
      </p>
      <button type="button" class="primary" onClick={onDone}>{t('twoFactor.codesSaved')}</button>
    </section>
  )
}

/**
 * The second step of a sign-in: a code from the authenticator app (or a recovery code); for a person who must
 * enrol first, the QR code to scan, then the first code.
 */
export function SecondFactorStep ({ challenge, onCancel }: { challenge: SecondFactor, onCancel: () => void }) {
  const { secondFactor } = useSession()
  const [code, setCode] = useState('')
  const [codes, setCodes] = useState<{ codes: string[], accept: () => Promise<void> } | null>(null)
  const enrolment = useAsync(async () => challenge.enrol ? (await api.post<{ data: Enrolment }>('/auth/two-factor/enrolment-challenge', { challenge: challenge.challenge })).data : null, [challenge.challenge])
  const submit = useAction(async () => {
    const outcome: SignInOutcome = await secondFactor(challenge.challenge, code)
    if ('signedIn' in outcome && outcome.recoveryCodes !== null) setCodes({ codes: outcome.recoveryCodes, accept: outcome.accept })
  })
  if (codes !== null) return <RecoveryCodes codes={codes.codes} onDone={() => { void codes.accept() }} />
  return (
    <section class="narrow">
      <h1>{challenge.enrol ? t('twoFactor.enrolTitle') : t('twoFactor.codeTitle')}</h1>
      {challenge.enrol ? <p>{t('twoFactor.enrolRequired')}</p> : <p>{t('twoFactor.codeIntro')}</p>}
      <ErrorBanner error={enrolment.error} />
      {enrolment.data !== undefined && enrolment.data !== null ? <QrCode enrolment={enrolment.data} /> : null}
      <form onSubmit={(event) => { event.preventDefault(); void submit.run() }} noValidate>
        <ErrorBanner error={submit.error} />
        <Field label={t('twoFactor.code')} name="code" autoComplete="one-time-code" value={code} onValue={setCode} error={submit.error} required />
        <button type="submit" class="primary" disabled={submit.pending}>{t('twoFactor.verify')}</button>{' '}
        <button type="button" class="link-button" onClick={onCancel}>{t('twoFactor.cancel')}</button>
      </form>
    </section>
  )
}

interface Provider { slug: string, name: string, staff: boolean, customers: boolean }

/** The sign-in buttons of the single-sign-on providers (none: nothing shown). */
export function ProviderButtons ({ returnTo }: { returnTo?: string }) {
  const providers = useAsync(async () => (await api.get<{ data: Provider[] }>('/auth/sso/providers')).data, [])
  const list = providers.data ?? []
  if (list.length === 0) return null
  const suffix = returnTo !== undefined ? `?return_to=${encodeURIComponent(returnTo)}` : ''
  return (
    <nav class="sso-buttons" aria-label={t('login.sso')}>
      {list.map((p) => <a key={p.slug} class="button" href={`${apiBase()}/auth/sso/${encodeURIComponent(p.slug)}/start${suffix}`}>{t('login.ssoWith', { name: p.name })}</a>)}
    </nav>
  )
}

/** The token a mailed link carries in its fragment (`#token=...`), which browsers never send to a server. */
export function useLinkToken (): string | null {
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token'))
  useEffect(() => {
    // Out of the address bar (and the history) once read.
    if (token !== null) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search)
  }, [token])
  return token
}
