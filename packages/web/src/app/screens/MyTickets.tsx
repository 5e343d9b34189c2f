import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api, type Page } from '../api.js'
import { useAsync } from '../hooks.js'
import { useSession } from '../session.js'
import { ErrorBanner, Loading, PageHeader, StatusBadge, DateTime, Pager } from '../components/ui.js'
import { t } from '../../messages/index.js'
import type { Ticket } from '../types.js'

export default function MyTickets () {
  const { user } = useSession()
  const [cursors, setCursors] = useState<string[]>([''])
  const cursor = cursors[cursors.length - 1] ?? ''
  // Customers also see other people's public tickets; "my tickets" are those they own.
  const tickets = useAsync(async () => await api.get<Page<Ticket>>('/tickets', {
    include: ['category', 'replies-count'], sort: '-updated_at', filter: { email: user?.email }, per_page: 25, cursor
  }), [cursor, user?.email])
  const rows = (tickets.data?.data ?? []).filter((ticket) => ticket.user_id === user?.id)
  const next = tickets.data?.meta.next_cursor ?? null
  return (
    <section>
      <PageHeader title={t('portal.title')}>
        <Link class="button primary" href="/portal/new">{t('portal.newTicket')}</Link>
      </PageHeader>
      <ErrorBanner error={tickets.error} />
      {tickets.loading && tickets.data === undefined ? <Loading /> : null}
      {tickets.data !== undefined && rows.length === 0 ? <p role="status">{t('portal.empty')}</p> : null}
      <ul class="card-list" aria-label={t('portal.listLabel')}>
        {rows.map((ticket) => (
          <li key={ticket.id} class="card">
            <h2><Link href={`/portal/tickets/${ticket.id}`}>#{ticket.id} {ticket.title}</Link></h2>
            <p><StatusBadge status={ticket.status} /> {ticket.category?.name ?? ''} · {t('portal.updated')} <DateTime value={ticket.updated_at} /></p>
          </li>
        ))}
      </ul>
      <Pager cursors={cursors} onCursors={setCursors} next={next} />
    </section>
  )
}
