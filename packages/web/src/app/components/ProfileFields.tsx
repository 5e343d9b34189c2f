import type { ComponentChildren } from 'preact'
import { Field } from './ui.js'
import { t, type MessageKey } from '../../messages/index.js'
import type { ApiError } from '../api.js'

/** The fields a person edit form shares (customers and agents): names, email, status and an optional new password. */
export interface ProfileDraft {
  first_name: string
  last_name: string
  email: string
  status: string
  new_password: string
  new_password_confirmation: string
}

export function profileDraft (person: { first_name: string, last_name: string, email: string, status: number }): ProfileDraft {
  return { first_name: person.first_name, last_name: person.last_name, email: person.email, status: String(person.status), new_password: '', new_password_confirmation: '' }
}

/** The PATCH body: the password keys only when a new password was typed (absent keys keep their value). */
export function profilePatch (draft: ProfileDraft): Record<string, string | number> {
  const { new_password: password, new_password_confirmation: confirmation, status, ...names } = draft
  return { ...names, status: Number(status), ...(password !== '' ? { new_password: password, new_password_confirmation: confirmation } : {}) }
}

/** `children` (the customer's company) go after the email. */
export function ProfileFields ({ draft, onDraft, error, children }: { draft: ProfileDraft, onDraft: (draft: ProfileDraft) => void, error: ApiError | undefined, children?: ComponentChildren }) {
  const set = (key: keyof ProfileDraft) => (value: string) => { onDraft({ ...draft, [key]: value }) }
  return (
    <>
      <Field label={t('person.firstName')} name="first_name" value={draft.first_name} onValue={set('first_name')} error={error} required />
      <Field label={t('person.lastName')} name="last_name" value={draft.last_name} onValue={set('last_name')} error={error} required />
      <Field label={t('person.email')} name="email" type="email" value={draft.email} onValue={set('email')} error={error} required />
      {children}
      <Field label={t('person.status')} name="status" value={draft.status} onValue={set('status')} error={error}
        options={[1, 2, 3].map((s) => ({ value: String(s), label: t(`person.status.${s}` as MessageKey) }))} />
      <Field label={t('person.newPassword')} name="new_password" type="password" autoComplete="new-password" value={draft.new_password} onValue={set('new_password')} error={error} hint={t('person.newPasswordHint')} />
      <Field label={t('person.passwordConfirmation')} name="new_password_confirmation" type="password" autoComplete="new-password" value={draft.new_password_confirmation} onValue={set('new_password_confirmation')} error={error} />
    </>
  )
}
