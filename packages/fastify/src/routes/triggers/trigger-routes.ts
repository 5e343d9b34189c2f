import { triggerList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Data, IdParams, listQuerystring, Paged, presentTrigger, responses, Success, Trigger, TriggerCreate, TriggerDryRunInput, TriggerDryRunResult, TriggerOrder, TriggerUpdate } from '@helpdesk/shapes'
import { Type } from '@sinclair/typebox'

/** Triggers: administrators. */
export function triggerRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Triggers']
  const triggers = helpdesk.triggers

  app.get('/triggers', {
    schema: { tags, summary: 'List triggers (administrators), in their order by default', querystring: listQuerystring(triggerList), response: responses({ 200: Paged(Trigger) }) }
  }, async (request) => pagedResponse(request, await triggers.list(actorOf(request), listQueryFrom(request, triggerList)), presentTrigger))

  app.get('/triggers/:id', {
    schema: { tags, summary: 'View a trigger', params: IdParams, response: responses({ 200: Data(Trigger) }) }
  }, async (request) => ({ data: presentTrigger(await triggers.view(actorOf(request), request.params.id)) }))

  app.post('/triggers', {
    schema: {
      tags,
      summary: 'Create a trigger',
      description: 'Events, conditions and actions are validated by the rule language (422 keyed `conditions.all.N.value`, `actions.N.type`). Recorded in the audit log.',
      body: TriggerCreate,
      response: responses({ 201: Data(Trigger) })
    }
  }, async (request, reply) => await reply.code(201).send({ data: presentTrigger(await triggers.create(actorOf(request), request.body)) }))

  app.post('/triggers/dry-run', {
    schema: {
      tags,
      summary: 'Dry run: which of the latest 50 tickets the conditions match, and what the actions would change',
      description: 'Evaluated as a `ticket.updated` change through the console; nothing is written.',
      body: TriggerDryRunInput,
      response: responses({ 200: Data(TriggerDryRunResult) })
    }
  }, async (request) => ({ data: await triggers.dryRun(actorOf(request), request.body) }))

  app.put('/triggers/order', {
    schema: { tags, summary: 'Reorder triggers', body: TriggerOrder, response: responses({ 200: Data(Type.Array(Trigger)) }) }
  }, async (request) => ({ data: (await triggers.reorder(actorOf(request), request.body.ids)).map(presentTrigger) }))

  app.route({
    method: ['PATCH', 'POST'],
    url: '/triggers/:id',
    schema: { tags, summary: 'Update a trigger (partial)', params: IdParams, body: TriggerUpdate, response: responses({ 200: Data(Trigger) }) },
    handler: async (request) => ({ data: presentTrigger(await triggers.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/triggers/:id', {
    schema: { tags, summary: 'Delete a trigger', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await triggers.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })
}
