import { ApiError, decodePlainText, toApiError, listQuery, type ListParams } from './api-errors.js'
import { t } from '../messages/index.js'

export { ApiError, listQuery }
export type { ListParams }

export interface Page<T> {
  data: T[]
  meta: { next_cursor?: string | null, prev_cursor?: string | null, total?: number, per_page?: number }
  links?: { next: string | null }
}

/** The API prefix from `<meta name="helpdesk-api">` (the server plugin may rewrite it), without a trailing slash. */
export function apiBase (): string {
  const meta = document.querySelector('meta[name="helpdesk-api"]')
  const value = meta?.getAttribute('content') ?? '/api/v1'
  return value.replace(/\/+$/, '')
}

let csrfToken: string | null = null

/** The session's CSRF token (from POST/GET /auth/session), sent as X-CSRF-Token on state-changing requests. */
export function setCsrfToken (token: string | null): void {
  csrfToken = token
}

/** The CSRF header for a request made outside `request` (a `keepalive` fetch when the page is hidden). */
export function csrfHeaders (): Record<string, string> {
  return csrfToken === null ? {} : { 'x-csrf-token': csrfToken }
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

type Listener = (error: ApiError) => void
const unauthenticatedListeners = new Set<Listener>()
/** Called when any request answers 401 (the session ended elsewhere). */
export function onUnauthenticated (listener: Listener): () => void {
  unauthenticatedListeners.add(listener)
  return () => unauthenticatedListeners.delete(listener)
}

/** `keepalive`: the request outlives the page (a save as the tab closes); its body must stay under 64 KB. */
export async function request<T> (method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}, init: { keepalive?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders }
  let payload: BodyInit | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  if (unsafeMethods.has(method) && csrfToken !== null) headers['x-csrf-token'] = csrfToken
  let response: Response
  try {
    response = await fetch(apiBase() + path, { method, headers, body: payload, credentials: 'same-origin', ...(init.keepalive === true ? { keepalive: true } : {}) })
  } catch {
    throw new ApiError(0, t('error.network'))
  }
  const text = await response.text()
  let parsed: unknown = null
  if (text !== '') {
    try { parsed = JSON.parse(text) } catch { parsed = null }
  }
  if (!response.ok) {
    const error = toApiError(response.status, parsed, t('error.status', { status: response.status }))
    if (response.status === 401 && !path.startsWith('/auth/session')) {
      for (const listener of unauthenticatedListeners) listener(error)
    }
    throw error
  }
  return decodePlainText(parsed) as T
}

export const api = {
  get: async <T>(path: string, params?: ListParams) => await request<T>('GET', path + (params === undefined ? '' : listQuery(params))),
  /** Every item of a paged list, page after page (100 each) to the last: for a form that sends the whole list back. */
  getAll: async <T>(path: string, params: ListParams = {}): Promise<T[]> => {
    const items: T[] = []
    for (let page = 1; ; page++) {
      const result = await request<Page<T>>('GET', path + listQuery({ ...params, page, per_page: 100 }))
      items.push(...result.data)
      if (result.data.length === 0 || result.links?.next == null) return items
    }
  },
  post: async <T>(path: string, body?: unknown) => await request<T>('POST', path, body ?? {}),
  put: async <T>(path: string, body?: unknown) => await request<T>('PUT', path, body ?? {}),
  patch: async <T>(path: string, body?: unknown) => await request<T>('PATCH', path, body ?? {}),
  delete: async <T>(path: string, body?: unknown) => await request<T>('DELETE', path, body),
  /** Creates (`POST {path}`) or, given the item, changes it (`PATCH {path}/{id}`). */
  save: async <T>(path: string, item: { id: number } | undefined, body: unknown) =>
    item === undefined ? await request<T>('POST', path, body) : await request<T>('PATCH', `${path}/${item.id}`, body),
  /** A download link for an attachment; the cookie authorises it, so a plain <a href> works. */
  downloadUrl: (id: string) => `${apiBase()}/attachments/${encodeURIComponent(id)}/download`
}
