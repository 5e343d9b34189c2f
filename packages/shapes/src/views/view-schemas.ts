import { Type, type Static } from '@sinclair/typebox'
import { BUILT_IN_VIEW_KEYS, VIEW_LIMITS, type SavedView } from '@helpdesk/core'
import { DateTime, Nullable } from '../common.js'

const Filters = Type.Record(Type.String({ maxLength: 60 }), Type.String({ maxLength: VIEW_LIMITS.filterValue }), {
  description: '`filter[...]` of `GET /tickets` by name (`status`, `categories`, `agents`, `priority`, `tags`, `search`, `updated_since`...), ' +
    'checked by the ticket list\'s rules (422 on `filters.NAME`).',
  maxProperties: VIEW_LIMITS.filters
})

export const View = Type.Object({
  id: Type.Integer(),
  key: Nullable(Type.Union(BUILT_IN_VIEW_KEYS.map((key) => Type.Literal(key)), { description: 'A built-in view\'s name; null for a saved view.' })),
  name: Type.String(),
  built_in: Type.Boolean({ description: 'Built-in views cannot be changed or deleted.' }),
  shared: Type.Boolean({ description: 'True: visible to all staff, managed by its owner and administrators. False: its owner\'s alone.' }),
  user_id: Nullable(Type.Integer({ description: 'The agent who saved it (null for built-in views).' })),
  filters: Filters,
  sort: Type.String({ description: '`sort` of `GET /tickets`.' }),
  query: Type.String({ description: 'The view as the query string of `GET /tickets` (`filter[status]=1%2C2&sort=-updated_at`).' }),
  position: Type.Integer({ description: 'Built-in views first (1-5), saved views after (100).' }),
  count: Type.Optional(Type.Integer({ description: '`include=count`: the tickets the view shows the caller now.' })),
  count_is_lower_bound: Type.Optional(Type.Boolean({ description: 'The count stopped at a limit (filters the counts cannot answer): at least `count`.' })),
  created_at: DateTime,
  updated_at: DateTime
}, { description: 'A view of the ticket list: a name for a filter and a sort of `GET /tickets`.' })

const writable = {
  name: Type.String({ minLength: 1, maxLength: VIEW_LIMITS.name }),
  shared: Type.Optional(Type.Boolean({ description: 'Default false (private). Shared views are visible to all staff.' })),
  filters: Type.Optional(Filters),
  sort: Type.Optional(Type.String({ maxLength: 200, description: 'Default `-updated_at`.' }))
}

export const ViewCreate = Type.Object(writable, {
  examples: [{ name: 'Urgent billing', shared: true, filters: { status: '1,2', categories: '3', priority: 'high,urgent' }, sort: '-updated_at' }]
})
export const ViewUpdate = Type.Partial(Type.Object(writable), { description: 'Absent keys keep their value.', examples: [{ name: 'Billing: urgent' }] })

/** A view's ticket list query string, as `GET /tickets` takes it. */
export function viewQueryString (view: Pick<SavedView, 'filters' | 'sort'>): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(view.filters)) {
    // `lt`/`gte` time filters are written `filter[name][lt]`.
    const bracket = name.indexOf('[')
    params.set(bracket === -1 ? `filter[${name}]` : `filter[${name.slice(0, bracket)}]${name.slice(bracket)}`, value)
  }
  params.set('sort', view.sort)
  return params.toString()
}

export function presentView (view: SavedView & { count?: unknown, count_is_lower_bound?: unknown }): Static<typeof View> {
  return {
    id: view.id,
    key: view.key,
    name: view.name,
    built_in: view.key !== null,
    shared: view.shared,
    user_id: view.user_id,
    filters: view.filters,
    sort: view.sort,
    query: viewQueryString(view),
    position: view.position,
    ...(typeof view.count === 'number' ? { count: view.count } : {}),
    ...(view.count_is_lower_bound === true ? { count_is_lower_bound: true } : {}),
    created_at: view.created_at,
    updated_at: view.updated_at
  }
}
