import type { Knex } from 'knex'
import {
  articleList, type Article, type ArticleCollection, type ArticleRepository, type Category, type Tag, type PersonSummary, type WithIncludes
} from '@helpdesk/core'
import { listPage, relationInclude, viewOne, type IncludeLoader, type ListMapping } from '../list/list-mapping.js'
import { articleColumns, articleFromRow } from '../rows/knowledge-base-rows.js'
import { categoriesByIds } from './category-repository.js'
import { collectionsByIds } from './collection-repository.js'
import { peopleByIds } from './customer-note-repository.js'
import { visibleArticles } from './knowledge-base-scope.js'
import { now, type RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

type Item = WithIncludes<Article>

/** Each article's tags ({id, name}, by name), for the whole page in one query. */
const tagsInclude: IncludeLoader<Item> = async (db, items, _query, key) => {
  const rows = await db('article_tags')
    .join('tags', 'tags.id', 'article_tags.tag_id')
    .select('article_tags.article_id', 'tags.id', 'tags.name')
    .whereIn('article_tags.article_id', items.map((i) => i.id))
    .orderBy([{ column: 'tags.name' }, { column: 'tags.id' }]) as Array<Tag & { article_id: number }>
  const byArticle = new Map<number, Tag[]>()
  for (const row of rows) {
    const list = byArticle.get(row.article_id) ?? []
    list.push({ id: row.id, name: row.name })
    byArticle.set(row.article_id, list)
  }
  for (const item of items) item[key] = byArticle.get(item.id) ?? []
}

const mapping: ListMapping<typeof articleList, Article, Item> = {
  spec: articleList,
  sorts: {
    title: 'articles.title',
    order: 'articles.order',
    created_at: 'articles.created_at',
    updated_at: 'articles.updated_at'
  },
  partial: { title: 'articles.title', body: 'articles.body' },
  exact: {
    author: { column: 'articles.author_id', type: 'int' },
    category: { column: 'articles.category_id', type: 'int' },
    collection: { column: 'articles.collection_id', type: 'int' },
    slug: { column: 'articles.slug', type: 'string' }
  },
  includes: {
    author: relationInclude<Item, PersonSummary>('author_id', peopleByIds),
    category: relationInclude<Item, Category>('category_id', categoriesByIds),
    collection: relationInclude<Item, ArticleCollection>('collection_id', collectionsByIds),
    tags: tagsInclude
  },
  idColumn: 'articles.id',
  map: (row) => articleFromRow(row) as Item
}

export function createArticleRepository (ctx: RepositoryContext): ArticleRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'articles')
  const articles = (): Knex.QueryBuilder => db('articles').select(articleColumns)
  return {
    async findById (id) {
      const row = await articles().where('articles.id', id).first() as Article | undefined
      return row === undefined ? null : articleFromRow(row)
    },
    async findMany (ids) {
      if (ids.length === 0) return []
      const rows = await articles().whereIn('articles.id', ids).orderBy('articles.id') as Article[]
      return rows.map(articleFromRow)
    },
    async list (scope, query) {
      return await listPage(db, ctx.dialect, visibleArticles(db, articles(), scope), mapping, query)
    },
    async view (scope, id, query) {
      return await viewOne(db, visibleArticles(db, articles().where('articles.id', id), scope), mapping, query)
    },
    async create (article) {
      return (await this.findById((await table.insert(article)).id))!
    },
    async update (id, changes) {
      return await table.update(id, changes) ? await this.findById(id) : null
    },
    async delete (id) {
      return await table.delete(id)
    },
    async nextOrder (collectionId) {
      const row = await db('articles').where('collection_id', collectionId).max({ max: 'order' }).first() as { max: number | null } | undefined
      return Number(row?.max ?? 0) + 1
    },
    async setOrder (positions) {
      const at = now(ctx)
      for (const [id, order] of positions) await db('articles').where('id', id).update({ order, updated_at: at })
    },
    async slugsLike (base, exceptId) {
      // Slugs hold only [a-z0-9-], so `base` needs no LIKE escaping.
      const qb = db('articles').select('slug').where((w) => { void w.where('slug', base).orWhere('slug', 'like', `${base}-%`) })
      if (exceptId !== undefined) void qb.whereNot('id', exceptId)
      const rows = await qb as Array<{ slug: string }>
      return rows.map((r) => r.slug)
    },
    async setTags (articleId, names) {
      await db('article_tags').where('article_id', articleId).delete()
      if (names.length === 0) return
      // Concurrent writers may create the same tag: the unique name makes the second insert a no-op.
      await db('tags').insert(names.map((name) => ({ name }))).onConflict('name').ignore()
      const tags = await db('tags').select('id').whereIn('name', names) as Array<{ id: number }>
      await db('article_tags').insert(tags.map((tag) => ({ article_id: articleId, tag_id: tag.id })))
    }
  }
}
