import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { useSession } from '../session.js'
import { useAction } from '../hooks.js'
import { Field, ErrorBanner } from '../components/ui.js'
import { t } from '../../messages/index.js'

export default function Register () {
  const { register } = useSession()
  const [form, setForm] = useState({ first_name: '', last_name: '', email: '', password: '', password_confirmation: '' })
  const set = (key: keyof typeof form) => (value: string) => { setForm({ ...form, [key]: value }) }
  const { run, pending, error } = useAction(register)
  return (
    <section class="narrow">
      <h1>{t('register.title')}</h1>
      <form onSubmit={(event) => { event.preventDefault(); void run(form) }} noValidate>
        <ErrorBanner error={error} />
        <Field label={t('person.firstName')} name="first_name" autoComplete="given-name" value={form.first_name} onValue={set('first_name')} error={error} required />
        <Field label={t('person.lastName')} name="last_name" autoComplete="family-name" value={form.last_name} onValue={set('last_name')} error={error} required />
        <Field label={t('person.email')} name="email" type="email" autoComplete="email" value={form.email} onValue={set('email')} error={error} required />
        <Field label={t('person.password')} name="password" type="password" autoComplete="new-password" value={form.password} onValue={set('password')} error={error} required />
        <Field label={t('person.passwordConfirmation')} name="password_confirmation" type="password" autoComplete="new-password" value={form.password_confirmation} onValue={set('password_confirmation')} error={error} required />
        <button type="submit" class="primary" disabled={pending}>{t('register.submit')}</button>
      </form>
      <p>{t('register.haveAccount')} <Link href="/login">{t('register.logInLink')}</Link></p>
    </section>
  )
}
