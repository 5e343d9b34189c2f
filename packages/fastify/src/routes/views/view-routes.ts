import { viewList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Data, IdParams, listQuerystring, Paged, presentView, responses, Success, View, ViewCreate, ViewUpdate } from '@helpdesk/shapes'

/** Views of the ticket list: staff; built-in ones for all, shared ones managed by their owner and administrators, private ones by their owner. */
export function viewRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Views']
  const views = helpdesk.views

  app.get('/views', {
    schema: {
      tags,
      summary: 'List the views the caller may use (built-in, shared and their own)',
      description: '`include=count` adds each view\'s ticket count in the caller\'s ticket scope (one count per view of the page).',
      querystring: listQuerystring(viewList),
      response: responses({ 200: Paged(View) })
    }
  }, async (request) => pagedResponse(request, await views.list(actorOf(request), listQueryFrom(request, viewList)), presentView))

  app.get('/views/:id', {
    schema: { tags, summary: 'View a view', params: IdParams, response: responses({ 200: Data(View) }) }
  }, async (request) => ({ data: presentView(await views.view(actorOf(request), request.params.id)) }))

  app.post('/views', {
    schema: {
      tags,
      summary: 'Save a view of the ticket list (private, or shared with the team)',
      description: '`filters` and `sort` are checked as `GET /tickets` checks them, reported as 422 on `filters.NAME` and `sort`.',
      body: ViewCreate,
      response: responses({ 201: Data(View) })
    }
  }, async (request, reply) => {
    return await reply.code(201).send({ data: presentView(await views.create(actorOf(request), request.body)) })
  })

  app.route({
    method: ['PATCH', 'POST'],
    url: '/views/:id',
    schema: {
      tags,
      summary: 'Rename, re-share or change a view (partial; shared: its owner and administrators, private: its owner)',
      params: IdParams,
      body: ViewUpdate,
      response: responses({ 200: Data(View) })
    },
    handler: async (request) => ({ data: presentView(await views.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/views/:id', {
    schema: { tags, summary: 'Delete a view (shared: its owner and administrators, private: its owner)', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await views.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })
}
