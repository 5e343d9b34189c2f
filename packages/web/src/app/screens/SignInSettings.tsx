import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { Checkbox, EditorForm, ErrorBanner, Field, ItemButton, Loading, PageHeader, StatusMessage } from '../components/ui.js'
import { t } from '../../messages/index.js'

interface Settings {
  'auth.email_verification': 'off' | 'optional' | 'required'
  'auth.two_factor_required': Array<'admin' | 'agent' | 'customer'>
  'auth.sso_only_staff': boolean
}

interface Mapping {
  claim: string | null
  admin: string[]
  agent: string[]
  permissions: { [key: string]: string[] }
  categories: { [value: string]: number[] }
}

interface Provider {
  id: number
  slug: string
  name: string
  issuer: string
  client_id: string
  has_client_secret: boolean
  scopes: string
  enabled: boolean
  staff: boolean
  customers: boolean
  create_users: boolean
  link_by_email: boolean
  mapping: Mapping
}

const ROLES = ['admin', 'agent', 'customer'] as const
const list = (text: string): string[] => text.split(',').map((s) => s.trim()).filter((s) => s !== '')

/** The sign-in settings (email verification, two-factor per role, SSO-only staff) and what they apply to. */
function SettingsPanel () {
  const loaded = useAsync(async () => (await api.get<{ data: Settings }>('/settings')).data, [])
  const [draft, setDraft] = useState<Settings | null>(null)
  const [done, setDone] = useState('')
  const settings = draft ?? loaded.data
  const save = useAction(async () => {
    if (settings === undefined) return
    // Only this screen's keys: the others (the survey's) may have changed since this screen loaded.
    const own = Object.fromEntries(Object.entries(settings).filter(([key]) => key.startsWith('auth.')))
    setDraft((await api.patch<{ data: Settings }>('/settings', own)).data)
    setDone(t('signInSettings.saved'))
  })
  if (settings === undefined) return loaded.error !== undefined ? <ErrorBanner error={loaded.error} /> : <Loading />
  const change = (patch: Partial<Settings>) => { setDraft({ ...settings, ...patch }); setDone('') }
  return (
    <EditorForm heading={t('signInSettings.settings')} creating={false} save={save}>
      {done !== '' ? <StatusMessage message={done} /> : null}
      <Field
        label={t('signInSettings.verification')} name="auth.email_verification" value={settings['auth.email_verification']} error={save.error}
        onValue={(value) => { change({ 'auth.email_verification': value as Settings['auth.email_verification'] }) }}
        options={[{ value: 'off', label: t('signInSettings.verificationOff') }, { value: 'optional', label: t('signInSettings.verificationOptional') }, { value: 'required', label: t('signInSettings.verificationRequired') }]}
      />
      <fieldset>
        <legend>{t('signInSettings.twoFactorRequired')}</legend>
        {ROLES.map((role) => (
          <Checkbox
            key={role} name={`two-factor-${role}`} label={t(`signInSettings.role.${role}`)} checked={settings['auth.two_factor_required'].includes(role)}
            onChange={(on) => { change({ 'auth.two_factor_required': on ? [...settings['auth.two_factor_required'], role] : settings['auth.two_factor_required'].filter((r) => r !== role) }) }}
          />
        ))}
      </fieldset>
      <Checkbox name="sso-only" label={t('signInSettings.ssoOnly')} checked={settings['auth.sso_only_staff']} onChange={(on) => { change({ 'auth.sso_only_staff': on }) }} />
    </EditorForm>
  )
}

/** An administrator resets someone's two-factor authentication (lost phone and recovery codes), found by email. */
function ResetTwoFactor () {
  const [email, setEmail] = useState('')
  const [done, setDone] = useState('')
  const reset = useAction(async () => {
    setDone('')
    const find = async (path: string) => (await api.get<{ data: Array<{ id: number, email: string }> }>(path, { filter: { email }, per_page: 5 })).data
      .find((p) => p.email.toLowerCase() === email.trim().toLowerCase())
    const person = await find('/agents') ?? await find('/customers')
    if (person === undefined) { setDone(t('signInSettings.resetUnknown')); return }
    await api.delete(`/auth/two-factor/users/${person.id}`)
    setDone(t('signInSettings.resetDone', { email: person.email }))
  })
  return (
    <form class="panel" onSubmit={(event) => { event.preventDefault(); void reset.run() }} noValidate>
      <h2>{t('signInSettings.resetTitle')}</h2>
      <p class="muted">{t('signInSettings.resetIntro')}</p>
      <ErrorBanner error={reset.error} />
      {done !== '' ? <StatusMessage message={done} /> : null}
      <Field label={t('login.email')} name="reset-email" type="email" value={email} onValue={setEmail} />
      <button type="submit" class="danger" disabled={reset.pending}>{t('signInSettings.reset')}</button>
    </form>
  )
}

interface ProviderDraft {
  slug: string; name: string; issuer: string; client_id: string; client_secret: string; scopes: string
  enabled: boolean; staff: boolean; customers: boolean; create_users: boolean; link_by_email: boolean
  claim: string; admin: string; agent: string
}

function draftOf (p?: Provider): ProviderDraft {
  return {
    slug: p?.slug ?? '', name: p?.name ?? '', issuer: p?.issuer ?? '', client_id: p?.client_id ?? '', client_secret: '', scopes: p?.scopes ?? 'openid email profile',
    enabled: p?.enabled ?? true, staff: p?.staff ?? true, customers: p?.customers ?? false, create_users: p?.create_users ?? false, link_by_email: p?.link_by_email ?? false,
    claim: p?.mapping.claim ?? '', admin: (p?.mapping.admin ?? []).join(', '), agent: (p?.mapping.agent ?? []).join(', ')
  }
}

