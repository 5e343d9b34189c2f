import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api, type Page } from '../api.js'
import { useAction, useAsync, useDeletableList } from '../hooks.js'
import { Field, ErrorBanner, PageHeader, ListStatus, personName, Pager } from '../components/ui.js'
import { t, type MessageKey } from '../../messages/index.js'
import type { Customer } from '../types.js'
import { useCellLabels } from '../components/cell-labels.js'

const empty = { first_name: '', last_name: '', email: '', company: '', password: '', password_confirmation: '' }

function CreateCustomer ({ onCreated }: { onCreated: () => void }) {
  const [form, setForm] = useState(empty)
  const set = (key: keyof typeof form) => (value: string) => { setForm({ ...form, [key]: value }) }
  const create = useAction(async () => {
    await api.post('/customers', { ...form, company: form.company === '' ? undefined : form.company })
    setForm(empty)
    onCreated()
  })
  return (
    <form class="panel" aria-labelledby="new-customer" onSubmit={(e) => { e.preventDefault(); void create.run() }} noValidate>
      <h2 id="new-customer">{t('customers.create')}</h2>
      <ErrorBanner error={create.error} />
      <Field label={t('person.firstName')} name="first_name" value={form.first_name} onValue={set('first_name')} error={create.error} required />
      <Field label={t('person.lastName')} name="last_name" value={form.last_name} onValue={set('last_name')} error={create.error} required />
      <Field label={t('person.email')} name="email" type="email" value={form.email} onValue={set('email')} error={create.error} required />
      <Field label={t('person.company')} name="company" value={form.company} onValue={set('company')} error={create.error} />
      <Field label={t('person.password')} name="password" type="password" autoComplete="new-password" value={form.password} onValue={set('password')} error={create.error} required />
      <Field label={t('person.passwordConfirmation')} name="password_confirmation" type="password" autoComplete="new-password" value={form.password_confirmation} onValue={set('password_confirmation')} error={create.error} required />
      <button type="submit" class="primary" disabled={create.pending}>{t('common.create')}</button>
    </form>
  )
}

export default function Customers () {
  const cellLabels = useCellLabels()
  const [search, setSearch] = useState('')
  const [applied, setApplied] = useState('')
  const [cursors, setCursors] = useState<string[]>([''])
  const cursor = cursors[cursors.length - 1] ?? ''
  const customers = useAsync(async () => await api.get<Page<Customer>>('/customers', { include: ['tickets-count'], filter: { email: applied }, per_page: 25, cursor }), [applied, cursor])
  const { done, setDone, remove } = useDeletableList<Customer>({ path: '/customers', nameOf: personName, reload: customers.reload })
  const next = customers.data?.meta.next_cursor ?? null
  return (
    <section>
      <PageHeader title={t('customers.title')} />
      {/* biome-ignore lint/a11y/useSemanticElements: role="search" on the form is the landmark every screen reader knows; a <search> wrapper would change the page's markup */}
      <form class="filters" role="search" aria-label={t('customers.search')} onSubmit={(e) => { e.preventDefault(); setApplied(search.trim()); setCursors(['']) }}>
        <Field label={t('customers.searchEmail')} name="search" type="search" value={search} onValue={setSearch} />
        <button type="submit">{t('inbox.searchButton')}</button>
      </form>
      <ListStatus error={customers.error ?? remove.error} done={done} loading={customers.data === undefined && customers.loading} />
      {customers.data !== undefined
        ? (
          <table class="data-table" aria-label={t('customers.title')} ref={cellLabels}>
            <thead><tr><th scope="col">{t('person.name')}</th><th scope="col">{t('person.email')}</th><th scope="col">{t('person.company')}</th><th scope="col">{t('person.status')}</th><th scope="col">{t('customer.tickets')}</th><th scope="col">{t('common.actions')}</th></tr></thead>
            <tbody>
              {customers.data.data.map((c) => (
                <tr key={c.id}>
                  <td><Link href={`/customers/${c.id}`}>{personName(c)}</Link></td>
                  <td>{c.email}</td>
                  <td>{c.company ?? ''}</td>
                  <td>{t(`person.status.${c.status}` as MessageKey)}</td>
                  <td>{c.tickets_count ?? ''}</td>
                  <td><button type="button" class="danger" aria-label={`${t('common.delete')} ${personName(c)}`} onClick={() => { void remove.run(c) }}>{t('common.delete')}</button></td>
                </tr>
              ))}
            </tbody>
          </table>
          )
        : null}
      <Pager cursors={cursors} onCursors={setCursors} next={next} />
      <CreateCustomer onCreated={() => { setDone(t('customers.created')); customers.reload() }} />
    </section>
  )
}
