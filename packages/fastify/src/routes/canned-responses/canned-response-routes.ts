import { cannedResponseList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse, viewQueryFrom } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  BulkDeleteBody, CannedResponse, CannedResponseCreate, CannedResponseUpdate, Data, IdParams, listQuerystring, Paged, PlaceholderParams, presentCannedResponse, RenderedResponse, responses, Success, viewQuerystring
} from '@helpdesk/shapes'

/** Canned responses: administrators and agents. */
export function cannedResponseRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Canned responses']
  const canned = helpdesk.cannedResponses

  app.get('/canned-responses', {
    schema: { tags, summary: 'List canned responses (newest first)', querystring: listQuerystring(cannedResponseList), response: responses({ 200: Paged(CannedResponse) }) }
  }, async (request) => pagedResponse(request, await canned.list(actorOf(request), listQueryFrom(request, cannedResponseList)), presentCannedResponse))

  app.get('/canned-responses/:id', {
    schema: { tags, summary: 'View a canned response', params: IdParams, querystring: viewQuerystring(cannedResponseList), response: responses({ 200: Data(CannedResponse) }) }
  }, async (request) => ({ data: presentCannedResponse(await canned.view(actorOf(request), request.params.id, viewQueryFrom(request, cannedResponseList))) }))

  app.post('/canned-responses', {
    schema: { tags, summary: 'Create a canned response', body: CannedResponseCreate, response: responses({ 201: Data(CannedResponse) }) }
  }, async (request, reply) => {
    return await reply.code(201).send({ data: presentCannedResponse(await canned.create(actorOf(request), request.body)) })
  })

  app.route({
    method: ['PATCH', 'POST'],
    url: '/canned-responses/:id',
    schema: { tags, summary: 'Update a canned response (partial; creator or administrator)', params: IdParams, body: CannedResponseUpdate, response: responses({ 200: Data(CannedResponse) }) },
    handler: async (request) => ({ data: presentCannedResponse(await canned.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/canned-responses/:id', {
    schema: { tags, summary: 'Delete a canned response (creator or administrator)', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await canned.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })

  app.delete('/canned-responses', {
    schema: { tags, summary: 'Delete several canned responses', body: BulkDeleteBody, response: responses({ 200: Success }) }
  }, async (request) => {
    await canned.deleteMany(actorOf(request), request.body.responses)
    return { success: true as const }
  })

  app.get('/canned-responses/:id/placeholders/:ticket_id', {
    schema: {
      tags,
      summary: 'Render a canned response for a ticket',
      description: 'Path: `/canned-responses/{canned_response_id}/placeholders/{ticket_id}`.',
      params: PlaceholderParams,
      response: responses({ 200: Data(RenderedResponse) })
    }
  }, async (request) => ({ data: { response: await canned.render(actorOf(request), request.params.id, request.params.ticket_id) } }))
}
