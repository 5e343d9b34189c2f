import { useEffect, useRef, useState } from 'preact/hooks'
import { Link, useLocation } from 'wouter-preact'
import { api, type Page } from '../api.js'
import { useAsync } from '../hooks.js'
import { useSession } from '../session.js'
import { MyFigures } from '../reports/MyFigures.js'
import { loadCategories } from '../data.js'
import { isUnread } from '../dates.js'
import { requestComposerFocus } from '../intents.js'
import { useUrlFilters } from '../url-filters.js'
import { rememberInboxOrder } from '../ticket-order.js'
import { Field, ErrorBanner, Loading, PageHeader, StatusBadge, DateTime, personName, Pager } from '../components/ui.js'
import { t } from '../../messages/index.js'
import type { Ticket } from '../types.js'
import { SlaBadge } from '../components/SlaBadge.js'
import { breachingSoonFilter, SLA_VIEWS } from './inbox-sla-view.js'
import { PriorityBadge, PRIORITIES, priorityLabel, TagChips } from '../components/TicketLabels.js'
import { findView, useViews, viewParam, ViewsNav } from '../components/ViewsNav.js'
import { streamMatcher, useLiveTickets } from '../live-tickets.js'
import { fieldsOfView, INBOX_DEFAULTS, ticketFilters, type InboxFields } from './inbox-views.js'
import { BulkBar, SelectAllCheckbox, SelectRowCheckbox } from '../components/BulkBar.js'
import { useSelectionShortcut, useTicketSelection } from '../components/ticket-selection.js'

const PER_PAGE = 50

