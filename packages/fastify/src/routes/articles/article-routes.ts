import type { FastifyRequest } from 'fastify'
import { articleList, type Article as ArticleEntity } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse, viewQueryFrom } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  Article, ArticleCreate, ArticleUpdate, Data, IdParams, listQuerystring, OrderBody, Paged, presentArticle, responses, Success, viewQuerystring
} from '@helpdesk/shapes'

/** Knowledge-base articles: read within the caller's visibility (anonymous too); edited with `manage_articles`. */
export function articleRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  const tags = ['Articles']
  const articles = helpdesk.articles
  const present = (request: FastifyRequest) => (article: ArticleEntity) => presentArticle(article, avatar, request.actor)
  const optional = { auth: 'optional' as const }

  app.get('/articles', {
    config: optional,
    schema: { tags, summary: 'List the articles the caller may read', querystring: listQuerystring(articleList), response: responses({ 200: Paged(Article) }) }
  }, async (request) => pagedResponse(request, await articles.list(request.actor, listQueryFrom(request, articleList)), present(request)))

  app.get('/articles/:id', {
    config: optional,
    schema: { tags, summary: 'View an article', params: IdParams, querystring: viewQuerystring(articleList), response: responses({ 200: Data(Article) }) }
  }, async (request) => ({ data: present(request)(await articles.view(request.actor, request.params.id, viewQueryFrom(request, articleList))) }))

  app.post('/articles', {
    schema: { tags, summary: 'Create an article', body: ArticleCreate, response: responses({ 201: Data(Article) }) }
  }, async (request, reply) => {
    return await reply.code(201).send({ data: present(request)(await articles.create(actorOf(request), request.body)) })
  })

  app.post('/articles/order', {
    schema: {
      tags,
      summary: 'Reorder articles of one collection',
      description: 'All ids must belong to the same collection (422 on `order` otherwise, and nothing changes).',
      body: OrderBody,
      response: responses({ 200: Success })
    }
  }, async (request) => {
    await articles.order(actorOf(request), request.body.order)
    return { success: true as const }
  })

  app.route({
    method: ['PATCH', 'POST'],
    url: '/articles/:id',
    schema: { tags, summary: 'Update an article (partial)', params: IdParams, body: ArticleUpdate, response: responses({ 200: Data(Article) }) },
    handler: async (request) => ({ data: present(request)(await articles.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/articles/:id', {
    schema: { tags, summary: 'Delete an article', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await articles.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })
}
