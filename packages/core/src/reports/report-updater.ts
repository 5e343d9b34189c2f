import type { DomainEvent, EventRecorder } from '../events.js'
import type { LoggedEvent } from '../event-log/event-log.js'
import type { Store } from '../store.js'
import { formatDateTime, type Clock } from '../time.js'
import type { BusinessCalendar } from '../sla/calendar.js'
import { hourlyDelta, sameFact, ticketFact, type TicketFact, type TicketFactSource } from './report-facts.js'
import { histogramDelta } from './report-histogram.js'

/** The job that brings the rollups up to date with the event log. */
export const REPORTS_UPDATE_JOB = 'reports.update'
/** Events read per transaction. */
const EVENT_BATCH = 500
/** Tickets recomputed per statement batch. */
const TICKET_BATCH = 500
/**
 * The cursor stays behind events younger than this: on PostgreSQL an event id
 * is taken before its transaction commits, so a slow transaction's event can
 * appear after a later one was read. Events in the window are read again
 * (harmless: applying an event twice changes nothing).
 */
export const CURSOR_LAG_MS = 10_000

/** Which events touch a ticket's facts: every ticket and satisfaction event; imports (no ticket events) by a catch-up. */
function touchesTicket (event: Pick<LoggedEvent, 'type' | 'ticket_id'>): boolean {
  return event.ticket_id !== null && (event.type.startsWith('Tickets.') || event.type.startsWith('Satisfaction.'))
}

/**
 * Recomputes the facts of `ticketIds` from the tickets themselves and moves
 * the hourly rollup by the difference, inside `tx` (which holds the
 * rollups' lock). Returns how many facts changed.
 */
export async function refreshTickets (tx: Store, ticketIds: readonly number[]): Promise<number> {
  let changed = 0
  const unique = [...new Set(ticketIds)]
  for (let start = 0; start < unique.length; start += TICKET_BATCH) {
    const ids = unique.slice(start, start + TICKET_BATCH)
    const [sources, stored] = [await tx.reports.sources(ids), await tx.reports.facts(ids)]
    const before = new Map(stored.map((fact) => [fact.ticket_id, fact]))
    const fresh = (await withSla(tx, sources)).map(ticketFact)
    const present = new Set(fresh.map((fact) => fact.ticket_id))
    const updated: TicketFact[] = []
    const oldOnes: TicketFact[] = []
    for (const fact of fresh) {
      const old = before.get(fact.ticket_id)
      if (old !== undefined && sameFact(old, fact)) continue
      updated.push(fact)
      if (old !== undefined) oldOnes.push(old)
    }
    const removed = stored.filter((fact) => !present.has(fact.ticket_id))
    if (updated.length === 0 && removed.length === 0) continue
    const gone = [...oldOnes, ...removed]
    await tx.reports.apply(updated, removed.map((fact) => fact.ticket_id), hourlyDelta(gone, updated), histogramDelta(gone, updated))
    changed += updated.length + removed.length
  }
  return changed
}

/** Adds each ticket's SLA state and its policy's calendar (business times, attainment): three reads per batch. */
async function withSla (tx: Store, sources: TicketFactSource[]): Promise<TicketFactSource[]> {
  if (sources.length === 0) return sources
  const states = await tx.sla.ticketStates(sources.map((s) => s.ticket.id))
  if (states.size === 0) return sources.map((s) => ({ ...s, sla: null }))
  const calendars = new Map<number, BusinessCalendar>((await tx.sla.allCalendars()).map((c) => [c.id, c]))
  const calendarOf = new Map<number, BusinessCalendar>()
  for (const policy of await tx.sla.allPolicies()) {
    const calendar = calendars.get(policy.calendar_id)
    if (calendar !== undefined) calendarOf.set(policy.id, calendar)
  }
  return sources.map((s) => {
    const state = states.get(s.ticket.id)
    if (state === undefined) return { ...s, sla: null }
    return { ...s, sla: { state, calendar: state.policy_id === null ? null : calendarOf.get(state.policy_id) ?? null } }
  })
}

/**
 * Brings the rollups up to date: reads the event log after the cursor, a
 * batch per transaction, recomputes the tickets the events touched, and
 * moves the cursor (never past events younger than `CURSOR_LAG_MS`).
 * Runs may overlap (two instances): the cursor row's lock serialises them.
 */
export async function updateReports (store: Store, clock: Clock): Promise<{ events: number, tickets: number }> {
  let events = 0
  let tickets = 0
  // Never built (a fresh install, or an upgrade over existing tickets): every ticket first, then the events since.
  if (!await store.reports.isBuilt()) tickets += (await rebuildReports(store)).tickets
  for (;;) {
    const done = await store.transaction(async (tx) => {
      const cursor = await tx.reports.lockCursor()
      const batch = await tx.eventLog.after(cursor, EVENT_BATCH)
      if (batch.length === 0) return true
      const ids = batch.filter(touchesTicket).map((event) => event.ticket_id as number)
      tickets += await refreshTickets(tx, ids)
      if (batch.some((event) => event.type.startsWith('Import.'))) {
        for (let missing = await tx.reports.ticketsWithoutFacts(TICKET_BATCH); missing.length > 0; missing = await tx.reports.ticketsWithoutFacts(TICKET_BATCH)) {
          tickets += await refreshTickets(tx, missing)
        }
      }
      events += batch.length
      const settled = formatDateTime(new Date(clock.now().getTime() - CURSOR_LAG_MS))
      let next = cursor
      for (const event of batch) {
        if (event.created_at > settled) break
        next = event.id
      }
      if (next !== cursor) await tx.reports.setCursor(next)
      // A full batch of settled events: there may be more. Otherwise stop (the young ones are read again next run).
      return batch.length < EVENT_BATCH || next !== batch.at(-1)?.id
    })
    if (done) return { events, tickets }
  }
}

/**
 * Rebuilds the rollups from the tickets themselves: empties them, then
 * computes every ticket's facts in id order. The cursor is set to the
 * newest event first, so changes made meanwhile are applied afterwards.
 */
export async function rebuildReports (store: Store, onProgress?: (done: number, total: number) => void): Promise<{ tickets: number }> {
  const total = await store.reports.ticketCount()
  await store.transaction(async (tx) => {
    await tx.reports.lockCursor()
    await tx.reports.setBuilt(false)
    await tx.reports.clear()
    await tx.reports.setCursor(await tx.eventLog.latestId())
  })
  let done = 0
  let after = 0
  onProgress?.(0, total)
  for (;;) {
    const ids = await store.reports.ticketIdsAfter(after, 2000)
    if (ids.length === 0) break
    await store.transaction(async (tx) => {
      await tx.reports.lockCursor()
      await refreshTickets(tx, ids)
    })
    after = ids.at(-1) as number
    done += ids.length
    onProgress?.(Math.min(done, total), Math.max(total, done))
  }
  await store.reports.setBuilt(true)
  return { tickets: done }
}

/** Records the door a new ticket came in through, in its creating transaction (`TicketCreated` carries it). */
export const recordTicketChannel: EventRecorder = async (tx: Store, event: DomainEvent) => {
  if (event.type !== 'Tickets.TicketCreated' || typeof event.channel !== 'string') return
  const ticket = event.ticket as { id?: unknown } | undefined
  if (typeof ticket?.id !== 'number') return
  await tx.reports.recordChannel(ticket.id, event.channel)
}
