import { customFieldList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse, viewQueryFrom } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  CustomField, CustomFieldCreate, CustomFieldUpdate, Data, IdParams, listQuerystring, Paged, presentCustomField, responses, Success, viewQuerystring
} from '@helpdesk/shapes'

/** Custom ticket-form fields: administrators only. */
export function fieldRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Custom fields']
  const fields = helpdesk.customFields

  app.get('/fields', {
    schema: { tags, summary: 'List custom fields', querystring: listQuerystring(customFieldList), response: responses({ 200: Paged(CustomField) }) }
  }, async (request) => pagedResponse(request, await fields.list(actorOf(request), listQueryFrom(request, customFieldList)), presentCustomField))

  app.get('/fields/:id', {
    schema: { tags, summary: 'View a custom field', params: IdParams, querystring: viewQuerystring(customFieldList), response: responses({ 200: Data(CustomField) }) }
  }, async (request) => ({ data: presentCustomField(await fields.view(actorOf(request), request.params.id, viewQueryFrom(request, customFieldList))) }))

  app.post('/fields', {
    schema: { tags, summary: 'Create a custom field', body: CustomFieldCreate, response: responses({ 201: Data(CustomField) }) }
  }, async (request, reply) => {
    return await reply.code(201).send({ data: presentCustomField(await fields.create(actorOf(request), request.body)) })
  })

  app.route({
    method: ['PATCH', 'POST'],
    url: '/fields/:id',
    schema: { tags, summary: 'Update a custom field (partial)', params: IdParams, body: CustomFieldUpdate, response: responses({ 200: Data(CustomField) }) },
    handler: async (request) => ({ data: presentCustomField(await fields.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/fields/:id', {
    schema: { tags, summary: 'Delete a custom field (and its category assignments)', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await fields.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })
}
