import type { Knex } from 'knex'
import { SAVED_VIEW_POSITION, viewList, type BuiltInViewKey, type SavedView, type ViewRepository, type ViewScope, type WithIncludes } from '@helpdesk/core'
import { caseInsensitive, listPage, type ListMapping } from '../list/list-mapping.js'
import { bool, parseJson } from '../rows/row-values.js'
import type { RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

type Item = WithIncludes<SavedView>

interface ViewRow {
  id: number
  key: string | null
  name: string
  shared: number | boolean
  user_id: number | null
  filters: string
  sort: string
  position: number
  created_at: string
  updated_at: string
}

const viewColumns = ['id', 'key', 'name', 'shared', 'user_id', 'filters', 'sort', 'position', 'created_at', 'updated_at'].map((c) => `ticket_views.${c}`)

function viewFromRow (row: ViewRow): SavedView {
  return {
    id: row.id,
    key: row.key as BuiltInViewKey | null,
    name: row.name,
    shared: bool(row.shared),
    user_id: row.user_id,
    filters: parseJson<Record<string, string>>(row.filters, {}),
    sort: row.sort,
    position: row.position,
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

const mapping: ListMapping<typeof viewList, ViewRow, Item> = {
  spec: viewList,
  sorts: { position: 'ticket_views.position', name: caseInsensitive('ticket_views.name'), created_at: 'ticket_views.created_at', id: 'ticket_views.id' },
  partial: { name: 'ticket_views.name' },
  exact: { shared: { column: 'ticket_views.shared', type: 'bool' } },
  // Counted by the service, in the caller's ticket scope (ViewService.list).
  includes: { count: async () => {} },
  idColumn: 'ticket_views.id',
  map: (row) => viewFromRow(row) as Item
}

/** The policy's scope as SQL: built-in and shared views, and the caller's own. */
function scoped (qb: Knex.QueryBuilder, scope: ViewScope): Knex.QueryBuilder {
  return qb.where((w) => {
    void w.where('ticket_views.shared', true)
    if (scope.ownerId !== null) void w.orWhere('ticket_views.user_id', scope.ownerId)
  })
}

export function createViewRepository (ctx: RepositoryContext): ViewRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'ticket_views')
  const views = (scope: ViewScope | null): Knex.QueryBuilder => {
    const base = db('ticket_views').select(viewColumns)
    return scope === null ? base : scoped(base, scope)
  }
  const byId = async (id: number): Promise<SavedView | null> => {
    const row = await views(null).where('ticket_views.id', id).first() as ViewRow | undefined
    return row === undefined ? null : viewFromRow(row)
  }
  return {
    async list (scope, query) {
      return await listPage(db, ctx.dialect, views(scope), mapping, query)
    },
    async findVisible (scope, id) {
      const row = await views(scope).where('ticket_views.id', id).first() as ViewRow | undefined
      return row === undefined ? null : viewFromRow(row)
    },
    async countOwned (userId) {
      const row = await db('ticket_views').where('user_id', userId).count({ total: '*' }).first() as { total: number | string } | undefined
      return Number(row?.total ?? 0)
    },
    async create (view) {
      const { id } = await table.insert({ ...view, key: null, filters: JSON.stringify(view.filters), position: SAVED_VIEW_POSITION })
      return await byId(id) as SavedView
    },
    async update (id, values) {
      if (!await table.update(id, { ...values, filters: JSON.stringify(values.filters) })) return null
      return await byId(id)
    },
    async delete (id) {
      return await table.delete(id)
    }
  }
}
