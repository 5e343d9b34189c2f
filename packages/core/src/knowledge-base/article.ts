import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

export const ARTICLE_STATUSES = ['draft', 'published'] as const
export type ArticleStatus = typeof ARTICLE_STATUSES[number]

export const ARTICLE_LIMITS = { title: 250, body: 1_000_000, tag: 100, tags: 50 } as const

/** A knowledge-base article. `published_at` is null while it is a draft. */
export interface Article {
  id: number
  title: string
  /** Unique, lowercase ASCII letters, digits and single hyphens. */
  slug: string
  body: string
  /** Position within its collection. */
  order: number
  author_id: number | null
  category_id: number
  collection_id: number
  published_at: DateTimeString | null
  created_at: DateTimeString
  updated_at: DateTimeString
}

export interface Tag {
  id: number
  name: string
}

export interface ArticleInput {
  title: string
  body: string
  /** Category id; must be the collection's category. */
  category: number
  collection: number
  status: ArticleStatus
  /** Tag names; unknown names create tags. */
  tags?: string[] | undefined
  /** An explicit slug (normalised); by default one is made from the title. */
  slug?: string | undefined
}

/**
 * Absent keys keep their value. The slug stays when the title changes, unless
 * `regenerate_slug` is true or a `slug` is sent.
 */
export type ArticlePatch = Partial<ArticleInput> & { regenerate_slug?: boolean | undefined }

export const articleList = defineList({
  resource: 'articles',
  includes: ['author', 'category', 'collection', 'tags'],
  sorts: ['title', 'order', 'created_at', 'updated_at'],
  defaultSort: 'order',
  keyTypes: { title: 'string', order: 'int', created_at: 'datetime', updated_at: 'datetime' },
  partialFilters: ['title', 'body'],
  exactFilters: ['author', 'category', 'collection']
})
