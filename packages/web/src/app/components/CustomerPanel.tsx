import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api, type Page } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { textToHtml } from '../text.js'
import { Field, ErrorBanner, Loading, DateTime, personName } from './ui.js'
import { t } from '../../messages/index.js'
import type { Customer, CustomerNote } from '../types.js'
import { Prose } from './Prose.js'

/** The customer's details and notes (shown only to staff with manage_customers). */
export function CustomerPanel ({ customerId, headingLevel = 2 }: { customerId: number, headingLevel?: 2 | 3 }) {
  const customer = useAsync(async () => (await api.get<{ data: Customer }>(`/customers/${customerId}`, { include: ['tickets-count'] })).data, [customerId])
  const notes = useAsync(async () => (await api.get<Page<CustomerNote>>(`/customers/${customerId}/notes`, { include: ['creator'], per_page: 50 })).data, [customerId])
  const [note, setNote] = useState('')
  const add = useAction(async () => {
    await api.post(`/customers/${customerId}/notes`, { note: textToHtml(note) })
    setNote('')
    notes.reload()
  })
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const c = customer.data
  return (
    <section class="panel" aria-labelledby="customer-title">
      <Heading id="customer-title">{t('customer.title')}</Heading>
      <ErrorBanner error={customer.error} />
      {c === undefined
        ? (customer.loading ? <Loading /> : null)
        : (
          <dl class="details">
            <dt>{t('person.name')}</dt><dd><Link href={`/customers/${c.id}`}>{personName(c)}</Link></dd>
            <dt>{t('person.email')}</dt><dd>{c.email}</dd>
            {c.company !== null && c.company !== '' ? <><dt>{t('person.company')}</dt><dd>{c.company}</dd></> : null}
            {c.tickets_count !== undefined ? <><dt>{t('customer.tickets')}</dt><dd>{c.tickets_count}</dd></> : null}
            <dt>{t('customer.since')}</dt><dd><DateTime value={c.created_at} /></dd>
          </dl>
          )}
      <h3>{t('customer.notes')}</h3>
      <ErrorBanner error={notes.error} />
      {(notes.data ?? []).length === 0 && notes.data !== undefined ? <p class="muted">{t('customer.noNotes')}</p> : null}
      <ul class="notes">
        {(notes.data ?? []).map((n) => (
          <li key={n.id}>
            <Prose html={n.text} />
            <p class="muted">{personName(n.creator)} · <DateTime value={n.created_at} /></p>
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => { e.preventDefault(); void add.run() }} noValidate>
        <ErrorBanner error={add.error} />
        <Field label={t('customer.addNote')} name="note" value={note} onValue={setNote} error={add.error} multiline />
        <button type="submit" disabled={add.pending || note.trim() === ''}>{t('customer.saveNote')}</button>
      </form>
    </section>
  )
}
