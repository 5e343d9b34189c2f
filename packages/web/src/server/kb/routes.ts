import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { personOf } from '@helpdesk/core'
import type { ResolvedWebOptions } from '../options.js'
import { KB_ASSETS_DIR } from '../paths.js'
import type { WebLimits } from '../rate-limit.js'
import { KB_CONTENT_SECURITY_POLICY } from '../security-headers.js'
import {
  articlePage, collectionPage, collectionPath, collectionsPage, layout, notFoundPage, searchPage, tooManyRequestsPage, type Page, type PageContext
} from './pages.js'
import { KnowledgeBaseReader, readerOf } from './reader.js'
import { SitemapCache } from './sitemap.js'

const SEARCH_MAX = 200

/**
 * The public knowledge base as server-rendered pages: they work without
 * JavaScript and are indexable. Each page reads as the signed-in reader (the
 * API decides who that is), with the API's visibility rule and no drafts.
 * Canonical links and the sitemap use the configured `baseUrl` only, never
 * the request's Host. Pages and the sitemap count against the client IP's
 * page budget, searches against a budget of their own (`limits`).
 */
export function installKnowledgeBasePages (app: FastifyInstance, options: ResolvedWebOptions, limits: WebLimits): void {
  const { base, baseUrl } = options
  const stylesheet = readFileSync(join(KB_ASSETS_DIR, 'kb.css'))

  async function contextOf (request: FastifyRequest): Promise<{ ctx: PageContext, reader: KnowledgeBaseReader }> {
    const actor = await readerOf(app, options.apiPrefix, request)
    return {
      ctx: { site: options.title, base, origin: baseUrl, reader: personOf(actor) },
      reader: await KnowledgeBaseReader.for(app.helpdesk, actor)
    }
  }

  function send (reply: FastifyReply, ctx: PageContext, page: Page, status = 200): FastifyReply {
    // Pages depend on who reads: caches must not share a signed-in reader's page.
    return reply.code(status).header('cache-control', 'private, no-cache').header('vary', 'Cookie')
      .header('content-security-policy', KB_CONTENT_SECURITY_POLICY)
      .type('text/html; charset=utf-8').send(layout(ctx, page))
  }

  // Past the budget: a page saying when to come back (the status and Retry-After say it to machines).
  const tooMany = (_request: FastifyRequest, reply: FastifyReply, seconds: number): FastifyReply => {
    const ctx: PageContext = { site: options.title, base, origin: baseUrl, reader: null }
    return send(reply, ctx, tooManyRequestsPage(seconds), 429)
  }
  const pageLimit = { onRequest: limits.hook('pages', tooMany) ?? [] }
  const searchLimit = { onRequest: limits.hook('search', tooMany) ?? [] }

  app.get(`${base}/kb/static/kb.css`, async (_request, reply) =>
    await reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(stylesheet))

  app.get(`${base}/kb`, pageLimit, async (request, reply) => {
    const { ctx, reader } = await contextOf(request)
    return send(reply, ctx, collectionsPage(ctx, await reader.collections()))
  })

  app.get(`${base}/kb/:collection`, pageLimit, async (request, reply) => {
    const { ctx, reader } = await contextOf(request)
    const match = /^(\d{1,9})(?:-[a-z0-9-]*)?$/.exec((request.params as { collection: string }).collection)
    const collection = match === null ? null : await reader.collection(Number(match[1]))
    if (collection === null) return send(reply, ctx, notFoundPage(ctx), 404)
    const canonical = collectionPath(collection)
    if (request.url.split('?')[0] !== `${base}${canonical}`) return await reply.redirect(`${base}${canonical}`, 301)
    return send(reply, ctx, collectionPage(ctx, collection, await reader.articlesOf(collection.id)))
  })

  app.get(`${base}/kb/articles/:slug`, pageLimit, async (request, reply) => {
    const { ctx, reader } = await contextOf(request)
    const slug = (request.params as { slug: string }).slug
    const article = /^[a-z0-9-]{1,200}$/.test(slug) ? await reader.articleBySlug(slug) : null
    if (article === null) return send(reply, ctx, notFoundPage(ctx), 404)
    return send(reply, ctx, articlePage(ctx, article, article.collection ?? null))
  })

  app.get(`${base}/kb/search`, searchLimit, async (request, reply) => {
    const { ctx, reader } = await contextOf(request)
    const raw = (request.query as { q?: unknown }).q
    const q = (typeof raw === 'string' ? raw : '').trim().slice(0, SEARCH_MAX)
    return send(reply, ctx, searchPage(ctx, q, q === '' ? [] : await reader.search(q)))
  })

  app.get(`${base}/kb/*`, pageLimit, async (request, reply) => {
    const { ctx } = await contextOf(request)
    return send(reply, ctx, notFoundPage(ctx), 404)
  })

  // Without a configured public URL there is no sitemap: its URLs must be absolute, and the Host header is the client's to choose.
  const sitemaps = baseUrl === null ? null : new SitemapCache(app.helpdesk, baseUrl, base)
  if (sitemaps === null) app.log.warn('@helpdesk/web: no baseUrl: knowledge-base pages have no canonical link and /sitemap.xml answers 404')
  app.get(`${base}/sitemap.xml`, pageLimit, async (request, reply) => {
    if (sitemaps === null) {
      reply.callNotFound()
      return reply
    }
    const sitemap = await sitemaps.get()
    void reply.header('cache-control', 'public, max-age=600').header('etag', sitemap.etag)
    if (request.headers['if-none-match'] === sitemap.etag) return await reply.code(304).send()
    return await reply.type('application/xml; charset=utf-8').send(sitemap.xml)
  })
}
