import { createHash } from 'node:crypto'
import { anonymous, CollectionVisibility, type ArticleCollection, type Helpdesk } from '@helpdesk/core'
import { sitemapXml } from './pages.js'
import { KnowledgeBaseReader } from './reader.js'

/** A sitemap file holds at most 50,000 URLs. */
const SITEMAP_MAX = 50_000

/**
 * The longest an instance serves a sitemap whose stamp has not moved (the
 * answer's own `max-age`): it bounds what the stamp can miss (see `SitemapCache`).
 */
export const SITEMAP_MAX_AGE_MS = 10 * 60 * 1000

/** How long an instance trusts the stamp it last read before reading it again. */
export const SITEMAP_STAMP_MS = 5 * 1000

export interface Sitemap {
  xml: string
  /** A strong ETag of the content. */
  etag: string
}

/**
 * `/sitemap.xml`, built at most once per change of what it lists and kept by
 * each instance. Before answering, an instance reads a stamp from the
 * database all instances share (at most every `SITEMAP_STAMP_MS`, 5 s): the
 * public collections (id, name, `updated_at`) and, of the readable articles,
 * the count and the one changed last (one COUNT and one row: id, slug,
 * `updated_at`). Publishing, unpublishing, deleting or moving an article out
 * of the public collections changes the count; any other write sets the
 * article's `updated_at` to now, which makes it the one changed last. So a
 * change made through any instance shows on every instance within 5 s.
 * What the stamp can miss: `updated_at` counts whole seconds, so when two
 * articles change within the same second, the one that loses the tie for
 * "changed last" (the lower id) hides behind the other; a sitemap is
 * therefore rebuilt after `SITEMAP_MAX_AGE_MS` (10 min, the answer's own
 * `max-age`) whatever the stamp says. The build reads each public
 * collection's articles in cursor pages of 100 along the (collection, order)
 * index, one page in memory at a time; requests that find the same stamp
 * while it runs wait for it instead of building again.
 *
 * Why not a cache shared through Redis: Redis is optional, and the stamp is
 * what keeps instances correct; why not streaming alone: it would still read
 * up to 50,000 rows for every request.
 */
export class SitemapCache {
  private current: { stamp: string, sitemap: Sitemap, builtAt: number, checkedAt: number } | null = null
  private building: { stamp: string, promise: Promise<Sitemap> } | null = null

  constructor (
    private readonly helpdesk: Helpdesk,
    private readonly origin: string,
    private readonly base: string,
    private readonly now: () => number = Date.now
  ) {}

  async get (): Promise<Sitemap> {
    const now = this.now()
    const fresh = (entry: NonNullable<typeof this.current>): boolean => now - entry.builtAt < SITEMAP_MAX_AGE_MS
    if (this.current !== null && now - this.current.checkedAt < SITEMAP_STAMP_MS && fresh(this.current)) return this.current.sitemap
    // What anybody may read: the anonymous reader's view, whoever asks.
    const reader = await KnowledgeBaseReader.for(this.helpdesk, anonymous())
    const collections = (await reader.allCollections()).filter((c) => c.visibility === CollectionVisibility.Public)
    const articles = await reader.articleStamp()
    const stamp = JSON.stringify([collections.map((c) => [c.id, c.name, c.updated_at]), articles.total, articles.latest])
    const current = this.current
    if (current !== null && current.stamp === stamp && fresh(current)) {
      current.checkedAt = now
      return current.sitemap
    }
    if (this.building !== null && this.building.stamp === stamp) return await this.building.promise
    const promise = this.build(reader, collections)
    this.building = { stamp, promise }
    try {
      const sitemap = await promise
      this.current = { stamp, sitemap, builtAt: now, checkedAt: now }
      return sitemap
    } finally {
      if (this.building?.promise === promise) this.building = null
    }
  }

  private async build (reader: KnowledgeBaseReader, collections: ArticleCollection[]): Promise<Sitemap> {
    const { origin, base } = this
    const parts = [sitemapXml.head, sitemapXml.entry(origin, base, '/kb'), ...collections.map((c) => sitemapXml.collection(origin, base, c))]
    let left = SITEMAP_MAX - 1 - collections.length
    for (const collection of collections) {
      for await (const page of reader.articlePages(collection.id, left)) {
        left -= page.length
        parts.push(page.map((a) => sitemapXml.article(origin, base, a)).join(''))
      }
    }
    parts.push(sitemapXml.tail)
    const xml = parts.join('')
    return { xml, etag: `"${createHash('sha256').update(xml).digest('base64url').slice(0, 27)}"` }
  }
}
