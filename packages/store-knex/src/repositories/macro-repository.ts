import type { Knex } from 'knex'
import { macroList, type Macro, type MacroRepository, type MacroScope, type RuleAction, type WithIncludes } from '@helpdesk/core'
import { caseInsensitive, listPage, type ListMapping } from '../list/list-mapping.js'
import { bool, parseJson } from '../rows/row-values.js'
import type { RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

type Item = WithIncludes<Macro>

interface MacroRow {
  id: number
  name: string
  shared: number | boolean
  user_id: number | null
  actions: string
  created_at: string
  updated_at: string
}

const macroColumns = ['id', 'name', 'shared', 'user_id', 'actions', 'created_at', 'updated_at'].map((c) => `macros.${c}`)

function macroFromRow (row: MacroRow): Macro {
  return {
    id: row.id,
    name: row.name,
    shared: bool(row.shared),
    user_id: row.user_id,
    actions: parseJson<RuleAction[]>(row.actions, []),
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

const mapping: ListMapping<typeof macroList, MacroRow, Item> = {
  spec: macroList,
  sorts: { name: caseInsensitive('macros.name'), created_at: 'macros.created_at', id: 'macros.id' },
  partial: { name: 'macros.name' },
  exact: { shared: { column: 'macros.shared', type: 'bool' } },
  includes: {},
  idColumn: 'macros.id',
  map: (row) => macroFromRow(row) as Item
}

/** The policy's scope as SQL: shared macros and the caller's own. */
function scoped (qb: Knex.QueryBuilder, scope: MacroScope): Knex.QueryBuilder {
  return qb.where((w) => {
    void w.where('macros.shared', true)
    if (scope.ownerId !== null) void w.orWhere('macros.user_id', scope.ownerId)
  })
}

export function createMacroRepository (ctx: RepositoryContext): MacroRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'macros')
  const macros = (scope: MacroScope | null): Knex.QueryBuilder => {
    const base = db('macros').select(macroColumns)
    return scope === null ? base : scoped(base, scope)
  }
  const byId = async (id: number): Promise<Macro | null> => {
    const row = await macros(null).where('macros.id', id).first() as MacroRow | undefined
    return row === undefined ? null : macroFromRow(row)
  }
  return {
    async list (scope, query) {
      return await listPage(db, ctx.dialect, macros(scope), mapping, query)
    },
    async findVisible (scope, id) {
      const row = await macros(scope).where('macros.id', id).first() as MacroRow | undefined
      return row === undefined ? null : macroFromRow(row)
    },
    async create (macro) {
      const { id } = await table.insert({ ...macro, actions: JSON.stringify(macro.actions) })
      return await byId(id) as Macro
    },
    async update (id, values) {
      if (!await table.update(id, { ...values, actions: JSON.stringify(values.actions) })) return null
      return await byId(id)
    },
    async delete (id) {
      return await table.delete(id)
    }
  }
}
