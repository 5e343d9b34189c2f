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
    if (match?.[1] !== undefined) filters[match[1]] = last(value) ?? ''
  }
  const parsed = parseListQuery(spec, {
    include: last(query.include),
    sort: last(query.sort),
    filters,
    page: query.page as string | number | undefined,
    per_page: query.per_page as string | number | undefined
  })
  return { ...parsed, viewer: request.actor === null ? undefined : { id: request.actor.id, role: request.actor.role } }
}

/** The includes of a single view. */
export function viewQueryFrom (request: FastifyRequest, spec: ListSpec): ListQuery {
  const parsed = viewQuery(spec, last((request.query as Query | undefined)?.include))
  return { ...parsed, viewer: request.actor === null ? undefined : { id: request.actor.id, role: request.actor.role } }
}

function pageUrl (request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`)
  url.searchParams.set('page', String(page))
  return url.toString()
}

/** `{ data, links, meta }` with absolute URLs that keep the request's other parameters (CONTRACT §5). */
export function pagedResponse<T, R> (request: FastifyRequest, page: Page<T>, present: (item: T) => R) {
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage))
  const from = page.items.length === 0 ? null : (page.page - 1) * page.perPage + 1
  const path = new URL(request.url, `${request.protocol}://${request.host}`)
  return {
    data: page.items.map(present),
    links: {
      first: pageUrl(request, 1),
      last: pageUrl(request, lastPage),
      prev: page.page > 1 ? pageUrl(request, Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? pageUrl(request, page.page + 1) : null
    },
    meta: {
      current_page: page.page,
      from,
      last_page: lastPage,
      path: `${path.origin}${path.pathname}`,
      per_page: page.perPage,
      to: from === null ? null : from + page.items.length - 1,
      total: page.total
    }
  }
}
