import type { TicketListView } from '../types.js'

/** The inbox's filter fields as the URL holds them. */
export interface InboxFields { status: string, category: string, assigned: string, priority: string, tag: string, view: string, sort: string, q: string }

export const INBOX_DEFAULTS: InboxFields = { status: '1,2', category: '', assigned: '', priority: '', tag: '', view: '', sort: '-updated_at', q: '' }

/** The inbox's fields as `GET /tickets` filters (the ones a view saves). */
export function ticketFilters (fields: InboxFields, userId: number | undefined): Record<string, string> {
  const filters: Record<string, string> = {
    status: fields.status,
    categories: fields.category,
    agents: fields.assigned === 'me' ? String(userId ?? '') : fields.assigned === 'none' ? '0' : '',
    search: fields.q,
    priority: fields.priority,
    tags: fields.tag
  }
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ''))
}

/** A view's filters as the inbox's fields (filters the form has no field for keep applying only while the view is chosen). */
export function fieldsOfView (view: Pick<TicketListView, 'filters' | 'sort'>, userId: number | undefined): InboxFields {
  const { filters } = view
  const agents = filters.agents ?? ''
  return {
    status: filters.status ?? '',
    category: filters.categories ?? '',
    assigned: agents === '' ? '' : agents === '0' ? 'none' : agents === String(userId) ? 'me' : '',
    priority: filters.priority ?? '',
    tag: filters.tags ?? '',
    view: '',
    sort: view.sort,
    q: filters.search ?? ''
  }
}
