import type { FastifyRequest } from 'fastify'
import { parseListQuery, viewQuery, type ListQuery, type ListSpec, type Page } from '@helpdesk/core'

type Query = Record<string, unknown>

function last (value: unknown): string | undefined {
  if (Array.isArray(value)) return last(value.at(-1))
  if (value === undefined || value === null) return undefined
  return String(value)
}

/** Reads `include`, `sort`, `filter[...]`, `page`, `per_page` from a request, checked against the declaration. */
export function listQueryFrom (request: FastifyRequest, spec: ListSpec): ListQuery {
  const query = (request.query ?? {}) as Query
  const filters: Record<string, string> = {}
  for (const [key, value] of Object.entries(query)) {
    const match = /^filter\[(.+)\]$/.exec(key)
    // `filter[due_at][lt]` names the filter `due_at[lt]`.
    if (match?.[1] !== undefined) filters[match[1].includes('][') ? `${match[1].replace('][', '[')}]` : match[1]] = last(value) ?? ''
  }
  const cursor = last(query.cursor) ?? last(query['page[cursor]'])
  return parseListQuery(spec, {
    include: last(query.include),
    sort: last(query.sort),
    filters,
    page: query.page as string | number | undefined,
    per_page: query.per_page as string | number | undefined,
    ...(cursor !== undefined ? { cursor } : {})
  })
}

/** The includes of a single view. */
export function viewQueryFrom (request: FastifyRequest, spec: ListSpec): ListQuery {
  return viewQuery(spec, last((request.query as Query | undefined)?.include))
}

/** Page links are derived from the request's path, as `new URL` normalises it, and its query. */
export interface RequestLink { path: string, params: URLSearchParams }

/** Normalised absolute paths by the raw origin and path they came from: a list has few, so most requests skip parsing a URL. */
const normalisedPaths = new Map<string, string>()
const NORMALISED_PATHS_KEPT = 1000

/** The request's absolute path (origin and path, normalised as `new URL` does) and its query parameters. */
export function requestLink (request: Pick<FastifyRequest, 'url' | 'protocol' | 'host'>): RequestLink {
  const raw = request.url
  const mark = raw.indexOf('?')
  const rawPath = mark === -1 ? raw : raw.slice(0, mark)
  const base = `${request.protocol}://${request.host}`
  const key = base + rawPath
  let path = normalisedPaths.get(key)
  if (path === undefined) {
    const url = new URL(rawPath, base)
    path = `${url.origin}${url.pathname}`
    if (normalisedPaths.size >= NORMALISED_PATHS_KEPT) normalisedPaths.clear()
    normalisedPaths.set(key, path)
  }
  return { path, params: new URLSearchParams(mark === -1 ? '' : raw.slice(mark + 1)) }
}

/** The link with `name` set to `value`, the other parameters kept. */
export function linkWith (link: RequestLink, name: string, value: string): string {
  link.params.set(name, value)
  return `${link.path}?${link.params.toString()}`
}

/** Cursor paging: links carry the neighbours' cursors; nothing is counted, so there is no last page. */
function cursorResponse<T, R> (request: FastifyRequest, page: Page<T>, cursors: NonNullable<Page<T>['cursors']>, present: (item: T) => R) {
  // The request's URL with `cursor` set (and `page`, `page[cursor]` dropped).
  const link = requestLink(request)
  const { path } = link
  link.params.delete('page')
  link.params.delete('page[cursor]')
  const cursorUrl = (cursor: string): string => linkWith(link, 'cursor', cursor)
  return {
    data: page.items.map(present),
    links: {
      first: cursorUrl(''),
      last: null,
      prev: cursors.prev === null ? null : cursorUrl(cursors.prev),
      next: cursors.next === null ? null : cursorUrl(cursors.next)
    },
    meta: { path, per_page: page.perPage, next_cursor: cursors.next, prev_cursor: cursors.prev }
  }
}

/**
 * `{ data, links, meta }` with absolute URLs that keep the request's other
 * parameters (CONTRACT §5); with a cursor, the cursor form (`cursorResponse`).
 */
export function pagedResponse<T, R> (request: FastifyRequest, page: Page<T>, present: (item: T) => R) {
  if (page.cursors !== undefined) return cursorResponse(request, page, page.cursors, present)
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage))
  const from = page.items.length === 0 ? null : (page.page - 1) * page.perPage + 1
  const link = requestLink(request)
  const { path } = link
  const pageUrl = (n: number): string => linkWith(link, 'page', String(n))
  return {
    data: page.items.map(present),
    links: {
      first: pageUrl(1),
      last: pageUrl(lastPage),
      prev: page.page > 1 ? pageUrl(Math.min(page.page - 1, lastPage)) : null,
      // A lower-bound total may end before the items do: a full page then always has a next one.
      next: page.page < lastPage || (page.totalIsLowerBound === true && page.items.length === page.perPage) ? pageUrl(page.page + 1) : null
    },
    meta: {
      current_page: page.page,
      from,
      last_page: lastPage,
      path,
      per_page: page.perPage,
      to: from === null ? null : from + page.items.length - 1,
      total: page.total,
      ...(page.totalIsLowerBound === true ? { total_relation: 'gte' as const } : {})
    }
  }
}