export default function Inbox () {
  const { user } = useSession()
  const [, navigate] = useLocation()
  // Filters, sort, view and search live in the URL: shareable, and the back button returns to the previous ones.
  const [urlFields, , setUrlFields] = useUrlFilters<keyof InboxFields>(INBOX_DEFAULTS)
  // A chosen view (`?view=mine`, `?view=12`) supplies the filters and sort; changing any field leaves the view.
  const views = useViews()
  const activeView = findView(views.data, urlFields.view)
  const waitingForViews = urlFields.view !== '' && urlFields.view !== 'breaching' && views.data === undefined && views.error === undefined
  const filters = activeView !== undefined ? { ...fieldsOfView(activeView, user?.id), view: urlFields.view } : urlFields
  const setFilters = (values: Partial<InboxFields>) => {
    setUrlFields(activeView !== undefined ? { ...fieldsOfView(activeView, user?.id), ...values, view: values.view ?? '' } : values)
  }
  const setFilter = (key: keyof InboxFields, value: string) => { setFilters({ [key]: value }) }
  const { status, category, assigned, priority, view, sort, q: appliedSearch, tag: appliedTag } = filters
  const [search, setSearch] = useState(appliedSearch)
  useEffect(() => { setSearch(appliedSearch) }, [appliedSearch])
  const [tag, setTag] = useState(appliedTag)
  useEffect(() => { setTag(appliedTag) }, [appliedTag])
  const setStatus = (value: string) => { setFilter('status', value) }
  const setCategory = (value: string) => { setFilter('category', value) }
  const setAssigned = (value: string) => { setFilter('assigned', value) }
  const setPriority = (value: string) => { setFilter('priority', value) }
  const setView = (value: string) => { setFilter('view', value) }
  const setSort = (value: string) => { setFilter('sort', value) }
  // Cursor paging: the cursors of the pages before this one, so "Previous" needs no prev_cursor arithmetic.
  const [cursors, setCursors] = useState<string[]>([''])
  const cursor = cursors[cursors.length - 1] ?? ''
  const [selected, setSelected] = useState(0)
  const list = useRef<HTMLTableSectionElement>(null)
  const selectedCount = useRef(0)

  const categories = useAsync(async () => await loadCategories(), [])
  const listFilter: Record<string, string> = activeView !== undefined
    ? activeView.filters
    : { ...(view === 'breaching' ? breachingSoonFilter() : {}), ...ticketFilters(filters, user?.id) }
  const listSort = activeView !== undefined ? activeView.sort : view === 'breaching' ? 'sla_next_due_at' : sort
  const loadPage = async () => await api.get<Page<Ticket>>('/tickets', {
    include: ['user', 'category', 'agent', 'last_read_by_me', 'replies-count', 'tags'],
    sort: listSort,
    filter: listFilter,
    per_page: PER_PAGE,
    cursor
  })
  // A view's own edits reload the list; its counts refreshing (a built-in view's times moving on) do not.
  const tickets = useAsync(async () => waitingForViews ? await new Promise<Page<Ticket>>(() => {}) : await loadPage(),
    [status, category, assigned, priority, sort, appliedSearch, appliedTag, cursor, view, waitingForViews, activeView?.id, activeView?.updated_at])
  // The list follows the event stream; new tickets wait behind a bar while the agent is scrolled down or working in the list.
  const live = useLiveTickets(tickets.data, {
    refetch: loadPage,
    hold: () => {
      const table = list.current?.closest('table')
      return (table !== null && table !== undefined && table.getBoundingClientRect().top < 0) || (list.current?.contains(document.activeElement) ?? false) ||
        selectedCount.current > 0
    },
    matches: streamMatcher(listFilter),
    atStart: cursor === '',
    latestFirst: listSort.startsWith('-updated_at')
  })

  useEffect(() => { setCursors(['']) }, [status, category, assigned, priority, sort, appliedSearch, appliedTag, view])
  useEffect(() => { setSelected(0) }, [tickets.data])

  const rows = live.rows
  // Bulk actions (components/BulkBar.tsx): the page's rows picked by checkbox, shift-click or `x`.
  const selection = useTicketSelection(rows.map((ticket) => ticket.id))
  useSelectionShortcut(selection, selected)
  // While tickets are selected, new ones wait behind the bar (the selection's rows stay where they are).
  selectedCount.current = selection.ids.length
  // The ticket page steps through this list (`j` / `k`).
  useEffect(() => { if (tickets.data !== undefined) rememberInboxOrder(rows.map((ticket) => ticket.id)) }, [rows])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null
      if (target !== null && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return
      if (event.ctrlKey || event.metaKey || event.altKey) return
      const focusRow = (index: number) => {
        setSelected(index)
        list.current?.querySelectorAll<HTMLAnchorElement>('a.ticket-link')[index]?.focus()
      }
      const ticket = rows[selected]
      if (event.key === 'j') { event.preventDefault(); focusRow(Math.min(selected + 1, rows.length - 1)) }
      else if (event.key === 'k') { event.preventDefault(); focusRow(Math.max(selected - 1, 0)) }
      else if (event.key === 'Enter' && ticket !== undefined && target?.tagName !== 'A' && target?.tagName !== 'BUTTON') { event.preventDefault(); navigate(`/tickets/${ticket.id}`) }
      else if (event.key === 'r' && ticket !== undefined) { event.preventDefault(); requestComposerFocus(ticket.id); navigate(`/tickets/${ticket.id}`) }
      else if (event.key === '/') { event.preventDefault(); document.querySelector<HTMLInputElement>('.filters input[name="search"]')?.focus() }
    }
    window.addEventListener('keydown', onKey)
    return () => { window.removeEventListener('keydown', onKey) }
  }, [rows, selected, navigate])

  const categoryOptions = [{ value: '', label: t('inbox.allCategories') }, ...(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))]
  const nextCursor = tickets.data?.meta.next_cursor ?? null

  return (
    <section aria-labelledby="inbox-title">
      <PageHeader title={t('inbox.title')} />
      {user?.type === 'agent' ? <MyFigures agentId={user.id} /> : null}
      <ViewsNav views={views} current={activeView !== undefined ? urlFields.view : ''} userId={user?.id} saveable={{ filters: listFilter, sort: listSort }}
        onSelect={(chosen) => { setUrlFields({ ...INBOX_DEFAULTS, view: chosen === null ? '' : viewParam(chosen) }) }} />
      {/* biome-ignore lint/a11y/useSemanticElements: role="search" on the form is the landmark every screen reader knows; a <search> wrapper would change the page's markup */}
      <form class="filters" role="search" aria-label={t('inbox.filters')} onSubmit={(e) => { e.preventDefault(); setFilters({ q: search.trim(), tag: tag.trim().toLowerCase() }) }}>
        <Field label={t('inbox.search')} name="search" type="search" value={search} onValue={setSearch} />
        <Field label={t('inbox.view')} name="view" value={view === 'breaching' ? view : ''} onValue={setView} options={SLA_VIEWS()} />
        <Field label={t('inbox.status')} name="status" value={status} onValue={setStatus} options={[
          { value: '1,2', label: t('inbox.status.active') },
          { value: '1', label: t('ticket.status.open') },
          { value: '2', label: t('ticket.status.pending') },
          { value: '3', label: t('ticket.status.closed') },
          { value: '', label: t('inbox.status.all') }
        ]} />
        <Field label={t('inbox.category')} name="category" value={category} onValue={setCategory} options={categoryOptions} />
        <Field label={t('inbox.assigned')} name="assigned" value={assigned} onValue={setAssigned} options={[
          { value: '', label: t('inbox.assigned.anyone') },
          { value: 'me', label: t('inbox.assigned.me') },
          { value: 'none', label: t('inbox.assigned.none') }
        ]} />
        <Field label={t('inbox.priority')} name="priority" value={priority} onValue={setPriority} options={[
          { value: '', label: t('inbox.priority.any') },
          { value: 'high,urgent', label: t('inbox.priority.highUrgent') },
          ...PRIORITIES.map((p) => ({ value: p, label: priorityLabel(p) }))
        ]} />
        <Field label={t('inbox.tag')} name="tag" value={tag} onValue={setTag} />
        <Field label={t('inbox.sort')} name="sort" value={sort} onValue={setSort} options={[
          { value: '-updated_at', label: t('inbox.sort.updated') },
          { value: '-created_at', label: t('inbox.sort.newest') },
          { value: 'created_at', label: t('inbox.sort.oldest') },
          { value: 'title', label: t('inbox.sort.title') },
          { value: 'sla_next_due_at', label: t('inbox.sort.due') },
          { value: '-priority,-updated_at', label: t('inbox.sort.priority') }
        ]} />
        <button type="submit">{t('inbox.searchButton')}</button>
      </form>
      <ErrorBanner error={tickets.error} />
      {live.waiting.length > 0
        ? (
          <button type="button" class="new-tickets-bar" aria-live="polite"
            onClick={() => { live.showWaiting(); list.current?.closest('table')?.scrollIntoView({ block: 'start' }) }}>
            {t('inbox.newTickets', { count: live.waiting.length })}
          </button>
          )
        : null}
      {tickets.loading && tickets.data === undefined ? <Loading /> : null}
      {tickets.data !== undefined && rows.length === 0 ? <p role="status">{t('inbox.empty')}</p> : null}
      <BulkBar selection={selection} rows={rows} onChanged={tickets.reload} />
      {rows.length > 0
        ? (
          <table class="ticket-table" aria-label={t('inbox.listLabel')} aria-busy={tickets.loading}>
            <thead>
              <tr>
                <th scope="col" class="select-cell"><SelectAllCheckbox selection={selection} count={rows.length} /></th>
                <th scope="col">{t('inbox.col.ticket')}</th>
                <th scope="col">{t('inbox.col.customer')}</th>
                <th scope="col">{t('inbox.col.status')}</th>
                <th scope="col">{t('inbox.col.priority')}</th>
                <th scope="col">{t('inbox.col.category')}</th>
                <th scope="col">{t('inbox.col.agent')}</th>
                <th scope="col">{t('inbox.col.updated')}</th>
                <th scope="col">{t('inbox.col.sla')}</th>
              </tr>
            </thead>
            <tbody ref={list}>
              {rows.map((ticket, index) => {
                const unread = isUnread(ticket.updated_at, ticket.last_read_by_me)
                return (
                  <tr key={ticket.id} class={`${index === selected ? 'selected' : ''}${unread ? ' unread' : ''}${selection.has(ticket.id) ? ' checked' : ''}`}>
                    <td class="select-cell"><SelectRowCheckbox selection={selection} ticket={ticket} index={index} onFocus={() => { setSelected(index) }} /></td>
                    <td data-label={t('inbox.col.ticket')}>
                      {unread ? <span class="unread-dot" title={t('inbox.unread')}><span class="visually-hidden">{t('inbox.unread')}: </span></span> : null}
                      <Link class="ticket-link" href={`/tickets/${ticket.id}`} onFocus={() => { setSelected(index) }}>
                        #{ticket.id} {ticket.title}
                      </Link>
                      {ticket.replies_count !== undefined ? <span class="muted"> · {t('inbox.replies', { count: ticket.replies_count })}</span> : null}
                      <TagChips tags={ticket.tags} />
                    </td>
                    <td data-label={t('inbox.col.customer')}>{personName(ticket.user)}</td>
                    <td data-label={t('inbox.col.status')}><StatusBadge status={ticket.status} /></td>
                    <td data-label={t('inbox.col.priority')}><PriorityBadge priority={ticket.priority} /></td>
                    <td data-label={t('inbox.col.category')}>{ticket.category?.name ?? ''}</td>
                    <td data-label={t('inbox.col.agent')}>{ticket.agent !== null && ticket.agent !== undefined ? personName(ticket.agent) : <span class="muted">{t('inbox.unassigned')}</span>}</td>
                    <td data-label={t('inbox.col.updated')}><DateTime value={ticket.updated_at} /></td>
                    <td data-label={t('inbox.col.sla')}><SlaBadge ticket={ticket} /></td>
                  </tr>
                )
              })}
            </tbody>
          </table>
          )
        : null}
      <Pager cursors={cursors} onCursors={setCursors} next={nextCursor} />
      <p class="hint">{t('inbox.keyboardHint')}</p>
    </section>
  )
}
