import { apiBase } from './api.js'

/**
 * Calls `onChange` when something may have changed for the signed-in user: on each Server-Sent Event from
 * `/events` when that endpoint answers, else every `pollMs` (30 s). Returns a stop function.
 */
let streamMissing = false

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
