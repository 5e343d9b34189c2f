import type { Knex } from 'knex'
import { customerNoteList, type CustomerNote, type CustomerNoteRepository, type PersonSummary, type WithIncludes } from '@helpdesk/core'
import { listPage, relationInclude, type ListMapping } from '../list/list-mapping.js'
import { personColumns, personFromRow, type UserRow } from '../rows/user-row.js'
import { rowsByIds, type RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

type Item = WithIncludes<CustomerNote>

const noteColumns = ['id', 'customer_id', 'creator_id', 'text', 'created_at', 'updated_at'].map((c) => `customer_notes.${c}`)

/** Loads the people of a page by id in one query: shared by every include that embeds a person (their summary, not their settings). */
export async function peopleByIds (db: Knex, ids: Array<number | string>): Promise<PersonSummary[]> {
  return (await rowsByIds<UserRow>(db, 'users', personColumns, ids)).map(personFromRow)
}

const mapping: ListMapping<typeof customerNoteList, CustomerNote, Item> = {
  spec: customerNoteList,
  sorts: { created_at: 'customer_notes.created_at' },
  partial: { text: 'customer_notes.text' },
  exact: { creator_id: { column: 'customer_notes.creator_id', type: 'int' } },
  includes: {
    creator: relationInclude<Item, PersonSummary>('creator_id', peopleByIds),
    user: relationInclude<Item, PersonSummary>('customer_id', peopleByIds)
  },
  idColumn: 'customer_notes.id',
  map: (row) => ({ ...row })
}

export function createCustomerNoteRepository (ctx: RepositoryContext): CustomerNoteRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'customer_notes')
  const notes = (): Knex.QueryBuilder => db('customer_notes').select(noteColumns)
  return {
    async create (note) {
      return await table.insert(note)
    },
    async list (customerId, query) {
      return await listPage(db, ctx.dialect, notes().where('customer_notes.customer_id', customerId), mapping, query)
    },
    async findById (id) {
      return await notes().where('id', id).first() as CustomerNote | undefined ?? null
    },
    async delete (id) {
      return await table.delete(id)
    }
  }
}
