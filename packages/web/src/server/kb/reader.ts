import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  anonymous, articleList, collectionList, parseListQuery, personActor,
  type ActorInput, type AnonymousActor, type Article, type ArticleCollection, type Category, type Helpdesk, type Page, type PersonActor, type PublishedKnowledgeBase, type RawListQuery
} from '@helpdesk/core'
import type {} from '@helpdesk/fastify'

export type CollectionWithCategory = ArticleCollection & { category?: Category | null }
export type ArticleWithCollection = Article & { collection?: ArticleCollection | null }

/** Search answers at most this many articles (title matches first, then body matches). */
export const SEARCH_LIMIT = 20

/**
 * Who reads the page, decided by the API itself: the request's cookie (the
 * console's session, or a host app's own login) and Authorization header are
 * replayed to `GET <apiPrefix>/auth/session` from the caller's address, so
 * the KB pages and the API always agree. `anonymous()` without those headers.
 * A person reads through the console (its cookie) or the API (a bearer token).
 */
export async function readerOf (app: FastifyInstance, apiPrefix: string, request: FastifyRequest): Promise<PersonActor | AnonymousActor> {
  const { cookie, authorization } = request.headers
  if (cookie === undefined && authorization === undefined) return anonymous()
  const res = await app.inject({
    method: 'GET',
    url: `${apiPrefix}/auth/session`,
    remoteAddress: request.ip,
    headers: { ...(cookie !== undefined ? { cookie } : {}), ...(authorization !== undefined ? { authorization } : {}) }
  })
  if (res.statusCode !== 200) return anonymous()
  const id = (res.json() as { data: { user: { id: number } } }).data.user.id
  const user = await app.helpdesk.auth.findUser({ id })
  return user === null ? anonymous() : personActor(user, authorization !== undefined ? 'api' : 'console', request.ip)
}

/**
 * The knowledge base as a reader sees it on the public pages: the API's
 * visibility rule (core's `articles.publishedFor`), with drafts left out for
 * everybody, staff included: these pages are what the public sees.
 */
export class KnowledgeBaseReader {
  private constructor (private readonly published: PublishedKnowledgeBase) {}

  static async for (helpdesk: Helpdesk, actor: ActorInput): Promise<KnowledgeBaseReader> {
    return new KnowledgeBaseReader(await helpdesk.articles.publishedFor(actor))
  }

  /** Every collection the reader may see (in the console's order), each with its category. */
  async collections (): Promise<CollectionWithCategory[]> {
    const query = parseListQuery(collectionList, { include: 'category', per_page: 100 })
    return (await this.published.collections(query)).items as CollectionWithCategory[]
  }

  async collection (id: number): Promise<ArticleCollection | null> {
    return await this.published.collection(id, parseListQuery(collectionList, {}))
  }

  /** The collection's published articles, in order (the first 100). */
  async articlesOf (collectionId: number): Promise<Article[]> {
    return await this.articles({ filters: { collection: String(collectionId) }, sort: 'order', per_page: 100 })
  }

  async articleBySlug (slug: string): Promise<ArticleWithCollection | null> {
    const [article] = await this.articles({ filters: { slug }, include: 'collection', per_page: 1 })
    return article ?? null
  }

  /** Articles whose title, then whose body, contains the words: two queries whatever the number of hits. */
  async search (text: string): Promise<Article[]> {
    const byTitle = await this.articles({ filters: { title: text }, sort: 'title', per_page: SEARCH_LIMIT })
    const byBody = await this.articles({ filters: { body: text }, sort: 'title', per_page: SEARCH_LIMIT })
    const seen = new Set(byTitle.map((article) => article.id))
    return [...byTitle, ...byBody.filter((article) => !seen.has(article.id))].slice(0, SEARCH_LIMIT)
  }

  /** Every collection the reader may see, in cursor pages of 100 (nothing counted). */
  async allCollections (): Promise<ArticleCollection[]> {
    const all: ArticleCollection[] = []
    let cursor: string | null = ''
    while (cursor !== null) {
      const page: Page<ArticleCollection> = await this.published.collections(parseListQuery(collectionList, { per_page: 100, cursor }))
      all.push(...page.items)
      cursor = page.cursors?.next ?? null
    }
    return all
  }

  /**
   * The collection's readable articles in their order, in cursor pages of 100
   * (nothing counted), at most `limit`: one page in memory at a time, each
   * read along the (collection, order) index.
   */
  async * articlePages (collectionId: number, limit: number): AsyncGenerator<Article[]> {
    let cursor: string | null = ''
    let left = limit
    while (cursor !== null && left > 0) {
      const query = parseListQuery(articleList, { filters: { collection: String(collectionId) }, sort: 'order', per_page: 100, cursor })
      const page: Page<Article> = await this.published.articles(query)
      const items = page.items.slice(0, left)
      left -= items.length
      yield items
      cursor = page.cursors?.next ?? null
    }
  }

  /**
   * How many articles the reader may read and the one changed last (one
   * COUNT and one row): what `SitemapCache` checks before each answer.
   */
  async articleStamp (): Promise<{ total: number, latest: Pick<Article, 'id' | 'slug' | 'updated_at'> | null }> {
    const page = await this.published.articles(parseListQuery(articleList, { sort: '-updated_at', per_page: 1 }))
    const latest = page.items[0]
    return { total: page.total, latest: latest === undefined ? null : { id: latest.id, slug: latest.slug, updated_at: latest.updated_at } }
  }

  private async articles (raw: RawListQuery): Promise<ArticleWithCollection[]> {
    return (await this.published.articles(parseListQuery(articleList, raw))).items as ArticleWithCollection[]
  }
}
