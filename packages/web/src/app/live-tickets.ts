import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import type { Page } from './api.js'
import { subscribeToTickets } from './live.js'
import type { Ticket, TicketStreamData } from './types.js'

/** What a `ticket` event says about a ticket, checked against the list's filters: false when it cannot match them. */
export type StreamMatch = (ticket: TicketStreamData['ticket']) => boolean

/**
 * The exact filters a stream event can be checked against on the client (status, categories, agents,
 * priority); others (search, tags, times) are left to the server's answer.
 */
export function streamMatcher (filter: Record<string, string | number | undefined>): StreamMatch {
  const list = (name: string): string[] | null => {
    const value = filter[name]
    if (value === undefined || value === '') return null
    return String(value).split(',').map((v) => v.trim()).filter((v) => v !== '')
  }
  const status = list('status')
  const categories = list('categories')
  const agents = list('agents')
  const priority = list('priority')
  return (ticket) => (status === null || status.includes(String(ticket.status))) &&
    (categories === null || categories.includes(String(ticket.category_id))) &&
    (agents === null || agents.includes(String(ticket.assigned_agent_id ?? 0))) &&
    (priority === null || priority.includes(ticket.priority))
}

export interface LiveTicketsOptions {
  /** Reads the list's current page again, with the same filters, sort and cursor. */
  refetch: () => Promise<Page<Ticket>>
  /** Whether the list is scrolled, focused or selected in: new tickets then wait behind the "N new" bar. */
  hold: () => boolean
  matches: StreamMatch
  /** The first page: only there do new tickets appear in place (on a later page they wait behind the bar). */
  atStart: boolean
  /** The sort puts the latest change first: a changed ticket missing from the refetched page left the list. */
  latestFirst: boolean
}

export interface LiveTickets {
  rows: Ticket[]
  /** New tickets that match, held back while the agent works in the list. */
  waiting: Ticket[]
  /** Puts the waiting tickets at the top. */
  showWaiting: () => void
}

/** Several events within this time make one refetch. */
const BATCH_MS = 150

/**
 * The inbox's page following the event stream: a `ticket` event refetches the page (batched) and merges
 * it without moving what the agent looks at. Changed tickets update in place, or leave when they no longer
 * match; new matching tickets appear at the top, or wait behind an "N new" bar when `hold()` says the
 * agent is scrolled down or working in the list (and on any page but the first).
 */
export function useLiveTickets (page: Page<Ticket> | undefined, options: LiveTicketsOptions): LiveTickets {
  const [rows, setRows] = useState<Ticket[]>(page?.data ?? [])
  const [waiting, setWaiting] = useState<Ticket[]>([])
  const latest = useRef(options)
  latest.current = options
  const shown = useRef<{ rows: Ticket[], waiting: Ticket[] }>({ rows: [], waiting: [] })

  useEffect(() => {
    setRows(page?.data ?? [])
    setWaiting([])
    shown.current = { rows: page?.data ?? [], waiting: [] }
  }, [page])

  const apply = useCallback((next: { rows: Ticket[], waiting: Ticket[] }) => {
    shown.current = next
    setRows(next.rows)
    setWaiting(next.waiting)
  }, [])

  useEffect(() => {
    if (page === undefined) return
    const changed = new Map<number, TicketStreamData['ticket'] | null>()
    let timer: ReturnType<typeof setTimeout> | undefined
    let running = false
    let again = false
    let stopped = false

    const refresh = async (): Promise<void> => {
      if (running) { again = true; return }
      running = true
      const events = new Map(changed)
      changed.clear()
      try {
        const { refetch, hold, matches, atStart, latestFirst } = latest.current
        const fresh = await refetch()
        if (stopped) return
        const byId = new Map(fresh.data.map((ticket) => [ticket.id, ticket]))
        const complete = fresh.data.length < (fresh.meta.per_page ?? Number.POSITIVE_INFINITY)
        const current = shown.current
        const leaves = (ticket: Ticket): boolean => {
          if (byId.has(ticket.id) || !events.has(ticket.id)) return false
          const data = events.get(ticket.id)
          return (data !== null && data !== undefined && !matches(data)) || complete || (atStart && latestFirst)
        }
        const kept = current.rows.filter((ticket) => !leaves(ticket)).map((ticket) => byId.get(ticket.id) ?? ticket)
        const stillWaiting = current.waiting.filter((ticket) => !leaves(ticket)).map((ticket) => byId.get(ticket.id) ?? ticket)
        const known = new Set([...kept, ...stillWaiting].map((ticket) => ticket.id))
        const arrived = fresh.data.filter((ticket) => !known.has(ticket.id))
        if (arrived.length > 0 && atStart && !hold() && stillWaiting.length === 0) apply({ rows: [...arrived, ...kept], waiting: [] })
        else apply({ rows: kept, waiting: [...arrived, ...stillWaiting] })
      } catch {
        // The list keeps what it shows; the next event tries again.
      } finally {
        running = false
        if (again && !stopped) { again = false; schedule() }
      }
    }
    const schedule = (): void => {
      if (timer !== undefined) return
      timer = setTimeout(() => { timer = undefined; void refresh() }, BATCH_MS)
    }
    const stop = subscribeToTickets((data) => {
      if (data !== null) {
        const { matches } = latest.current
        const inList = shown.current.rows.some((t) => t.id === data.ticket.id) || shown.current.waiting.some((t) => t.id === data.ticket.id)
        // A ticket the list does not show and that cannot match its filters changes nothing here.
        if (!inList && !matches(data.ticket)) return
        changed.set(data.ticket.id, data.ticket)
      }
      schedule()
    })
    return () => {
      stopped = true
      stop()
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [page, apply])

  const showWaiting = useCallback(() => {
    const current = shown.current
    const ids = new Set(current.waiting.map((ticket) => ticket.id))
    apply({ rows: [...current.waiting, ...current.rows.filter((ticket) => !ids.has(ticket.id))], waiting: [] })
  }, [apply])

  return { rows, waiting, showWaiting }
}
