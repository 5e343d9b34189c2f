import { positionsFromOrder } from '../categories/category.js'
import { nowString, type ServiceContext } from '../context.js'
import { NotFoundError, ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid, unknownOrderErrors } from '../id-lists.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Store, WithIncludes } from '../store.js'
import { actorIdOf, type ActorInput } from '../users/actor.js'
import type { Article, ArticleInput, ArticlePatch } from './article.js'
import { articleText } from './article-input.js'
import type { ArticleChanges } from './knowledge-base-store.js'
import { ensureCanManageArticles, knowledgeBaseScope } from './knowledge-base-policy.js'
import { slugOf, uniqueSlug } from './slug.js'
import { ArticleEventType, type ArticleEvent } from './article-events.js'
import type { ArticleCollection } from './collection.js'

/**
 * The knowledge base as one reader sees it on public pages (the web package's
 * server-rendered KB): the visibility rule of `knowledgeBaseScope`, decided
 * once for the reader, with drafts left out for everybody, staff included.
 * Read-only.
 */
export interface PublishedKnowledgeBase {
  collections(query: ListQuery): Promise<Page<WithIncludes<ArticleCollection>>>
  /** Null when the reader may not see it (or it does not exist). */
  collection(id: number, query: ListQuery): Promise<WithIncludes<ArticleCollection> | null>
  articles(query: ListQuery): Promise<Page<WithIncludes<Article>>>
}

/** Fallback slug for titles with nothing to transliterate. */
const FALLBACK_SLUG = 'article'
/** A generated slug can lose a race to a concurrent writer; the write is retried with the next free one. */
const SLUG_ATTEMPTS = 10

/**
 * Where an article lives. Its category is always its collection's: `category`
 * may be omitted (it follows the collection) and must match when sent.
 */
async function placement (store: Store, categoryId: number | undefined, collectionId: number): Promise<Pick<Article, 'category_id' | 'collection_id'>> {
  const errors: FieldErrors = {}
  const collection = await store.collections.findById(collectionId)
  if (collection === null) errors.collection = ['The selected collection is invalid.']
  if (categoryId !== undefined && (await store.categories.existingIds([categoryId])).length === 0) {
    errors.category = ['The selected category is invalid.']
  }
  throwIfInvalid(errors)
  if (categoryId !== undefined && categoryId !== collection!.category_id) {
    throw ValidationError.field('category', 'The category must be the category of the article\'s collection.')
  }
  return { category_id: collection!.category_id, collection_id: collectionId }
}

/** An explicit slug must be free (422 on `slug`). */
async function claimSlug (store: Store, slug: string, exceptId?: number): Promise<string> {
  if ((await store.articles.slugsLike(slug, exceptId)).includes(slug)) throw ValidationError.field('slug', 'The slug has already been taken.')
  return slug
}

/** The title's slug, suffixed `-2`, `-3`... when taken. */
async function freeSlug (store: Store, title: string, exceptId?: number): Promise<string> {
  const base = slugOf(title) || FALLBACK_SLUG
  return uniqueSlug(base, await store.articles.slugsLike(base, exceptId))
}

async function retryingSlugClash<T> (generated: boolean, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (error) {
      const clash = error instanceof ValidationError && error.errors.slug !== undefined
      if (!generated || !clash || attempt >= SLUG_ATTEMPTS) throw error
    }
  }
}

/**
 * Knowledge-base articles. Reading follows the visibility policy; editing is
 * for administrators and agents with `manage_articles`. `status` drives
 * `published_at`: set when published, kept while it stays published, null as a draft.
 */
