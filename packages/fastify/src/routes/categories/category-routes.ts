import { categoryList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse, viewQueryFrom } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  Category, CategoryCreate, CategoryUpdate, Data, IdParams, listQuerystring, OrderBody, Paged, presentCategory, responses, Success, viewQuerystring
} from '@helpdesk/shapes'

export function categoryRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Categories']
  const categories = helpdesk.categories

  app.get('/categories', {
    schema: { tags, summary: 'List categories', querystring: listQuerystring(categoryList), response: responses({ 200: Paged(Category) }) }
  }, async (request) => pagedResponse(request, await categories.list(actorOf(request), listQueryFrom(request, categoryList)), presentCategory))

  app.get('/categories/:id', {
    schema: { tags, summary: 'View a category', params: IdParams, querystring: viewQuerystring(categoryList), response: responses({ 200: Data(Category) }) }
  }, async (request) => ({ data: presentCategory(await categories.view(actorOf(request), request.params.id, viewQueryFrom(request, categoryList))) }))

  app.post('/categories', {
    schema: { tags, summary: 'Create a category', body: CategoryCreate, response: responses({ 201: Data(Category) }) }
  }, async (request, reply) => {
    return await reply.code(201).send({ data: presentCategory(await categories.create(actorOf(request), request.body)) })
  })

  app.post('/categories/order', {
    schema: { tags, summary: 'Reorder categories', body: OrderBody, response: responses({ 200: Success }) }
  }, async (request) => {
    await categories.order(actorOf(request), request.body.order)
    return { success: true as const }
  })

  app.route({
    method: ['PATCH', 'POST', 'PUT'],
    url: '/categories/:id',
    schema: { tags, summary: 'Update a category (partial)', params: IdParams, body: CategoryUpdate, response: responses({ 200: Data(Category) }) },
    handler: async (request) => ({ data: presentCategory(await categories.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/categories/:id', {
    schema: { tags, summary: 'Delete a category (422 while tickets or collections use it)', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await categories.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })
}
