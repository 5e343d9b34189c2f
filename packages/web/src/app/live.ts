import { apiBase } from './api.js'

/**
 * Calls `onChange` when something may have changed for the signed-in user: on each Server-Sent Event from
 * `/events` when that endpoint answers, else every `pollMs` (30 s). Returns a stop function.
 */
let streamMissing = false

/** Listeners of the stream's `presence` events (collision detection), whichever open stream hears them. */
const presenceListeners = new Set<(data: unknown) => void>()

/** Calls `listener` with each `presence` event's data (who else is on a ticket); returns a stop function. */
export function listenToPresence (listener: (data: unknown) => void): () => void {
  presenceListeners.add(listener)
  return () => { presenceListeners.delete(listener) }
}

export function subscribeToChanges (onChange: () => void, pollMs = 30_000): () => void {
  let timer: ReturnType<typeof setInterval> | undefined
  let source: EventSource | undefined
  const poll = () => {
    if (timer === undefined) timer = setInterval(onChange, pollMs)
  }
  if (typeof EventSource === 'function' && !streamMissing) {
    let opened = false
    source = new EventSource(`${apiBase()}/events`, { withCredentials: true })
    source.onopen = () => { opened = true }
    source.onmessage = () => { onChange() }
    for (const type of ['notification', 'ticket', 'comment']) source.addEventListener(type, () => { onChange() })
    // Presence is not a change of data: it goes to its own listeners, never to `onChange`.
    source.addEventListener('presence', (event) => {
      let data: unknown
      try { data = JSON.parse((event as MessageEvent<string>).data) } catch { return }
      for (const listener of presenceListeners) listener(data)
    })
    source.onerror = () => {
      // Never opened: the server has no event stream; poll instead, and do not ask again on this page load.
      if (!opened) {
        streamMissing = true
        source?.close()
        source = undefined
        poll()
      }
    }
  } else {
    poll()
  }
  return () => {
    source?.close()
    if (timer !== undefined) clearInterval(timer)
  }
}
