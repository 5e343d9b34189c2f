import type { Knex } from 'knex'
import { categoryList, type Category, type CategoryRepository, type WithIncludes } from '@helpdesk/core'
import { caseInsensitive, countInclude, listPage, viewOne, type IncludeLoader, type ListMapping } from '../list/list-mapping.js'
import { categoryColumns, categoryFromRow } from '../rows/category-row.js'
import { customFieldColumns, customFieldFromRow, type CustomFieldRow } from '../rows/custom-field-row.js'
import { insertId, now, rowsByIds, type RepositoryContext } from './repository-context.js'

type Item = WithIncludes<Category>

/** A category's ticket form: its custom fields, loaded for the whole page in one query. */
const fieldsInclude: IncludeLoader<Item> = async (db, items, _query, key) => {
  const rows = await db('category_fields')
    .join('custom_fields', 'custom_fields.id', 'category_fields.field_id')
    .select('category_fields.category_id', ...customFieldColumns)
    .whereIn('category_fields.category_id', items.map((i) => i.id))
    .orderBy('custom_fields.id') as Array<{ category_id: number } & CustomFieldRow>
  for (const item of items) item[key] = rows.filter((r) => r.category_id === item.id).map((r) => customFieldFromRow(r))
}

const mapping: ListMapping<typeof categoryList, Category, Item> = {
  spec: categoryList,
  sorts: { order: 'categories.order', name: caseInsensitive('categories.name') },
  partial: { name: 'categories.name' },
  exact: {},
  includes: {
    'agents-count': countInclude('agent_categories', 'category_id'),
    'tickets-count': countInclude('tickets', 'category_id'),
    'articles-count': countInclude('articles', 'category_id'),
    'collections-count': countInclude('article_collections', 'category_id'),
    fields: fieldsInclude
  },
  idColumn: 'categories.id',
  map: (row) => categoryFromRow(row) as Item
}

/** Loads categories by id in one query: for every include that embeds a category. */
export async function categoriesByIds (db: Knex, ids: Array<number | string>): Promise<Category[]> {
  return (await rowsByIds<Category>(db, 'categories', categoryColumns, ids)).map(categoryFromRow)
}

/** Rows that keep a category in use: it cannot be deleted while any exist. */
const usingTables = ['tickets', 'article_collections']

export function createCategoryRepository (ctx: RepositoryContext): CategoryRepository {
  const { db } = ctx
  const categories = (): Knex.QueryBuilder => db('categories').select(categoryColumns)
  return {
    async findById (id) {
      const row = await categories().where('id', id).first() as Category | undefined
      return row === undefined ? null : categoryFromRow(row)
    },
    async existingIds (ids) {
      if (ids.length === 0) return []
      const rows = await db('categories').select('id').whereIn('id', ids) as Array<{ id: number }>
      return rows.map((r) => r.id)
    },
    async list (query) {
      return await listPage(db, ctx.dialect, categories(), mapping, query)
    },
    async view (id, query) {
      return await viewOne(db, categories().where('categories.id', id), mapping, query)
    },
    async listByIds (ids) {
      if (ids.length === 0) return []
      const rows = await categories().whereIn('id', ids).orderBy([{ column: 'order' }, { column: 'id' }]) as Category[]
      return rows.map(categoryFromRow)
    },
    async create (input) {
      const at = now(ctx)
      const id = await insertId(db('categories').insert({
        name: input.name,
        order: input.order,
        thumbnail: input.thumbnail ?? null,
        marketplace_item_id: input.marketplace_item_id ?? null,
        purchase_verification: input.purchase_verification ?? 0,
        created_at: at,
        updated_at: at
      }))
      return (await this.findById(id))!
    },
    async update (id, patch) {
      const values = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
      const count = await db('categories').where('id', id).update({ ...values, updated_at: now(ctx) })
      return count === 0 ? null : await this.findById(id)
    },
    async delete (id) {
      return await db('categories').where('id', id).delete() > 0
    },
    async isInUse (id) {
      for (const table of usingTables) {
        if (await db(table).where('category_id', id).first('category_id') !== undefined) return true
      }
      return false
    },
    async nextOrder () {
      const row = await db('categories').max({ max: 'order' }).first() as { max: number | null } | undefined
      return Number(row?.max ?? 0) + 1
    },
    async setOrder (positions) {
      const at = now(ctx)
      for (const [id, order] of positions) await db('categories').where('id', id).update({ order, updated_at: at })
    }
  }
}
