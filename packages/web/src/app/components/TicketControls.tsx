import { useState } from 'preact/hooks'
import { useLocation } from 'wouter-preact'
import { api } from '../api.js'
import { useAction } from '../hooks.js'
import { useSession } from '../session.js'
import { AssignControl } from './AssignControl.js'
import { Field, ErrorBanner, StatusMessage, personName } from './ui.js'
import { t } from '../../messages/index.js'
import type { Category, Ticket } from '../types.js'
import { PRIORITIES, priorityLabel, TagEditor } from './TicketLabels.js'

/** Status, priority, tags, category, privacy and assignment of a ticket, for staff; each control shows only with the right to use it. */
export function TicketControls ({ ticket, categories, onChanged }: { ticket: Ticket, categories: Category[], onChanged: () => void }) {
  const { can } = useSession()
  const [, navigate] = useLocation()
  const [done, setDone] = useState('')
  const change = useAction(async (doing: () => Promise<unknown>) => {
    await doing()
    setDone(t('common.saved'))
    onChanged()
  })

  return (
    <section class="panel" aria-labelledby="controls-title">
      <h2 id="controls-title">{t('ticket.properties')}</h2>
      <ErrorBanner error={change.error} />
      <Field label={t('ticket.status')} name="status" value={String(ticket.status)} onValue={(value) => { void change.run(async () => await api.post(`/tickets/${ticket.id}`, { status: Number(value) })) }} options={[
        { value: '1', label: t('ticket.status.open') },
        { value: '2', label: t('ticket.status.pending') },
        { value: '3', label: t('ticket.status.closed') }
      ]} />
      <Field label={t('ticket.priority')} name="priority" value={ticket.priority} onValue={(value) => { void change.run(async () => await api.post(`/tickets/${ticket.id}`, { priority: value })) }}
        options={PRIORITIES.map((p) => ({ value: p, label: priorityLabel(p) }))} />
      <TagEditor tags={ticket.tags ?? []} onSave={(names) => { void change.run(async () => await api.post(`/tickets/${ticket.id}`, { tags: names })) }} />
      <Field label={t('ticket.category')} name="category" value={String(ticket.category_id)} onValue={(value) => { void change.run(async () => await api.post(`/tickets/${ticket.id}`, { category: Number(value) })) }}
        options={categories.map((c) => ({ value: String(c.id), label: c.name }))} />
      <Field label={t('ticket.visibility')} name="privacy" value={ticket.private ? 'private' : 'public'}
        onValue={(value) => { void change.run(async () => value === 'public' ? await api.put(`/tickets/${ticket.id}/privacy`) : await api.delete(`/tickets/${ticket.id}/privacy`)) }}
        options={[{ value: 'private', label: t('ticket.private') }, { value: 'public', label: t('ticket.public') }]} hint={t('ticket.visibilityHint')} />
      {can('assign_tickets')
        ? <AssignControl ticket={ticket} run={(doing) => { void change.run(doing) }} />
        : (
          <div class="field">
            <span class="label">{t('ticket.assignee')}</span>
            <p>{ticket.agent !== null && ticket.agent !== undefined ? personName(ticket.agent) : t('inbox.unassigned')}</p>
          </div>
          )}
      {can('delete_tickets')
        ? <button type="button" class="danger" onClick={() => { if (window.confirm(t('common.confirmDelete', { name: ticket.title }))) void change.run(async () => { await api.delete(`/tickets/${ticket.id}`); navigate('/') }) }}>{t('ticket.delete')}</button>
        : null}
      {done !== '' ? <StatusMessage message={done} /> : null}
    </section>
  )
}
