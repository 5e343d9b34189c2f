import { Link } from 'wouter-preact'
import { api, type Page } from '../api.js'
import { useAsync } from '../hooks.js'
import { CustomerPanel } from '../components/CustomerPanel.js'
import { ErrorBanner, StatusBadge, DateTime } from '../components/ui.js'
import { t } from '../../messages/index.js'
import type { Customer, Ticket } from '../types.js'

export default function CustomerDetail ({ id }: { id: number }) {
  const tickets = useAsync(async () => {
    const customer = (await api.get<{ data: Customer }>(`/customers/${id}`)).data
    const page = await api.get<Page<Ticket>>('/tickets', { filter: { email: customer.email }, sort: '-updated_at', per_page: 50 })
    return page.data.filter((ticket) => ticket.user_id === id)
  }, [id])
  return (
    <section>
      <p><Link href="/customers">{t('customers.back')}</Link></p>
      <h1>{t('customers.detailTitle')}</h1>
      <div class="two-columns">
        <CustomerPanel customerId={id} />
        <section class="panel" aria-labelledby="customer-tickets">
          <h2 id="customer-tickets">{t('customer.tickets')}</h2>
          <ErrorBanner error={tickets.error} />
          <ul class="notes">
            {(tickets.data ?? []).map((ticket) => (
              <li key={ticket.id}><Link href={`/tickets/${ticket.id}`}>#{ticket.id} {ticket.title}</Link> <StatusBadge status={ticket.status} /> <span class="muted"><DateTime value={ticket.updated_at} /></span></li>
            ))}
          </ul>
        </section>
      </div>
    </section>
  )
}
