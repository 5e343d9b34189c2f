import { useEffect, useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { loadCategories } from '../data.js'
import { useSession } from '../session.js'
import { AgentEditForm } from '../components/AgentEditForm.js'
import { AgentCoverage } from '../components/AgentCoverage.js'
import { Field, ErrorBanner, Loading, PageHeader, StatusMessage, Checkbox, personName, ListStatus, ItemButton } from '../components/ui.js'
import { t, type MessageKey } from '../../messages/index.js'
import { PERMISSION_KEYS, type Agent, type Category, type Permissions } from '../types.js'

function AgentAccess ({ agent, categories }: { agent: Agent, categories: Category[] }) {
  const permissions = useAsync(async () => (await api.get<{ data: Permissions }>(`/agents/${agent.id}/permissions`)).data, [agent.id])
  // Saving sends the whole list back (`PUT` replaces it): read every page of it.
  const assigned = useAsync(async () => (await api.getAll<Category>(`/agents/${agent.id}/categories`)).map((c) => c.id), [agent.id])
  const [flags, setFlags] = useState<Permissions>({})
  const [chosen, setChosen] = useState<number[]>([])
  const coverage = useAsync(async () => (await api.get<{ data: { all_categories: boolean } }>(`/agents/${agent.id}/coverage`)).data.all_categories, [agent.id])
  const [allCategories, setAllCategories] = useState(false)
  const [done, setDone] = useState('')
  useEffect(() => { if (coverage.data !== undefined) setAllCategories(coverage.data) }, [coverage.data])
  useEffect(() => { if (permissions.data !== undefined) setFlags(permissions.data) }, [permissions.data])
  useEffect(() => { if (assigned.data !== undefined) setChosen(assigned.data) }, [assigned.data])
  const save = useAction(async () => {
    if (agent.role !== 1) await api.patch(`/agents/${agent.id}/permissions`, Object.fromEntries(PERMISSION_KEYS.map((key) => [key, flags[key] === true])))
    await api.put(`/agents/${agent.id}/categories`, { categories: chosen })
    if (agent.role !== 1) await api.put(`/agents/${agent.id}/coverage`, { all_categories: allCategories })
    setDone(t('common.saved'))
  })
  if (permissions.data === undefined || assigned.data === undefined) return <Loading />
  return (
    <form onSubmit={(e) => { e.preventDefault(); void save.run() }} aria-label={t('agents.accessOf', { name: personName(agent) })}>
      <ErrorBanner error={permissions.error ?? assigned.error ?? save.error} />
      {agent.role === 1
        ? <p class="muted">{t('agents.adminHasAll')}</p>
        : (
          <fieldset>
            <legend>{t('agents.permissions')}</legend>
            {PERMISSION_KEYS.map((key) => <Checkbox key={key} name={key} label={t(`permission.${key}` as MessageKey)} checked={flags[key] === true} onChange={(value) => { setFlags({ ...flags, [key]: value }) }} />)}
          </fieldset>
          )}
      <fieldset>
        <legend>{t('agents.categories')}</legend>
        {agent.role !== 1 ? <AgentCoverage checked={allCategories} onChange={setAllCategories} /> : null}
        {categories.map((c) => <Checkbox key={c.id} label={c.name} checked={chosen.includes(c.id)} onChange={(value) => { setChosen(value ? [...chosen, c.id] : chosen.filter((id) => id !== c.id)) }} />)}
      </fieldset>
      <button type="submit" class="primary" disabled={save.pending}>{t('common.save')}</button>
      {done !== '' ? <StatusMessage message={done} /> : null}
    </form>
  )
}

const empty = { first_name: '', last_name: '', email: '', password: '', password_confirmation: '' }

export default function Agents () {
  const { user } = useSession()
  const agents = useAsync(async () => await api.get<Page<Agent>>('/agents', { per_page: 100, include: ['unresolved-tickets-count'] }), [])
  const categories = useAsync(async () => await loadCategories(), [])
  const [open, setOpen] = useState<number | null>(null)
  const [editing, setEditing] = useState<number | null>(null)
  const [form, setForm] = useState(empty)
  const [done, setDone] = useState('')
  const set = (key: keyof typeof form) => (value: string) => { setForm({ ...form, [key]: value }) }
  const create = useAction(async () => {
    await api.post('/agents', form)
    setForm(empty)
    setDone(t('agents.created'))
    agents.reload()
  })
  const remove = useAction(async (agent: Agent) => {
    if (!window.confirm(t('common.confirmDelete', { name: personName(agent) }))) return
    await api.delete(`/agents/${agent.id}`)
    agents.reload()
  })
  return (
    <section>
      <PageHeader title={t('agents.title')} />
      <ListStatus error={agents.error ?? remove.error} done={done} loading={agents.data === undefined} />
      <ul class="card-list" aria-label={t('agents.title')}>
        {(agents.data?.data ?? []).map((agent) => (
          <li key={agent.id} class="card">
            <h2>{personName(agent)}</h2>
            <p>{agent.email} · {t(`person.role.${agent.role}` as MessageKey)} · {t(`person.status.${agent.status}` as MessageKey)}</p>
            <div class="row-actions">
              <button type="button" aria-expanded={open === agent.id} onClick={() => { setOpen(open === agent.id ? null : agent.id) }}>{t('agents.editAccess', { name: personName(agent) })}</button>
              <button type="button" aria-expanded={editing === agent.id} onClick={() => { setEditing(editing === agent.id ? null : agent.id) }}>{t('agents.editProfile', { name: personName(agent) })}</button>
              {agent.id !== user?.id ? <ItemButton label={t('common.delete')} name={personName(agent)} class="danger" onClick={() => { void remove.run(agent) }} /> : null}
            </div>
            {editing === agent.id ? <AgentEditForm key={agent.id} agent={agent} onSaved={agents.reload} /> : null}
            {open === agent.id ? <AgentAccess agent={agent} categories={categories.data ?? []} /> : null}
          </li>
        ))}
      </ul>
      <form class="panel" aria-labelledby="new-agent" onSubmit={(e) => { e.preventDefault(); void create.run() }} noValidate>
        <h2 id="new-agent">{t('agents.create')}</h2>
        <ErrorBanner error={create.error} />
        <Field label={t('person.firstName')} name="first_name" value={form.first_name} onValue={set('first_name')} error={create.error} required />
        <Field label={t('person.lastName')} name="last_name" value={form.last_name} onValue={set('last_name')} error={create.error} required />
        <Field label={t('person.email')} name="email" type="email" value={form.email} onValue={set('email')} error={create.error} required />
        <Field label={t('person.password')} name="password" type="password" autoComplete="new-password" value={form.password} onValue={set('password')} error={create.error} required />
        <Field label={t('person.passwordConfirmation')} name="password_confirmation" type="password" autoComplete="new-password" value={form.password_confirmation} onValue={set('password_confirmation')} error={create.error} required />
        <button type="submit" class="primary" disabled={create.pending}>{t('common.create')}</button>
      </form>
    </section>
  )
}
