import type { Article, ArticleCollection } from '@helpdesk/core'

export const collectionColumns = ['id', 'category_id', 'name', 'order', 'visibility', 'created_at', 'updated_at']
  .map((c) => `article_collections.${c}`)

export function collectionFromRow (row: ArticleCollection): ArticleCollection {
  return {
    id: row.id,
    category_id: row.category_id,
    name: row.name,
    order: Number(row.order),
    visibility: Number(row.visibility) as ArticleCollection['visibility'],
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

export const articleColumns = [
  'id', 'title', 'slug', 'body', 'order', 'author_id', 'category_id', 'collection_id', 'published_at', 'created_at', 'updated_at'
].map((c) => `articles.${c}`)

export function articleFromRow (row: Article): Article {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    body: row.body,
    order: Number(row.order),
    author_id: row.author_id ?? null,
    category_id: row.category_id,
    collection_id: row.collection_id,
    published_at: row.published_at ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}
