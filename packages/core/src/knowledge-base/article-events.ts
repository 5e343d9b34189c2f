import type { DomainEvent } from '../events.js'
import type { Article } from './article.js'

/**
 * Knowledge-base events, emitted inside the transaction of the change.
 * `ArticlePublished` when an article becomes published (created published, or
 * a draft published); `ArticleUpdated` for any other change (unpublishing
 * included); `ArticleDeleted` with its last state. Creating a draft raises none.
 */
export const ArticleEventType = {
  ArticlePublished: 'KnowledgeBase.ArticlePublished',
  ArticleUpdated: 'KnowledgeBase.ArticleUpdated',
  ArticleDeleted: 'KnowledgeBase.ArticleDeleted'
} as const

export interface ArticleEvent extends DomainEvent {
  type: typeof ArticleEventType[keyof typeof ArticleEventType]
  article: Article
}
