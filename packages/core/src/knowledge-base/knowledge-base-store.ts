import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { Article } from './article.js'
import type { ArticleCollection, CollectionVisibilityNumber } from './collection.js'
import type { KnowledgeBaseScope } from './knowledge-base-policy.js'

export type NewCollection = Pick<ArticleCollection, 'category_id' | 'name' | 'order' | 'visibility'>

/**
 * Storage port for article collections (part of Store). Reads that take a
 * KnowledgeBaseScope return only what it lets the reader see, and their
 * `articles-count` counts only the articles the reader may see.
 */
export interface CollectionRepository {
  findById(id: number): Promise<ArticleCollection | null>
  /** The ids among `ids` that exist. */
  existingIds(ids: number[]): Promise<number[]>
  list(scope: KnowledgeBaseScope, query: ListQuery): Promise<Page<WithIncludes<ArticleCollection>>>
  view(scope: KnowledgeBaseScope, id: number, query: ListQuery): Promise<WithIncludes<ArticleCollection> | null>
  create(collection: NewCollection): Promise<ArticleCollection>
  update(id: number, values: Partial<Pick<ArticleCollection, 'name' | 'visibility'>>): Promise<ArticleCollection | null>
  /** Deletes the collection with its articles. */
  delete(id: number): Promise<boolean>
  /** One more than the highest `order`. */
  nextOrder(): Promise<number>
  /** Sets `order` of each id to its position. */
  setOrder(positions: Map<number, number>): Promise<void>
  setVisibility(ids: number[], visibility: CollectionVisibilityNumber): Promise<void>
  /** Moves the collections, and their articles with them, to the category. */
  setCategory(ids: number[], categoryId: number): Promise<void>
  /** At most `limit` distinct marketplace purchase codes on the tickets a customer owns (`additional.purchase_code`), newest ticket first. */
  purchaseCodesOf(customerId: number, limit: number): Promise<string[]>
}

export type NewArticle = Omit<Article, 'id' | 'created_at' | 'updated_at'>
export type ArticleChanges = Partial<Omit<NewArticle, 'author_id'>>

/** Storage port for articles and their tags (part of Store). Scoped reads as for collections. */
export interface ArticleRepository {
  findById(id: number): Promise<Article | null>
  /** The articles among `ids` that exist. */
  findMany(ids: number[]): Promise<Article[]>
  list(scope: KnowledgeBaseScope, query: ListQuery): Promise<Page<WithIncludes<Article>>>
  view(scope: KnowledgeBaseScope, id: number, query: ListQuery): Promise<WithIncludes<Article> | null>
  /** A slug clash surfaces as a ValidationError on `slug`. */
  create(article: NewArticle): Promise<Article>
  update(id: number, changes: ArticleChanges): Promise<Article | null>
  delete(id: number): Promise<boolean>
  /** One more than the highest `order` in the collection. */
  nextOrder(collectionId: number): Promise<number>
  setOrder(positions: Map<number, number>): Promise<void>
  /** Slugs in use that equal `base` or start with `base-`, other than article `exceptId`'s. */
  slugsLike(base: string, exceptId?: number): Promise<string[]>
  /** Replaces the article's tags by name, creating tags not seen before. */
  setTags(articleId: number, names: string[]): Promise<void>
}