/** Single-sign-on providers: add, change, remove. The client secret is write-only. */
function Providers () {
  const providers = useAsync(async () => await api.getAll<Provider>('/sso/providers'), [])
  const [editing, setEditing] = useState<Provider | 'new' | null>(null)
  const [draft, setDraft] = useState<ProviderDraft>(draftOf())
  const [done, setDone] = useState('')
  const save = useAction(async () => {
    const body = {
      slug: draft.slug, name: draft.name, issuer: draft.issuer, client_id: draft.client_id, scopes: draft.scopes,
      enabled: draft.enabled, staff: draft.staff, customers: draft.customers, create_users: draft.create_users, link_by_email: draft.link_by_email,
      ...(draft.client_secret !== '' ? { client_secret: draft.client_secret } : {}),
      mapping: { claim: draft.claim === '' ? null : draft.claim, admin: list(draft.admin), agent: list(draft.agent) }
    }
    await api.save('/sso/providers', editing === 'new' || editing === null ? undefined : editing, body)
    setEditing(null)
    setDone(t('signInSettings.providerSaved'))
    providers.reload()
  })
  const remove = useAction(async (p: Provider) => {
    if (!window.confirm(t('signInSettings.providerRemoveConfirm', { name: p.name }))) return
    await api.delete(`/sso/providers/${p.id}`)
    providers.reload()
  })
  const open = (p?: Provider) => { setDraft(draftOf(p)); setEditing(p ?? 'new'); setDone('') }
  const set = (patch: Partial<ProviderDraft>) => { setDraft({ ...draft, ...patch }) }
  return (
    <div>
      <h2>{t('signInSettings.providers')}</h2>
      <p class="muted">{t('signInSettings.providersIntro')}</p>
      {done !== '' ? <StatusMessage message={done} /> : null}
      <ErrorBanner error={providers.error ?? remove.error} />
      <ul class="card-list" aria-label={t('signInSettings.providers')}>
        {(providers.data ?? []).map((p) => (
          <li key={p.id} class="card">
            <p><strong>{p.name}</strong> <span class="muted">({p.slug}{p.enabled ? '' : `, ${t('signInSettings.disabled')}`})</span></p>
            <p class="muted">{p.issuer}</p>
            <ItemButton label={t('common.edit')} name={p.name} onClick={() => { open(p) }} />{' '}
            <ItemButton label={t('common.delete')} name={p.name} class="danger" onClick={() => { void remove.run(p) }} />
          </li>
        ))}
      </ul>
      {editing === null
        ? <button type="button" onClick={() => { open() }}>{t('signInSettings.addProvider')}</button>
        : (
          <EditorForm heading={editing === 'new' ? t('signInSettings.addProvider') : editing.name} creating={editing === 'new'} save={save} onCancel={() => { setEditing(null) }}>
            <Field label={t('signInSettings.slug')} name="slug" value={draft.slug} onValue={(v) => { set({ slug: v }) }} error={save.error} required />
            <Field label={t('signInSettings.name')} name="name" value={draft.name} onValue={(v) => { set({ name: v }) }} error={save.error} required />
            <Field label={t('signInSettings.issuer')} name="issuer" value={draft.issuer} onValue={(v) => { set({ issuer: v }) }} error={save.error} hint={t('signInSettings.issuerHint')} required />
            <Field label={t('signInSettings.clientId')} name="client_id" value={draft.client_id} onValue={(v) => { set({ client_id: v }) }} error={save.error} required />
            <Field
              label={t('signInSettings.clientSecret')} name="client_secret" type="password" autoComplete="off" value={draft.client_secret} onValue={(v) => { set({ client_secret: v }) }} error={save.error}
              hint={editing !== 'new' && editing.has_client_secret ? t('signInSettings.secretKept') : t('signInSettings.secretHint')}
            />
            <Field label={t('signInSettings.scopes')} name="scopes" value={draft.scopes} onValue={(v) => { set({ scopes: v }) }} error={save.error} />
            <Checkbox name="enabled" label={t('signInSettings.enabled')} checked={draft.enabled} onChange={(v) => { set({ enabled: v }) }} />
            <Checkbox name="staff" label={t('signInSettings.staff')} checked={draft.staff} onChange={(v) => { set({ staff: v }) }} />
            <Checkbox name="customers" label={t('signInSettings.customers')} checked={draft.customers} onChange={(v) => { set({ customers: v }) }} />
            <Checkbox name="create_users" label={t('signInSettings.createUsers')} checked={draft.create_users} onChange={(v) => { set({ create_users: v }) }} />
            <Checkbox name="link_by_email" label={t('signInSettings.linkByEmail')} checked={draft.link_by_email} onChange={(v) => { set({ link_by_email: v }) }} />
            <Field label={t('signInSettings.claim')} name="mapping.claim" value={draft.claim} onValue={(v) => { set({ claim: v }) }} error={save.error} hint={t('signInSettings.claimHint')} />
            <Field label={t('signInSettings.adminValues')} name="mapping.admin" value={draft.admin} onValue={(v) => { set({ admin: v }) }} />
            <Field label={t('signInSettings.agentValues')} name="mapping.agent" value={draft.agent} onValue={(v) => { set({ agent: v }) }} />
          </EditorForm>
          )}
    </div>
  )
}

/** Administrators: how people sign in. */
export default function SignInSettings () {
  return (
    <section>
      <PageHeader title={t('signInSettings.title')} />
      <SettingsPanel />
      <Providers />
      <ResetTwoFactor />
    </section>
  )
}
