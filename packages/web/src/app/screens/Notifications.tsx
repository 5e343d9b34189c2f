import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api, type Page } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { useSession } from '../session.js'
import { PageHeader, DateTime, ListStatus, Pager } from '../components/ui.js'
import { t, type MessageKey } from '../../messages/index.js'
import type { Notification } from '../types.js'

const knownTypes = new Set(['Tickets.CommentAdded', 'Tickets.TicketAssigned', 'Tickets.TicketClosedByAgent', 'Tickets.TicketClosedByCustomer', 'Tickets.TicketCreated', 'Tickets.TicketCreatedByAgent', 'Tickets.SlaWarning', 'Tickets.SlaBreached', 'Customers.NoteAdded', 'Import.ImportCompletedSuccessfully', 'Import.ImportFailed'])

function describe (n: Notification): string {
  return knownTypes.has(n.type) ? t(`notification.${n.type}` as MessageKey) : n.type
}

function changed (): void {
  window.dispatchEvent(new Event('helpdesk:notifications'))
}

export default function Notifications () {
  const { isStaff } = useSession()
  const [unreadOnly, setUnreadOnly] = useState(false)
  const [cursors, setCursors] = useState<string[]>([''])
  const [done, setDone] = useState('')
  const cursor = cursors[cursors.length - 1] ?? ''
  const list = useAsync(async () => await api.get<Page<Notification>>('/notifications', { filter: { read: unreadOnly ? 0 : undefined }, per_page: 25, cursor }), [unreadOnly, cursor])
  const toggle = useAction(async (n: Notification) => {
    if (n.read_at === null) await api.post(`/notifications/${n.id}/read`)
    else await api.delete(`/notifications/${n.id}/read`)
    list.reload(); changed()
  })
  // Opening a notification (its ticket) reads it; the request outlives the screen, and the menu's count follows.
  const open = (n: Notification) => {
    if (n.read_at === null) void api.post(`/notifications/${n.id}/read`).then(changed).catch(() => { /* still unread: shown so next time */ })
  }
  const readAll = useAction(async () => {
    const first = list.data?.data[0]
    if (first === undefined) return
    await api.delete(`/notifications/${first.id}/unread`)
    setDone(t('notifications.allRead'))
    list.reload(); changed()
  })
  const next = list.data?.meta.next_cursor ?? null
  return (
    <section>
      <PageHeader title={t('notifications.title')}>
        <button type="button" aria-pressed={unreadOnly} onClick={() => { setUnreadOnly(!unreadOnly); setCursors(['']) }}>{t('notifications.unreadOnly')}</button>
        <button type="button" onClick={() => { void readAll.run() }} disabled={(list.data?.data.length ?? 0) === 0}>{t('notifications.markAllRead')}</button>
      </PageHeader>
      <ListStatus error={list.error ?? toggle.error ?? readAll.error} done={done} loading={list.data === undefined} />
      {list.data !== undefined && list.data.data.length === 0 ? <p role="status">{t('notifications.empty')}</p> : null}
      <ul class="card-list" aria-label={t('notifications.title')}>
        {(list.data?.data ?? []).map((n) => (
          <li key={n.id} class={`card${n.read_at === null ? ' unread' : ''}`}>
            <p>
              {n.read_at === null ? <span class="unread-dot"><span class="visually-hidden">{t('inbox.unread')}: </span></span> : null}
              <strong>{describe(n)}</strong>
              {n.data.ticket !== undefined ? <> — <Link href={`${isStaff ? '' : '/portal'}/tickets/${n.data.ticket.id}`} onClick={() => { open(n) }}>#{n.data.ticket.id} {n.data.ticket.title}</Link></> : null}
            </p>
            <p class="muted">{n.author !== null ? `${n.author.name} · ` : ''}<DateTime value={n.created_at} /></p>
            <button type="button" onClick={() => { void toggle.run(n) }}>{n.read_at === null ? t('notifications.markRead') : t('notifications.markUnread')}</button>
          </li>
        ))}
      </ul>
      <Pager cursors={cursors} onCursors={setCursors} next={next} />
    </section>
  )
}
