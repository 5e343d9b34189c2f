import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { CollectionVisibility } from '@helpdesk/core'
import type { ResolvedWebOptions } from '../options.js'
import { KB_ASSETS_DIR } from '../paths.js'
import {
  articlePage, collectionPage, collectionPath, collectionsPage, layout, notFoundPage, searchPage, sitemap, type Page, type PageContext
} from './pages.js'
import { KnowledgeBaseReader, readerOf } from './reader.js'

const SEARCH_MAX = 200

/**
 * The public knowledge base as server-rendered pages: they work without
 * JavaScript and are indexable. Each page reads as the signed-in reader (the
 * API decides who that is), with the API's visibility rule and no drafts.
 */
export function installKnowledgeBasePages (app: FastifyInstance, options: ResolvedWebOptions): void {
  const { base } = options
  const stylesheet = readFileSync(join(KB_ASSETS_DIR, 'kb.css'))

  const originOf = (request: FastifyRequest): string => options.baseUrl ?? `${request.protocol}://${request.host}`

  async function contextOf (request: FastifyRequest): Promise<{ ctx: PageContext, reader: KnowledgeBaseReader }> {
    const actor = await readerOf(app, options.apiPrefix, request)
    return {
      ctx: { site: options.title, base, origin: originOf(request), reader: actor },
      reader: await KnowledgeBaseReader.for(app.helpdesk, actor)
    }
  }

  function send (reply: FastifyReply, ctx: PageContext, page: Page, status = 200): FastifyReply {
    // Pages depend on who reads: caches must not share a signed-in reader's page.
    return reply.code(status).header('cache-control', 'private, no-cache').header('vary', 'Cookie')
      .type('text/html; charset=utf-8').send(layout(ctx, page))
  }

  app.get(`${base}/kb/static/kb.css`, async (_request, reply) =>
    await reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(stylesheet))

  app.get(`${base}/kb`, async (request, reply) => {
    const { ctx, reader } = await contextOf(request)
    return send(reply, ctx, collectionsPage(ctx, await reader.collections()))
  })

  app.get(`${base}/kb/:collection`, async (request, reply) => {
    const { ctx, reader } = await contextOf(request)
    const match = /^(\d{1,9})(?:-[a-z0-9-]*)?$/.exec((request.params as { collection: string }).collection)
    const collection = match === null ? null : await reader.collection(Number(match[1]))
    if (collection === null) return send(reply, ctx, notFoundPage(ctx), 404)
    const canonical = collectionPath(collection)
    if (request.url.split('?')[0] !== `${base}${canonical}`) return await reply.redirect(`${base}${canonical}`, 301)
    return send(reply, ctx, collectionPage(ctx, collection, await reader.articlesOf(collection.id)))
  })

  app.get(`${base}/kb/articles/:slug`, async (request, reply) => {
    const { ctx, reader } = await contextOf(request)
    const slug = (request.params as { slug: string }).slug
    const article = /^[a-z0-9-]{1,200}$/.test(slug) ? await reader.articleBySlug(slug) : null
    if (article === null) return send(reply, ctx, notFoundPage(ctx), 404)
    return send(reply, ctx, articlePage(ctx, article, article.collection ?? null))
  })

  app.get(`${base}/kb/search`, async (request, reply) => {
    const { ctx, reader } = await contextOf(request)
    const raw = (request.query as { q?: unknown }).q
    const q = (typeof raw === 'string' ? raw : '').trim().slice(0, SEARCH_MAX)
    return send(reply, ctx, searchPage(ctx, q, q === '' ? [] : await reader.search(q)))
  })

  app.get(`${base}/kb/*`, async (request, reply) => {
    const { ctx } = await contextOf(request)
    return send(reply, ctx, notFoundPage(ctx), 404)
  })

  // What anybody may read: the anonymous reader's view, whoever asks.
  app.get(`${base}/sitemap.xml`, async (request, reply) => {
    const reader = await KnowledgeBaseReader.for(app.helpdesk, null)
    const collections = (await reader.collections()).filter((c) => c.visibility === CollectionVisibility.Public)
    const xml = sitemap(originOf(request), base, collections, await reader.allArticles())
    return await reply.header('cache-control', 'public, max-age=600').type('application/xml; charset=utf-8').send(xml)
  })
}
