import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { useSession } from '../session.js'
import { useAction } from '../hooks.js'
import { Field, ErrorBanner } from '../components/ui.js'
import { t } from '../../messages/index.js'

export function LoginScreen () {
  const { logIn } = useSession()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const { run, pending, error } = useAction(logIn)
  return (
    <section class="narrow">
      <h1>{t('login.title')}</h1>
      <form onSubmit={(event) => { event.preventDefault(); void run(email, password) }} noValidate>
        <ErrorBanner error={error} />
        <Field label={t('login.email')} name="email" type="email" autoComplete="username" value={email} onValue={setEmail} error={error} required />
        <Field label={t('login.password')} name="password" type="password" autoComplete="current-password" value={password} onValue={setPassword} error={error} required />
        <button type="submit" class="primary" disabled={pending}>{pending ? t('login.submitting') : t('login.submit')}</button>
      </form>
      <p>{t('login.noAccount')} <Link href="/register">{t('login.registerLink')}</Link></p>
    </section>
  )
}
