import { useId, useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { ErrorBanner, StatusMessage } from './ui.js'
import { priorityLabel, type Priority } from './TicketLabels.js'
import { t } from '../../messages/index.js'
import type * as shapes from '@helpdesk/shapes'
import type { Static } from '@helpdesk/shapes'

export type Macro = Static<typeof shapes.Macro>
export type MacroAction = Static<typeof shapes.MacroAction>

const STATUS_KEYS: Record<number, 'ticket.status.open' | 'ticket.status.pending' | 'ticket.status.closed'> = {
  1: 'ticket.status.open', 2: 'ticket.status.pending', 3: 'ticket.status.closed'
}

/** A macro's actions in words: "Priority: Urgent · Add tags: refund · Reply". */
export function describeMacro (macro: Pick<Macro, 'actions'>): string {
  return macro.actions.map((action) => {
    switch (action.type) {
      case 'set_status': return `${t('ticket.status')}: ${t(STATUS_KEYS[Number(action.value)] ?? 'ticket.status.open')}`
      case 'set_priority': return `${t('ticket.priority')}: ${priorityLabel(action.value as Priority)}`
      case 'add_tags': return `${t('macros.addTags')}: ${(action.value as string[]).join(', ')}`
      case 'remove_tags': return `${t('macros.removeTags')}: ${(action.value as string[]).join(', ')}`
      case 'assign': return action.value === null ? t('macros.unassign') : t('macros.assignTo', { id: String(action.value) })
      case 'reply': return t('macros.reply')
      case 'add_note': return t('macros.note')
      case 'set_category': return t('macros.setCategory')
      case 'set_field': return t('macros.setField')
      case 'set_private': return action.value === true ? t('ticket.private') : t('ticket.public')
      default: return action.type
    }
  }).join(' · ')
}

/** Applies one of the caller's macros (shared and personal) to the ticket, in one call. */
export function MacroPicker ({ ticketId, onApplied }: { ticketId: number, onApplied: () => void }) {
  const macros = useAsync(async () => await api.get<Page<Macro>>('/macros', { per_page: 100 }), [])
  const [chosen, setChosen] = useState('')
  const selectId = useId()
  const [done, setDone] = useState('')
  const apply = useAction(async () => {
    const macro = macros.data?.data.find((m) => String(m.id) === chosen)
    if (macro === undefined) return
    await api.post(`/tickets/${ticketId}/macros/${macro.id}`)
    setDone(t('macros.applied', { name: macro.name }))
    setChosen('')
    onApplied()
  })
  const list = macros.data?.data ?? []
  const selected = list.find((m) => String(m.id) === chosen)
  if (macros.data !== undefined && list.length === 0) return null
  return (
    <section class="panel" aria-labelledby="macro-picker-title">
      <h2 id="macro-picker-title">{t('macros.picker')}</h2>
      <ErrorBanner error={apply.error ?? macros.error} />
      <form class="macro-picker" onSubmit={(event) => { event.preventDefault(); void apply.run() }}>
        <label for={selectId} class="visually-hidden">{t('macros.macro')}</label>
        <select id={selectId} name="macro" value={chosen} onChange={(event) => { setChosen((event.target as HTMLSelectElement).value) }}>
          <option value="">{t('macros.choose')}</option>
          {list.map((m) => <option key={m.id} value={String(m.id)}>{m.name}</option>)}
        </select>
        <button type="submit" disabled={chosen === '' || apply.pending}>{t('macros.apply')}</button>
      </form>
      {selected !== undefined ? <p class="hint">{describeMacro(selected)}</p> : null}
      {done !== '' ? <StatusMessage message={done} /> : null}
    </section>
  )
}
