import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../api.js'
import { loadAgents } from '../data.js'
import { useAction, useAsync } from '../hooks.js'
import { useSession } from '../session.js'
import { t } from '../../messages/index.js'
import type { BulkAction, BulkOutcome, Ticket } from '../types.js'
import { ErrorBanner, personName } from './ui.js'
import type { TicketSelection } from './ticket-selection.js'

interface Assignee { id: number, first_name: string, last_name: string }

/** The page's select-all box, for the inbox table's header (`indeterminate` while some rows are selected). */
export function SelectAllCheckbox ({ selection, count }: { selection: TicketSelection, count: number }) {
  const box = useRef<HTMLInputElement>(null)
  const some = selection.ids.length > 0 && !selection.all
  useEffect(() => { if (box.current !== null) box.current.indeterminate = some }, [some])
  return (
    <input ref={box} type="checkbox" class="select-box" aria-label={t('bulk.selectAll', { count })} checked={selection.all}
      onChange={() => { selection.toggleAll() }} />
  )
}

/** One row's box; shift-click selects the range from the last row toggled. */
export function SelectRowCheckbox ({ selection, ticket, index, onFocus }: { selection: TicketSelection, ticket: Ticket, index: number, onFocus: () => void }) {
  return (
    <input type="checkbox" class="select-box" name="select" aria-label={t('bulk.selectRow', { id: ticket.id, title: ticket.title })} checked={selection.has(ticket.id)}
      onFocus={onFocus}
      onClick={(event) => { selection.toggle(index, event.shiftKey) }} />
  )
}

/**
 * Whom the selected tickets may be assigned to: administrators pick from every
 * agent; agents with `assign_tickets` from the staff of the selected tickets'
 * categories (one `GET /tickets/{id}/assignees` per category).
 */
function useAssignees (selected: Ticket[], enabled: boolean, admin: boolean) {
  const byCategory = new Map<number, number>()
  for (const ticket of selected) if (!byCategory.has(ticket.category_id)) byCategory.set(ticket.category_id, ticket.id)
  const key = admin ? 'admin' : [...byCategory.keys()].sort().join(',')
  return useAsync(async (): Promise<Assignee[]> => {
    if (!enabled) return []
    if (admin) return (await loadAgents()).filter((agent) => agent.status !== 3)
    const lists = await Promise.all([...byCategory.values()].map(async (id) => (await api.get<{ data: Assignee[] }>(`/tickets/${id}/assignees`)).data))
    const seen = new Map<number, Assignee>()
    for (const person of lists.flat()) seen.set(person.id, person)
    return [...seen.values()].sort((a, b) => personName(a).localeCompare(personName(b)))
  }, [key, enabled])
}

interface Report { done: number, failed: Array<{ id: number, title: string, message: string }> }

/**
 * The inbox's bulk bar (issue 35): with tickets selected, assign or unassign
 * them, change their status, close or delete them, through one
 * `POST /tickets/bulk`; then says which tickets failed and why, and has the
 * list refreshed (`onChanged`).
 */
export function BulkBar ({ selection, rows, onChanged }: { selection: TicketSelection, rows: Ticket[], onChanged: () => void }) {
  const { user, can } = useSession()
  const selected = rows.filter((ticket) => selection.has(ticket.id))
  const mayAssign = can('assign_tickets')
  const assignees = useAssignees(selected, mayAssign && selected.length > 0, user?.type === 'admin')
  const [assignee, setAssignee] = useState('')
  const [status, setStatus] = useState('')
  const [report, setReport] = useState<Report | null>(null)
  const action = useAction(async (body: BulkAction) => {
    const titles = new Map(rows.map((ticket) => [ticket.id, ticket.title]))
    const outcomes = (await api.post<{ data: BulkOutcome[] }>('/tickets/bulk', { ids: selection.ids, action: body })).data
    const failed = outcomes.filter((outcome) => outcome.status === 'error')
      .map((outcome) => ({ id: outcome.id, title: titles.get(outcome.id) ?? '', message: outcome.error?.message ?? '' }))
    setReport({ done: outcomes.length - failed.length, failed })
    selection.clear()
    onChanged()
  })
  const run = (body: BulkAction) => { setReport(null); void action.run(body) }
  const count = selection.ids.length

  return (
    <section class="bulk" aria-label={t('bulk.label')}>
      {count > 0
        ? (
          <div class="bulk-bar">
            <p class="bulk-count" aria-live="polite">{t('bulk.selected', { count })}</p>
            {mayAssign
              ? (
                <div class="bulk-group">
                  <label for="bulk-assignee">{t('bulk.assignTo')}</label>
                  <select id="bulk-assignee" name="bulk_assignee" value={assignee} onChange={(e) => { setAssignee(e.currentTarget.value) }}>
                    <option value="">{t('bulk.choose')}</option>
                    <option value="none">{t('bulk.unassign')}</option>
                    {(assignees.data ?? []).map((person) => <option key={person.id} value={String(person.id)}>{personName(person)}</option>)}
                  </select>
                  <button type="button" disabled={assignee === '' || action.pending}
                    onClick={() => { run({ assign: { assignee_id: assignee === 'none' ? null : Number(assignee) } }) }}>{t('bulk.assign')}</button>
                </div>
                )
              : null}
            <div class="bulk-group">
              <label for="bulk-status">{t('bulk.status')}</label>
              <select id="bulk-status" name="bulk_status" value={status} onChange={(e) => { setStatus(e.currentTarget.value) }}>
                <option value="">{t('bulk.choose')}</option>
                <option value="1">{t('ticket.status.open')}</option>
                <option value="2">{t('ticket.status.pending')}</option>
                <option value="3">{t('ticket.status.closed')}</option>
              </select>
              <button type="button" disabled={status === '' || action.pending} onClick={() => { run({ status: Number(status) }) }}>{t('bulk.setStatus')}</button>
            </div>
            <div class="bulk-group">
              <button type="button" class="primary" disabled={action.pending} onClick={() => { run({ close: true }) }}>{t('bulk.close', { count })}</button>
              {can('delete_tickets')
                ? <button type="button" class="danger" disabled={action.pending}
                    onClick={() => { if (window.confirm(t('bulk.confirmDelete', { count }))) run({ delete: true }) }}>{t('bulk.delete', { count })}</button>
                : null}
              <button type="button" onClick={() => { selection.clear() }}>{t('bulk.clear')}</button>
            </div>
          </div>
          )
        : null}
      <ErrorBanner error={action.error} />
      <div role="status" aria-live="polite">
        {report !== null
          ? (
            <div class={`bulk-report${report.failed.length > 0 ? ' bulk-report-failed' : ''}`}>
              <p>{report.failed.length > 0 ? t('bulk.doneWithFailures', { done: report.done, failed: report.failed.length }) : t('bulk.done', { done: report.done })}</p>
              {report.failed.length > 0
                ? (
                  <ul aria-label={t('bulk.failures')}>
                    {report.failed.map((failure) => <li key={failure.id}>{t('bulk.failure', { id: failure.id, title: failure.title, message: failure.message })}</li>)}
                  </ul>
                  )
                : null}
              <button type="button" onClick={() => { setReport(null) }}>{t('bulk.dismiss')}</button>
            </div>
            )
          : null}
      </div>
    </section>
  )
}
