import { collectionList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse, viewQueryFrom } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  CategoryBody, Collection, CollectionCreate, CollectionUpdate, Data, IdParams, listQuerystring, OrderBody, Paged, presentCollection, responses, Success, viewQuerystring, VisibilityBody
} from '@helpdesk/shapes'

/** Article collections: read within the caller's visibility (anonymous too); edited with `manage_articles`. */
export function collectionRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Article collections']
  const collections = helpdesk.collections
  const optional = { auth: 'optional' as const }

  app.get('/article-collections', {
    config: optional,
    schema: { tags, summary: 'List the collections the caller may read', querystring: listQuerystring(collectionList), response: responses({ 200: Paged(Collection) }) }
  }, async (request) => pagedResponse(request, await collections.list(request.actor, listQueryFrom(request, collectionList)), presentCollection))

  app.get('/article-collections/:id', {
    config: optional,
    schema: { tags, summary: 'View a collection', params: IdParams, querystring: viewQuerystring(collectionList), response: responses({ 200: Data(Collection) }) }
  }, async (request) => ({ data: presentCollection(await collections.view(request.actor, request.params.id, viewQueryFrom(request, collectionList))) }))

  app.post('/article-collections', {
    schema: { tags, summary: 'Create a collection', body: CollectionCreate, response: responses({ 201: Data(Collection) }) }
  }, async (request, reply) => {
    return await reply.code(201).send({ data: presentCollection(await collections.create(actorOf(request), request.body)) })
  })

  // Static paths: matched before `/article-collections/:id`, whose id is an integer.
  app.post('/article-collections/order', {
    schema: { tags, summary: 'Reorder collections', body: OrderBody, response: responses({ 200: Success }) }
  }, async (request) => {
    await collections.order(actorOf(request), request.body.order)
    return { success: true as const }
  })

  app.post('/article-collections/visibility', {
    schema: { tags, summary: 'Set the visibility of several collections', body: VisibilityBody, response: responses({ 200: Success }) }
  }, async (request) => {
    await collections.setVisibility(actorOf(request), request.body.collections, request.body.visibility)
    return { success: true as const }
  })

  app.post('/article-collections/category', {
    schema: { tags, summary: 'Move several collections to a category', body: CategoryBody, response: responses({ 200: Success }) }
  }, async (request) => {
    await collections.setCategory(actorOf(request), request.body.collections, request.body.category)
    return { success: true as const }
  })

  app.route({
    method: ['POST', 'PATCH'],
    url: '/article-collections/:id',
    schema: { tags, summary: 'Update a collection (partial)', params: IdParams, body: CollectionUpdate, response: responses({ 200: Data(Collection) }) },
    handler: async (request) => ({ data: presentCollection(await collections.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/article-collections/:id', {
    schema: { tags, summary: 'Delete a collection and its articles', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await collections.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })
}
