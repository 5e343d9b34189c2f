import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAction } from '../hooks.js'
import { Field, ErrorBanner, StatusMessage, personName } from './ui.js'
import { ProfileFields, profileDraft, profilePatch } from './ProfileFields.js'
import { t } from '../../messages/index.js'
import type { Agent } from '../types.js'

/** PATCH /agents/{id} (administrators): details, status, timezone and a new password; a 422 marks the fields. */
export function AgentEditForm ({ agent, onSaved }: { agent: Agent, onSaved: () => void }) {
  const [draft, setDraft] = useState(() => profileDraft(agent))
  const [timezone, setTimezone] = useState(agent.timezone ?? '')
  const [done, setDone] = useState('')
  const save = useAction(async () => {
    setDone('')
    const zone = timezone.trim()
    await api.patch(`/agents/${agent.id}`, { ...profilePatch(draft), ...(zone !== '' ? { timezone: zone } : {}) })
    setDraft({ ...draft, new_password: '', new_password_confirmation: '' })
    setDone(t('common.saved'))
    onSaved()
  })
  return (
    <form onSubmit={(e) => { e.preventDefault(); void save.run() }} aria-label={t('agents.profileOf', { name: personName(agent) })} noValidate>
      <ErrorBanner error={save.error} />
      <ProfileFields draft={draft} onDraft={setDraft} error={save.error} />
      <Field label={t('agents.timezone')} name="timezone" value={timezone} onValue={setTimezone} error={save.error} hint={t('agents.timezoneHint')} placeholder="Europe/Berlin" />
      <button type="submit" class="primary" disabled={save.pending}>{t('common.save')}</button>
      {done !== '' ? <StatusMessage message={done} /> : null}
    </form>
  )
}
