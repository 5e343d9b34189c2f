import type { Knex } from 'knex'
import { categoryList, type Category, type CategoryCountScope, type CategoryRepository, type WithIncludes } from '@helpdesk/core'
import { caseInsensitive, countInclude, listPage, viewOne, type IncludeLoader, type ListMapping } from '../list/list-mapping.js'
import { categoryColumns, categoryFromRow } from '../rows/category-row.js'
import { customFieldColumns, customFieldFromRow, type CustomFieldRow } from '../rows/custom-field-row.js'
import { visibleArticles, visibleCollections } from './knowledge-base-scope.js'
import { insertId, now, rowsByIds, type RepositoryContext } from './repository-context.js'
import { ticketCounts } from './ticket-counts.js'
import { tableRows } from './table-rows.js'

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

type Counted = Array<{ category_id: number | string, n: number | string | null }>

function setCounts (items: Item[], key: string, ...parts: Counted[]): void {
  const counts = new Map<string, number>()
  for (const rows of parts) for (const row of rows) counts.set(String(row.category_id), (counts.get(String(row.category_id)) ?? 0) + Number(row.n ?? 0))
  for (const item of items) (item as Record<string, unknown>)[key] = counts.get(String(item.id)) ?? 0
}

/**
 * `tickets-count` from the counter table (kept by triggers), never a count
 * over the tickets: all of them for staff; for a customer the public ones
 * plus their own private ones, counted through the owner index.
 */
function ticketsCountInclude (counts: CategoryCountScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const ids = items.map((i) => i.id)
    const counted = db(ticketCounts.table).select('category_id').sum({ n: 'total' }).whereIn('category_id', ids).groupBy('category_id')
    const visibility = counts.tickets
    if ('categoryIds' in visibility) throw new Error('category counts take a staff or customer ticket visibility')
    if ('all' in visibility) return setCounts(items, key, await counted as Counted)
    void counted.where('private', false)
    const owned = db('tickets').select('category_id').count({ n: '*' })
      .where('user_id', visibility.ownerOrPublic).where('private', true).whereIn('category_id', ids).groupBy('category_id')
    const [open, own] = await Promise.all([counted, owned]) as [Counted, Counted]
    setCounts(items, key, open, own)
  }
}

/** `articles-count`: the articles the caller could list (published, in collections they may read, for non-staff). */
function articlesCountInclude (counts: CategoryCountScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const qb = db('articles').select('articles.category_id').count({ n: '*' }).whereIn('articles.category_id', items.map((i) => i.id)).groupBy('articles.category_id')
    setCounts(items, key, await visibleArticles(db, qb, counts.knowledgeBase) as Counted)
  }
}

/** `collections-count`: the collections the caller may read. */
function collectionsCountInclude (counts: CategoryCountScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const qb = db('article_collections').select('article_collections.category_id').count({ n: '*' })
      .whereIn('article_collections.category_id', items.map((i) => i.id)).groupBy('article_collections.category_id')
    setCounts(items, key, await visibleCollections(qb, counts.knowledgeBase) as Counted)
  }
}

/** The list mapping for one caller: the counts depend on what they may see. */
function mappingFor (counts: CategoryCountScope): ListMapping<typeof categoryList, Category, Item> {
  return {
    spec: categoryList,
    sorts: { order: 'categories.order', name: caseInsensitive('categories.name') },
    partial: { name: 'categories.name' },
    exact: {},
    includes: {
      'agents-count': countInclude('agent_categories', 'category_id'),
      'tickets-count': ticketsCountInclude(counts),
      'articles-count': articlesCountInclude(counts),
      'collections-count': collectionsCountInclude(counts),
      fields: fieldsInclude
    },
    idColumn: 'categories.id',
    map: (row) => categoryFromRow(row) as Item
  }
}

/** Loads categories by id in one query: for every include that embeds a category. */
export async function categoriesByIds (db: Knex, ids: Array<number | string>): Promise<Category[]> {
  return (await rowsByIds<Category>(db, 'categories', categoryColumns, ids)).map(categoryFromRow)
}

/** Rows that keep a category in use: it cannot be deleted while any exist. */
const usingTables = ['tickets', 'article_collections']

export function createCategoryRepository (ctx: RepositoryContext): CategoryRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'categories')
  const categories = (): Knex.QueryBuilder => db('categories').select(categoryColumns)
  return {
    async findById (id) {
      // Every comment and ticket change reads its ticket's category (the event's facts): one prepared statement.
      const [row] = await rowsByIds<Category>(db, 'categories', categoryColumns, [id])
      return row === undefined ? null : categoryFromRow(row)
    },
    async existingIds (ids) {
      return await table.existingIds(ids)
    },
    async list (query, counts, ids) {
      const base = categories()
      if (ids !== undefined) void base.whereIn('categories.id', ids)
      return await listPage(db, ctx.dialect, base, mappingFor(counts), query)
    },
    async view (id, query, counts) {
      return await viewOne(db, categories().where('categories.id', id), mappingFor(counts), query)
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
      return await table.update(id, values) ? await this.findById(id) : null
    },
    async delete (id) {
      return await table.delete(id)
    },
    async isInUse (id) {
      for (const using of usingTables) {
        if (await db(using).where('category_id', id).first('category_id') !== undefined) return true
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
