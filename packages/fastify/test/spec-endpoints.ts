import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The endpoints and list parameters the service must offer, read from the
 * spec documents in docs/spec/ (SERVICE-SPEC.md's tables, CONTRACT.md's
 * `METHOD /path` mentions), so the OpenAPI tests follow the spec as written.
 */
const specDir = new URL('../../../docs/spec/', import.meta.url)
const read = (name: string): string => readFileSync(fileURLToPath(new URL(name, specDir)), 'utf8')

export interface Endpoint { method: string, path: string }

export interface SpecList {
  /** The resource as the spec's query table names it (`customer notes`). */
  resource: string
  /** Its list endpoint (`/customers/{id}/notes`). */
  path: string
  includes: string[]
  sorts: string[]
  filters: string[]
}

/** `/customers/{customer_id}/notes/{note_id}` -> `/customers/{}/notes/{}`: parameter names do not matter to clients. */
export function normalizePath (path: string): string {
  return path.replace(/\{[^}]+\}/g, '{}')
}

function cells (row: string): string[] {
  return row.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim())
}

/** Every `| METHOD | /path | ...` row of SERVICE-SPEC.md's endpoint tables. */
export function serviceSpecEndpoints (): Endpoint[] {
  const endpoints: Endpoint[] = []
  for (const line of read('SERVICE-SPEC.md').split('\n')) {
    const [method, path] = cells(line)
    if (method !== undefined && path !== undefined && /^(GET|POST|PUT|PATCH|DELETE)$/.test(method) && path.startsWith('/')) {
      endpoints.push({ method, path })
    }
  }
  return endpoints
}

/** Endpoints CONTRACT.md adds (auth, categories, deletes, aliases), as it writes them: `` `POST /auth/login` ``. */
export function contractEndpoints (): Endpoint[] {
  const found = read('CONTRACT.md').matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]+)/g)
  return [...found].map((m) => ({ method: m[1] as string, path: m[2] as string }))
}

/** CONTRACT.md §9: the verbs the spec's samples use besides the tables' ones. */
export const verbAliases: Endpoint[] = [
  { method: 'POST', path: '/customers/{id}' },
  { method: 'POST', path: '/agents/{id}' }, { method: 'PUT', path: '/agents/{id}' },
  { method: 'POST', path: '/agents/{id}/permissions' }, { method: 'PUT', path: '/agents/{id}/permissions' },
  { method: 'POST', path: '/agents/{id}/notifications' }, { method: 'PUT', path: '/agents/{id}/notifications' },
  { method: 'POST', path: '/articles/{id}' },
  { method: 'PATCH', path: '/article-collections/{id}' }
]

/** Where each list of the spec's query table lives (checked against the endpoint tables by the tests). */
export const listPaths: Record<string, string> = {
  fields: '/fields',
  'canned responses': '/canned-responses',
  customers: '/customers',
  'customer notes': '/customers/{id}/notes',
  agents: '/agents',
  tickets: '/tickets',
  comments: '/tickets/{ticket_id}/comments',
  collections: '/article-collections',
  articles: '/articles'
}

function names (cell: string): string[] {
  const text = cell.replace(/\([^)]*\)/g, '').trim()
  if (text === 'none' || text === '') return []
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '')
}

/** SERVICE-SPEC.md's "Query conventions for lists" table. */
export function serviceSpecLists (): SpecList[] {
  const text = read('SERVICE-SPEC.md')
  const section = text.slice(text.indexOf('### Query conventions for lists'))
  const lines = section.split('\n')
  const start = lines.findIndex((l) => l.startsWith('|'))
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'))
  const rows = lines.slice(start + 2, end)
  const lists: SpecList[] = []
  for (const row of rows) {
    const [resource = '', includes = '', sorts = '', partial = '', exact = ''] = cells(row)
    // "first_name, last_name, email; also a search filter over ..." (tickets)
    const [partialNames = '', more = ''] = partial.split(';')
    const filters = [...names(partialNames), ...(/search filter/.test(more) ? ['search'] : []), ...names(exact)]
    const path = listPaths[resource]
    if (path === undefined) throw new Error(`spec list "${resource}" has no path in listPaths`)
    lists.push({ resource, path, includes: names(includes), sorts: names(sorts), filters })
  }
  return lists
}

/** Lists CONTRACT.md describes in prose (§7 categories, §11 notifications). */
export const contractLists: SpecList[] = [
  {
    resource: 'categories',
    path: '/categories',
    includes: ['agents-count', 'tickets-count', 'articles-count', 'collections-count', 'fields'],
    sorts: ['order', 'name'],
    filters: ['name']
  },
  { resource: 'notifications', path: '/notifications', includes: [], sorts: [], filters: ['read', 'type'] }
]
