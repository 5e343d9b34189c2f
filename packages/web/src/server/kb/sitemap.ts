import { createHash } from 'node:crypto'
import { CollectionVisibility, type Helpdesk } from '@helpdesk/core'
import { sitemapXml } from './pages.js'
import { KnowledgeBaseReader, type CollectionWithCategory } from './reader.js'

/**
 * The longest an instance serves a sitemap whose stamp has not moved: it
 * bounds what the stamp can miss (see `SitemapCache`).
 */
export const SITEMAP_MAX_AGE_MS = 60 * 1000

export interface Sitemap {
  xml: string
  /** A strong ETag of the content. */
  etag: string
}

/**
 * `/sitemap.xml`, built at most once per change of what it lists and kept by
 * each instance. Every request reads a stamp from the database, which all
 * instances share: the public collections (at most 100 rows, as the sitemap
 * lists them: id, name, `updated_at`) and, of the readable articles, the
 * count and the one changed last (one COUNT and one row: id, slug,
 * `updated_at`). Publishing, unpublishing, deleting or moving an article out
 * of the public collections changes the count; any other write sets the
 * article's `updated_at` to now, which makes it the one changed last. So a
 * change made through any instance moves the stamp, and the next request
 * rebuilds. What it can miss: `updated_at` counts whole seconds, so when two
 * articles change within the same second, the one that loses the tie for
 * "changed last" (the lower id) hides behind the other; a sitemap is
 * therefore never kept longer than `SITEMAP_MAX_AGE_MS` (60 s; the answer
 * itself may be cached for 600). The build reads the articles in cursor pages
 * of 100, one page in memory at a time; requests that find the same stamp
 * while it runs wait for it instead of building again.
 *
 * Why not a cache shared through Redis: Redis is optional, and the stamp is
 * what keeps instances correct; why not streaming alone: it would still read
 * up to 50,000 rows for every request.
 */
export class SitemapCache {
  private current: { stamp: string, sitemap: Sitemap, builtAt: number } | null = null
  private building: { stamp: string, promise: Promise<Sitemap> } | null = null

  constructor (
    private readonly helpdesk: Helpdesk,
    private readonly origin: string,
    private readonly base: string,
    private readonly now: () => number = Date.now
  ) {}

  async get (): Promise<Sitemap> {
    // What anybody may read: the anonymous reader's view, whoever asks.
    const reader = await KnowledgeBaseReader.for(this.helpdesk, null)
    const collections = (await reader.collections()).filter((c) => c.visibility === CollectionVisibility.Public)
    const articles = await reader.articleStamp()
    const stamp = JSON.stringify([collections.map((c) => [c.id, c.name, c.updated_at]), articles.total, articles.latest])
    const current = this.current
    if (current !== null && current.stamp === stamp && this.now() - current.builtAt < SITEMAP_MAX_AGE_MS) return current.sitemap
    if (this.building !== null && this.building.stamp === stamp) return await this.building.promise
    const builtAt = this.now()
    const promise = this.build(reader, collections)
    this.building = { stamp, promise }
    try {
      const sitemap = await promise
      this.current = { stamp, sitemap, builtAt }
      return sitemap
    } finally {
      if (this.building?.promise === promise) this.building = null
    }
  }

  private async build (reader: KnowledgeBaseReader, collections: CollectionWithCategory[]): Promise<Sitemap> {
    const { origin, base } = this
    const parts = [sitemapXml.head, sitemapXml.entry(origin, base, '/kb'), ...collections.map((c) => sitemapXml.collection(origin, base, c))]
    for await (const page of reader.articlePages()) {
      parts.push(page.map((a) => sitemapXml.article(origin, base, a)).join(''))
    }
    parts.push(sitemapXml.tail)
    const xml = parts.join('')
    return { xml, etag: `"${createHash('sha256').update(xml).digest('base64url').slice(0, 27)}"` }
  }
}
