const KEY = 'helpdesk.tab-id'

let current: string | null = null

function fresh (): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

function store (): void {
  try { if (current !== null) sessionStorage.setItem(KEY, current) } catch { /* storage off: a reload gets a new id */ }
}

function take (): string | null {
  try {
    const stored = sessionStorage.getItem(KEY)
    sessionStorage.removeItem(KEY)
    return stored
  } catch {
    return null
  }
}

/**
 * This browser tab's id, sent as `client_id` with its presence beats and
 * leaves so that each tab of an agent counts on its own (closing one of two
 * tabs on a ticket keeps the agent present). Random once per tab and kept in
 * sessionStorage across reloads; it is taken out of storage while the page is
 * shown and put back when the page hides, so a duplicated tab (which copies
 * sessionStorage) gets an id of its own instead of sharing this one.
 */
export function tabId (): string {
  if (current !== null) return current
  const stored = take()
  current = stored !== null && /^[A-Za-z0-9_-]{1,64}$/.test(stored) ? stored : fresh()
  window.addEventListener('pagehide', store)
  window.addEventListener('pageshow', (event) => { if (event.persisted) take() })
  return current
}
