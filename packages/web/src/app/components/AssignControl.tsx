import { useAsync } from '../hooks.js'
import { api } from '../api.js'
import { Field, personName } from './ui.js'
import { t } from '../../messages/index.js'
import type { Ticket } from '../types.js'

interface Assignee { id: number, first_name: string, last_name: string }

/**
 * The assigned agent of a ticket, for callers with `assign_tickets`: any of
 * the staff of the ticket's category (`GET /tickets/{id}/assignees`), or
 * nobody (`DELETE /tickets/{id}/agents`).
 */
export function AssignControl ({ ticket, run }: { ticket: Ticket, run: (doing: () => Promise<unknown>) => void }) {
  const assignees = useAsync(async () => (await api.get<{ data: Assignee[] }>(`/tickets/${ticket.id}/assignees`)).data, [ticket.id, ticket.category_id])
  const list = assignees.data ?? []
  // Someone an administrator assigned from outside the category stays selectable (and shown).
  const current = ticket.agent ?? null
  const options = current !== null && !list.some((a) => a.id === current.id) ? [current, ...list] : list
  return (
    <Field label={t('ticket.assignee')} name="agent" value={ticket.assigned_agent_id === null ? '' : String(ticket.assigned_agent_id)} hint={t('assign.hint')}
      onValue={(value) => {
        run(async () => value === '' ? await api.delete(`/tickets/${ticket.id}/agents`) : await api.put(`/tickets/${ticket.id}/agents`, { agent: Number(value) }))
      }}
      options={[{ value: '', label: t('assign.unassigned') }, ...options.map((a) => ({ value: String(a.id), label: personName(a) }))]} />
  )
}
