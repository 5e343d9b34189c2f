import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAction } from '../hooks.js'
import { Field, ErrorBanner, StatusMessage } from './ui.js'
import { t } from '../../messages/index.js'
import type { Ticket } from '../types.js'

/** The ticket owner's privacy control (staff have theirs among the ticket properties). */
export function TicketPrivacy ({ ticket, onChanged }: { ticket: Ticket, onChanged: () => void }) {
  const [done, setDone] = useState('')
  const change = useAction(async (value: string) => {
    setDone('')
    if (value === 'public') await api.put(`/tickets/${ticket.id}/privacy`)
    else await api.delete(`/tickets/${ticket.id}/privacy`)
    setDone(t('common.saved'))
    onChanged()
  })
  return (
    <div class="panel">
      <ErrorBanner error={change.error} />
      <Field label={t('ticket.visibility')} name="privacy" value={ticket.private ? 'private' : 'public'} onValue={(value) => { void change.run(value) }}
        options={[{ value: 'private', label: t('ticket.private') }, { value: 'public', label: t('ticket.public') }]} hint={t('ticket.visibilityHint')} />
      {done !== '' ? <StatusMessage message={done} /> : null}
    </div>
  )
}
