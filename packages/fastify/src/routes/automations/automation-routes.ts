import { automationList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Automation, AutomationCreate, AutomationUpdate, Data, IdParams, listQuerystring, Paged, presentAutomation, responses, Success } from '@helpdesk/shapes'

/** Time-based automations: administrators. */
export function automationRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Automations']
  const automations = helpdesk.automations

  app.get('/automations', {
    schema: { tags, summary: 'List time-based automations (administrators)', querystring: listQuerystring(automationList), response: responses({ 200: Paged(Automation) }) }
  }, async (request) => pagedResponse(request, await automations.list(actorOf(request), listQueryFrom(request, automationList)), presentAutomation))

  app.get('/automations/:id', {
    schema: { tags, summary: 'View an automation', params: IdParams, response: responses({ 200: Data(Automation) }) }
  }, async (request) => ({ data: presentAutomation(await automations.view(actorOf(request), request.params.id)) }))

  app.post('/automations', {
    schema: {
      tags,
      summary: 'Create an automation',
      description: 'The time condition, conditions and actions are validated by the rule language (422 keyed `time_condition.hours`...). Recorded in the audit log.',
      body: AutomationCreate,
      response: responses({ 201: Data(Automation) })
    }
  }, async (request, reply) => await reply.code(201).send({ data: presentAutomation(await automations.create(actorOf(request), request.body)) }))

  app.route({
    method: ['PATCH', 'POST'],
    url: '/automations/:id',
    schema: { tags, summary: 'Update an automation (partial)', params: IdParams, body: AutomationUpdate, response: responses({ 200: Data(Automation) }) },
    handler: async (request) => ({ data: presentAutomation(await automations.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/automations/:id', {
    schema: { tags, summary: 'Delete an automation', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await automations.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })
}
