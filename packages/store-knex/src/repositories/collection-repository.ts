import type { Knex } from 'knex'
import {
  collectionList, type ArticleCollection, type Category, type CollectionRepository, type KnowledgeBaseScope, type WithIncludes
} from '@helpdesk/core'
import { countInclude, listPage, relationInclude, viewOne, type ListMapping } from '../list/list-mapping.js'
import { collectionColumns, collectionFromRow } from '../rows/knowledge-base-rows.js'
import { parseJson } from '../rows/row-values.js'
import { categoriesByIds } from './category-repository.js'
import { visibleCollections } from './knowledge-base-scope.js'
import { now, type RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

type Item = WithIncludes<ArticleCollection>

/** Loads collections by id in one query. */
export async function collectionsByIds (db: Knex, ids: Array<number | string>): Promise<ArticleCollection[]> {
  const rows = await db('article_collections').select(collectionColumns).whereIn('id', ids) as ArticleCollection[]
  return rows.map(collectionFromRow)
}

/** `articles-count` counts what the reader may see: drafts only for staff. */
function mappingFor (scope: KnowledgeBaseScope): ListMapping<typeof collectionList, ArticleCollection, Item> {
  return {
    spec: collectionList,
    sorts: { order: 'article_collections.order', created_at: 'article_collections.created_at' },
    partial: {},
    exact: {},
    includes: {
      'articles-count': countInclude('articles', 'collection_id', (qb) => { if (!scope.drafts) void qb.whereNotNull('published_at') }),
      category: relationInclude<Item, Category>('category_id', categoriesByIds)
    },
    idColumn: 'article_collections.id',
    map: (row) => collectionFromRow(row) as Item
  }
}

/** Tickets read per code asked for: room for the same code on several tickets. */
const PURCHASE_CODE_ROWS_PER_CODE = 10

export function createCollectionRepository (ctx: RepositoryContext): CollectionRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'article_collections')
  const collections = (): Knex.QueryBuilder => db('article_collections').select(collectionColumns)
  return {
    async findById (id) {
      const row = await collections().where('article_collections.id', id).first() as ArticleCollection | undefined
      return row === undefined ? null : collectionFromRow(row)
    },
    async existingIds (ids) {
      return await table.existingIds(ids)
    },
    async list (scope, query) {
      return await listPage(db, ctx.dialect, visibleCollections(collections(), scope), mappingFor(scope), query)
    },
    async view (scope, id, query) {
      return await viewOne(db, visibleCollections(collections().where('article_collections.id', id), scope), mappingFor(scope), query)
    },
    async create (collection) {
      return (await this.findById((await table.insert(collection)).id))!
    },
    async update (id, values) {
      return await table.update(id, values) ? await this.findById(id) : null
    },
    async delete (id) {
      return await table.delete(id)
    },
    async nextOrder () {
      const row = await db('article_collections').max({ max: 'order' }).first() as { max: number | null } | undefined
      return Number(row?.max ?? 0) + 1
    },
    async setOrder (positions) {
      const at = now(ctx)
      for (const [id, order] of positions) await db('article_collections').where('id', id).update({ order, updated_at: at })
    },
    async setVisibility (ids, visibility) {
      if (ids.length === 0) return
      await db('article_collections').whereIn('id', ids).update({ visibility, updated_at: now(ctx) })
    },
    async setCategory (ids, categoryId) {
      if (ids.length === 0) return
      const at = now(ctx)
      await db('article_collections').whereIn('id', ids).update({ category_id: categoryId, updated_at: at })
      await db('articles').whereIn('collection_id', ids).update({ category_id: categoryId, updated_at: at })
    },
    async purchaseCodesOf (customerId, limit) {
      // `additional` is JSON stored as text: narrowed in SQL, parsed in JS.
      // Newest tickets first, through the owner index; a bounded read, however many tickets the customer opened.
      const rows = await db('tickets').select('additional').where('user_id', customerId)
        .whereRaw('cast(additional as text) like ?', ['%purchase_code%'])
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .limit(limit * PURCHASE_CODE_ROWS_PER_CODE) as Array<{ additional: unknown }>
      const codes = rows
        .map((r) => parseJson<{ purchase_code?: unknown }>(r.additional, {}).purchase_code)
        .filter((code): code is string => typeof code === 'string' && code.trim() !== '')
        .map((code) => code.trim())
      return [...new Set(codes)].slice(0, limit)
    }
  }
}
