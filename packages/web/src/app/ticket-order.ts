/**
 * The order of the tickets the inbox showed last (its page, with its filters
 * and sort), so that a ticket's page can step to the next or previous one
 * (`j` / `k`). Kept for the tab (sessionStorage): a reload keeps it.
 */
const KEY = 'helpdesk:inbox-order'

export function rememberInboxOrder (ids: number[]): void {
  try { sessionStorage.setItem(KEY, JSON.stringify(ids)) } catch { /* storage off: no stepping */ }
}

/** The ticket `step` places after `id` in the inbox's last order (-1: before), or null at an end or when `id` was not in it. */
export function neighbour (id: number, step: 1 | -1): number | null {
  let ids: unknown
  try { ids = JSON.parse(sessionStorage.getItem(KEY) ?? '[]') } catch { return null }
  if (!Array.isArray(ids)) return null
  const at = ids.indexOf(id)
  const next = at === -1 ? undefined : ids[at + step]
  return typeof next === 'number' ? next : null
}