export class ArticleService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<Article>>> {
    return await this.ctx.store.articles.list(await knowledgeBaseScope(this.ctx, actor), query)
  }

  /** What `actor` (`anonymous()` for nobody signed in) reads of the published knowledge base: see `PublishedKnowledgeBase`. */
  async publishedFor (actor: ActorInput): Promise<PublishedKnowledgeBase> {
    const scope = { ...await knowledgeBaseScope(this.ctx, actor), drafts: false }
    const { store } = this.ctx
    return {
      collections: async (query) => await store.collections.list(scope, query),
      collection: async (id, query) => await store.collections.view(scope, id, query),
      articles: async (query) => await store.articles.list(scope, query)
    }
  }

  async view (actor: ActorInput, id: number, query: ListQuery): Promise<WithIncludes<Article>> {
    const article = await this.ctx.store.articles.view(await knowledgeBaseScope(this.ctx, actor), id, query)
    if (article === null) throw new NotFoundError('Article')
    return article
  }

  async create (actor: ActorInput, input: ArticleInput): Promise<Article> {
    ensureCanManageArticles(actor)
    const text = articleText(input)
    return await retryingSlugClash(text.slug === undefined, async () => await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const place = await placement(tx, input.category, input.collection)
      const article = await tx.articles.create({
        title: text.title ?? '',
        slug: text.slug !== undefined ? await claimSlug(tx, text.slug) : await freeSlug(tx, text.title ?? ''),
        body: text.body ?? '',
        order: await tx.articles.nextOrder(place.collection_id),
        author_id: actorIdOf(actor),
        ...place,
        published_at: input.status === 'published' ? nowString(this.ctx) : null
      })
      if (text.tags !== undefined) await tx.articles.setTags(article.id, text.tags)
      if (article.published_at !== null) {
        await this.ctx.events.emit(tx, { type: ArticleEventType.ArticlePublished, actor_id: actorIdOf(actor), article } satisfies ArticleEvent)
      }
      return article
    }))
  }

  async update (actor: ActorInput, id: number, patch: ArticlePatch): Promise<Article> {
    ensureCanManageArticles(actor)
    const text = articleText(patch)
    const regenerate = text.slug === undefined && patch.regenerate_slug === true
    return await retryingSlugClash(regenerate, async () => await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const current = await tx.articles.findById(id)
      if (current === null) throw new NotFoundError('Article')
      const changes: ArticleChanges = {}
      if (text.title !== undefined) changes.title = text.title
      if (text.body !== undefined) changes.body = text.body
      if (patch.category !== undefined || patch.collection !== undefined) {
        const place = await placement(tx, patch.category, patch.collection ?? current.collection_id)
        changes.category_id = place.category_id
        if (place.collection_id !== current.collection_id) {
          changes.collection_id = place.collection_id
          changes.order = await tx.articles.nextOrder(place.collection_id)
        }
      }
      if (text.slug !== undefined) changes.slug = await claimSlug(tx, text.slug, id)
      else if (regenerate) changes.slug = await freeSlug(tx, text.title ?? current.title, id)
      if (patch.status !== undefined) {
        changes.published_at = patch.status === 'published' ? current.published_at ?? nowString(this.ctx) : null
      }
      const updated = await tx.articles.update(id, changes)
      if (updated === null) throw new NotFoundError('Article')
      if (text.tags !== undefined) await tx.articles.setTags(id, text.tags)
      const published = current.published_at === null && updated.published_at !== null
      await this.ctx.events.emit(tx, {
        type: published ? ArticleEventType.ArticlePublished : ArticleEventType.ArticleUpdated, actor_id: actorIdOf(actor), article: updated
      } satisfies ArticleEvent)
      return updated
    }))
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    ensureCanManageArticles(actor)
    await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const article = await tx.articles.findById(id)
      if (article === null || !await tx.articles.delete(id)) throw new NotFoundError('Article')
      await this.ctx.events.emit(tx, { type: ArticleEventType.ArticleDeleted, actor_id: actorIdOf(actor), article } satisfies ArticleEvent)
    })
  }

  /**
   * Reorders articles of one collection: a plain list (positions 1, 2, 3...)
   * or a map position -> id. Unknown ids are 422 on `order.N`; ids from
   * several collections are 422 on `order`, and nothing changes.
   */
  async order (actor: ActorInput, order: number[] | Record<string, number>): Promise<void> {
    ensureCanManageArticles(actor)
    const positions = positionsFromOrder(order)
    await this.ctx.store.transaction(async (tx) => {
      const articles = await tx.articles.findMany([...positions.keys()])
      throwIfInvalid(unknownOrderErrors(order, articles.map((a) => a.id), 'The selected article is invalid.'))
      if (new Set(articles.map((a) => a.collection_id)).size > 1) {
        throw ValidationError.field('order', 'All articles must belong to the same collection.')
      }
      await tx.articles.setOrder(positions)
    })
  }
}
