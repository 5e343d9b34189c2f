import type { Knex } from 'knex'
import {
  cannedResponseList, type CannedResponse, type CannedResponseRepository, type CannedResponseScope, type WithIncludes
} from '@helpdesk/core'
import { listPage, viewOne, type ListMapping } from '../list/list-mapping.js'
import { cannedResponseColumns, cannedResponseFromRow, type CannedResponseRow } from '../rows/canned-response-row.js'
import type { RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

type Item = WithIncludes<CannedResponse>

const mapping: ListMapping<typeof cannedResponseList, CannedResponseRow, Item> = {
  spec: cannedResponseList,
  sorts: { created_at: 'canned_responses.created_at' },
  partial: { content: ['canned_responses.name', 'canned_responses.body'] },
  exact: {},
  includes: {},
  idColumn: 'canned_responses.id',
  map: (row) => cannedResponseFromRow(row) as Item
}

/** The policy's scope as SQL: every list and view goes through here. */
function scoped (qb: Knex.QueryBuilder, scope: CannedResponseScope): Knex.QueryBuilder {
  if (scope.all) return qb
  return qb.where((w) => { void w.where('canned_responses.global', true).orWhere('canned_responses.user_id', scope.userId) })
}

export function createCannedResponseRepository (ctx: RepositoryContext): CannedResponseRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'canned_responses')
  const responses = (scope: CannedResponseScope): Knex.QueryBuilder => scoped(db('canned_responses').select(cannedResponseColumns), scope)
  return {
    async list (scope, query) {
      return await listPage(db, ctx.dialect, responses(scope), mapping, query)
    },
    async view (scope, id, query) {
      return await viewOne(db, responses(scope).where('canned_responses.id', id), mapping, query)
    },
    async findVisible (scope, ids) {
      if (ids.length === 0) return []
      const rows = await responses(scope).whereIn('canned_responses.id', ids).orderBy('canned_responses.id') as CannedResponseRow[]
      return rows.map(cannedResponseFromRow)
    },
    async create (response) {
      const { id } = await table.insert(response)
      const row = await responses({ all: true }).where('canned_responses.id', id).first() as CannedResponseRow
      return cannedResponseFromRow(row)
    },
    async update (id, values) {
      if (!await table.update(id, values)) return null
      const row = await responses({ all: true }).where('canned_responses.id', id).first() as CannedResponseRow | undefined
      return row === undefined ? null : cannedResponseFromRow(row)
    },
    async deleteMany (ids) {
      if (ids.length === 0) return 0
      return await db('canned_responses').whereIn('id', ids).delete()
    }
  }
}
