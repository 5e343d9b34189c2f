import type { Knex } from 'knex'
import type { KnowledgeBaseScope } from '@helpdesk/core'

/**
 * The reader's scope (decided by core's knowledge-base-policy.ts) as SQL.
 * Every list and single view of collections and articles goes through these.
 */
export function visibleCollections (qb: Knex.QueryBuilder, scope: KnowledgeBaseScope): Knex.QueryBuilder {
  if (scope.visibilities !== null) void qb.whereIn('article_collections.visibility', scope.visibilities)
  return qb
}

/** Articles follow their collection's visibility; drafts only when the scope allows them. */
export function visibleArticles (db: Knex, qb: Knex.QueryBuilder, scope: KnowledgeBaseScope): Knex.QueryBuilder {
  if (scope.visibilities !== null) {
    void qb.whereIn('articles.collection_id', db('article_collections').select('id').whereIn('visibility', scope.visibilities))
  }
  if (!scope.drafts) void qb.whereNotNull('articles.published_at')
  return qb
}
