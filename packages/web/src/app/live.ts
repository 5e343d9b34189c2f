import { apiBase } from './api.js'
import type { TicketStreamData } from './types.js'

/**
 * The signed-in user's one connection to `/events`, shared by every screen
 * that listens (the server allows a few streams per user; tabs need theirs).
 * When the endpoint does not answer, listeners are polled instead (30 s).
 */
type ChangeListener = () => void
type TicketListener = (ticket: TicketStreamData | null) => void

const changeListeners = new Set<ChangeListener>()
const ticketListeners = new Set<TicketListener>()
/** Listeners of the stream's `presence` events (collision detection): not a change of data, never passed to change listeners. */
const presenceListeners = new Set<(data: unknown) => void>()
let streamMissing = false
let source: EventSource | undefined

function notifyChange (): void {
  for (const listener of changeListeners) listener()
}

function notifyTicket (event: MessageEvent): void {
  let data: TicketStreamData | null = null
  try { data = JSON.parse(String(event.data)) as TicketStreamData } catch { data = null }
  for (const listener of ticketListeners) listener(data)
}

function connect (): void {
  if (source !== undefined || streamMissing || typeof EventSource !== 'function') return
  let opened = false
  const stream = new EventSource(`${apiBase()}/events`, { withCredentials: true })
  source = stream
  stream.onopen = () => { opened = true }
  stream.onmessage = notifyChange
  stream.addEventListener('ticket', (event) => { notifyChange(); notifyTicket(event as MessageEvent) })
  for (const type of ['notification', 'comment', 'reset']) stream.addEventListener(type, notifyChange)
  stream.addEventListener('reset', () => { for (const listener of ticketListeners) listener(null) })
  stream.addEventListener('presence', (event) => {
    let data: unknown
    try { data = JSON.parse(String((event as MessageEvent).data)) } catch { return }
    for (const listener of presenceListeners) listener(data)
  })
  stream.onerror = () => {
    // Never opened: the server has no event stream; poll instead, and do not ask again on this page load.
    if (!opened) {
      streamMissing = true
      stream.close()
      source = undefined
    }
  }
}

function disconnectIfIdle (): void {
  if (changeListeners.size > 0 || ticketListeners.size > 0 || presenceListeners.size > 0) return
  source?.close()
  source = undefined
}

/** A timer that runs only while the stream is missing (checked at each tick). */
function pollWhileMissing (tick: () => void, pollMs: number): ReturnType<typeof setInterval> {
  return setInterval(() => { if (streamMissing || typeof EventSource !== 'function') tick() }, pollMs)
}

/**
 * Calls `onChange` when something may have changed for the signed-in user: on each Server-Sent Event from
 * `/events` when that endpoint answers, else every `pollMs` (30 s). Returns a stop function.
 */
export function subscribeToChanges (onChange: () => void, pollMs = 30_000): () => void {
  const listener: ChangeListener = () => { onChange() }
  changeListeners.add(listener)
  connect()
  const timer = pollWhileMissing(onChange, pollMs)
  return () => {
    clearInterval(timer)
    changeListeners.delete(listener)
    disconnectIfIdle()
  }
}

/**
 * Calls `onTicket` with each `ticket` event's data (a ticket the user may see, as the change left it), and
 * with null when the stream may have missed changes (a `reset`, or every `pollMs` without a stream):
 * refetch then. Returns a stop function.
 */
export function subscribeToTickets (onTicket: (ticket: TicketStreamData | null) => void, pollMs = 30_000): () => void {
  const listener: TicketListener = (ticket) => { onTicket(ticket) }
  ticketListeners.add(listener)
  connect()
  const timer = pollWhileMissing(() => { onTicket(null) }, pollMs)
  return () => {
    clearInterval(timer)
    ticketListeners.delete(listener)
    disconnectIfIdle()
  }
}

/** Calls `listener` with each `presence` event's data (who else is on a ticket); returns a stop function. */
export function listenToPresence (listener: (data: unknown) => void): () => void {
  presenceListeners.add(listener)
  connect()
  return () => {
    presenceListeners.delete(listener)
    disconnectIfIdle()
  }
}
