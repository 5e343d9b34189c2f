import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAction } from '../hooks.js'
import { Field, ErrorBanner, StatusMessage } from './ui.js'
import { ProfileFields, profileDraft, profilePatch } from './ProfileFields.js'
import { t } from '../../messages/index.js'
import type { Customer } from '../types.js'

/** PATCH /customers/{id}: details, status and a new password; a 422 marks the fields. */
export function CustomerEditForm ({ customer, onSaved }: { customer: Customer, onSaved: (customer: Customer) => void }) {
  const [draft, setDraft] = useState(() => profileDraft(customer))
  const [company, setCompany] = useState(customer.company ?? '')
  const [done, setDone] = useState('')
  const save = useAction(async () => {
    setDone('')
    const updated = (await api.patch<{ data: Customer }>(`/customers/${customer.id}`, { ...profilePatch(draft), company: company === '' ? null : company })).data
    setDraft(profileDraft(updated))
    setDone(t('common.saved'))
    onSaved(updated)
  })
  return (
    <form class="panel" aria-labelledby="edit-customer" onSubmit={(e) => { e.preventDefault(); void save.run() }} noValidate>
      <h2 id="edit-customer">{t('customers.edit')}</h2>
      <ErrorBanner error={save.error} />
      <ProfileFields draft={draft} onDraft={setDraft} error={save.error}>
        <Field label={t('person.company')} name="company" value={company} onValue={setCompany} error={save.error} />
      </ProfileFields>
      <button type="submit" class="primary" disabled={save.pending}>{t('common.save')}</button>
      {done !== '' ? <StatusMessage message={done} /> : null}
    </form>
  )
}
