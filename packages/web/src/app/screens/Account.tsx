import { useEffect, useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../api.js'
import { useAction } from '../hooks.js'
import { useSession, type SecondFactor } from '../session.js'
import { ErrorBanner, Field, Loading, StatusMessage } from '../components/ui.js'
import { RecoveryCodes, SecondFactorStep, useLinkToken } from '../components/sign-in.js'
import { t } from '../../messages/index.js'

/** "Forgot password": the same answer whether or not the address is known. */
export function ForgotPassword () {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState(false)
  const send = useAction(async () => { await api.post('/auth/password/forgot', { email }); setSent(true) })
  return (
    <section class="narrow">
      <h1>{t('account.forgotTitle')}</h1>
      {sent
        ? <StatusMessage message={t('account.forgotSent')} />
        : (
          <form onSubmit={(event) => { event.preventDefault(); void send.run() }} noValidate>
            <p>{t('account.forgotIntro')}</p>
            <ErrorBanner error={send.error} />
            <Field label={t('login.email')} name="email" type="email" autoComplete="username" value={email} onValue={setEmail} error={send.error} required />
            <button type="submit" class="primary" disabled={send.pending}>{t('account.forgotSubmit')}</button>
          </form>
          )}
      <p><Link href="/login">{t('account.backToLogin')}</Link></p>
    </section>
  )
}

/** The reset link's page: a new password (every session ends). */
export function ResetPassword () {
  const token = useLinkToken()
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [done, setDone] = useState(false)
  const reset = useAction(async () => {
    await api.post('/auth/password/reset', { token: token ?? '', password, password_confirmation: confirmation })
    setDone(true)
  })
  return (
    <section class="narrow">
      <h1>{t('account.resetTitle')}</h1>
      {done
        ? <StatusMessage message={t('account.resetDone')} />
        : (
          <form onSubmit={(event) => { event.preventDefault(); void reset.run() }} noValidate>
            <ErrorBanner error={reset.error} />
            {reset.error?.fieldError('token') !== undefined ? <p><Link href="/forgot-password">{t('account.askAgain')}</Link></p> : null}
            <Field label={t('account.newPassword')} name="password" type="password" autoComplete="new-password" value={password} onValue={setPassword} error={reset.error} required />
            <Field label={t('account.confirmPassword')} name="password_confirmation" type="password" autoComplete="new-password" value={confirmation} onValue={setConfirmation} error={reset.error} required />
            <button type="submit" class="primary" disabled={reset.pending || token === null}>{t('account.resetSubmit')}</button>
          </form>
          )}
      <p><Link href="/login">{t('account.backToLogin')}</Link></p>
    </section>
  )
}

/** Asking for a magic sign-in link (customers; those created from a mail have no password). */
export function MagicLinkRequest () {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState(false)
  const send = useAction(async () => { await api.post('/auth/magic-link', { email }); setSent(true) })
  return (
    <section class="narrow">
      <h1>{t('account.magicTitle')}</h1>
      {sent
        ? <StatusMessage message={t('account.magicSent')} />
        : (
          <form onSubmit={(event) => { event.preventDefault(); void send.run() }} noValidate>
            <p>{t('account.magicIntro')}</p>
            <ErrorBanner error={send.error} />
            <Field label={t('login.email')} name="email" type="email" autoComplete="username" value={email} onValue={setEmail} error={send.error} required />
            <button type="submit" class="primary" disabled={send.pending}>{t('account.magicSubmit')}</button>
          </form>
          )}
      <p><Link href="/login">{t('account.backToLogin')}</Link></p>
    </section>
  )
}

/** The magic link's page: signs in at once (or asks for the second factor). */
export function MagicLinkLanding () {
  const token = useLinkToken()
  const { magicLink } = useSession()
  const [challenge, setChallenge] = useState<SecondFactor | null>(null)
  const [codes, setCodes] = useState<{ codes: string[], accept: () => Promise<void> } | null>(null)
  const signIn = useAction(async () => {
    const outcome = await magicLink(token ?? '')
    if ('secondFactor' in outcome) setChallenge(outcome.secondFactor)
    else if (outcome.recoveryCodes !== null) setCodes({ codes: outcome.recoveryCodes, accept: outcome.accept })
  })
  useEffect(() => { if (token !== null) void signIn.run() }, [])
  if (codes !== null) return <RecoveryCodes codes={codes.codes} onDone={() => { void codes.accept() }} />
  if (challenge !== null) return <SecondFactorStep challenge={challenge} onCancel={() => { setChallenge(null) }} />
  return (
    <section class="narrow">
      <h1>{t('account.magicTitle')}</h1>
      {signIn.error !== undefined || token === null
        ? <><ErrorBanner error={signIn.error} /><p><Link href="/sign-in/email">{t('account.askAgain')}</Link></p></>
        : <Loading label={t('account.signingIn')} />}
    </section>
  )
}

/** The verification link's page. */
export function VerifyEmail () {
  const token = useLinkToken()
  const [done, setDone] = useState(false)
  const verify = useAction(async () => { await api.post('/auth/email/verify', { token: token ?? '' }); setDone(true) })
  useEffect(() => { if (token !== null) void verify.run() }, [])
  return (
    <section class="narrow">
      <h1>{t('account.verifyTitle')}</h1>
      {done ? <StatusMessage message={t('account.verified')} /> : verify.error !== undefined ? <ErrorBanner error={verify.error} /> : <Loading />}
      <p><Link href="/">{t('account.continue')}</Link></p>
    </section>
  )
}
