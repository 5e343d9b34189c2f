import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api, type Page } from '../api.js'
import { useAsync } from '../hooks.js'
import { CustomerPanel } from '../components/CustomerPanel.js'
import { CustomerEditForm } from '../components/CustomerEditForm.js'
import { ErrorBanner, Loading, StatusBadge, DateTime } from '../components/ui.js'
import { t } from '../../messages/index.js'
import type { Customer, Ticket } from '../types.js'

export default function CustomerDetail ({ id }: { id: number }) {
  const customer = useAsync(async () => (await api.get<{ data: Customer }>(`/customers/${id}`)).data, [id])
  const [revision, setRevision] = useState(0)
  const email = customer.data?.email
  const tickets = useAsync(async () => {
    if (email === undefined) return undefined
    const page = await api.get<Page<Ticket>>('/tickets', { filter: { email }, sort: '-updated_at', per_page: 50 })
    return page.data.filter((ticket) => ticket.user_id === id)
  }, [id, email])
  return (
    <section>
      <p><Link href="/customers">{t('customers.back')}</Link></p>
      <h1>{t('customers.detailTitle')}</h1>
      <div class="two-columns">
        <div>
          <CustomerPanel key={revision} customerId={id} />
          <ErrorBanner error={customer.error} />
          {customer.data === undefined && customer.loading ? <Loading /> : null}
          {customer.data !== undefined ? <CustomerEditForm key={customer.data.id} customer={customer.data} onSaved={() => { setRevision((n) => n + 1); customer.reload() }} /> : null}
        </div>
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
