import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { useSession, type SecondFactor } from '../session.js'
import { useAction } from '../hooks.js'
import { Field, ErrorBanner } from '../components/ui.js'
import { ProviderButtons, RecoveryCodes, SecondFactorStep } from '../components/sign-in.js'
import { t } from '../../messages/index.js'

export function LoginScreen () {
  const { logIn } = useSession()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [challenge, setChallenge] = useState<SecondFactor | null>(null)
  const [codes, setCodes] = useState<{ codes: string[], accept: () => Promise<void> } | null>(null)
  const ssoError = new URLSearchParams(window.location.search).get('sso_error')
  const { run, pending, error } = useAction(async () => {
    const outcome = await logIn(email, password)
    if ('secondFactor' in outcome) setChallenge(outcome.secondFactor)
    else if (outcome.recoveryCodes !== null) setCodes({ codes: outcome.recoveryCodes, accept: outcome.accept })
  })
  if (codes !== null) return <RecoveryCodes codes={codes.codes} onDone={() => { void codes.accept() }} />
  if (challenge !== null) return <SecondFactorStep challenge={challenge} onCancel={() => { setChallenge(null); setPassword('') }} />
  return (
    <section class="narrow">
      <h1>{t('login.title')}</h1>
      {ssoError !== null ? <div class="banner banner-error" role="alert">{ssoError}</div> : null}
      <ProviderButtons />
      <form onSubmit={(event) => { event.preventDefault(); void run() }} noValidate>
        <ErrorBanner error={error} />
        <Field label={t('login.email')} name="email" type="email" autoComplete="username" value={email} onValue={setEmail} error={error} required />
        <Field label={t('login.password')} name="password" type="password" autoComplete="current-password" value={password} onValue={setPassword} error={error} required />
        <button type="submit" class="primary" disabled={pending}>{pending ? t('login.submitting') : t('login.submit')}</button>
      </form>
      <p><Link href="/forgot-password">{t('login.forgot')}</Link> · <Link href="/sign-in/email">{t('login.magicLink')}</Link></p>
      <p>{t('login.noAccount')} <Link href="/register">{t('login.registerLink')}</Link></p>
    </section>
  )
}
