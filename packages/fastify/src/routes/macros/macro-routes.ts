import { macroList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  ApplyMacroParams, Data, IdParams, listQuerystring, Macro, MacroCreate, MacroUpdate, Paged, presentMacro, presentTicket, responses, Success, Ticket
} from '@helpdesk/shapes'

/** Macros: staff; shared ones managed by administrators, personal ones by their owner. */
export function macroRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  const tags = ['Macros']
  const macros = helpdesk.macros

  app.get('/macros', {
    schema: {
      tags,
      summary: 'List the macros the caller may use (shared ones and their own)',
      querystring: listQuerystring(macroList),
      response: responses({ 200: Paged(Macro) })
    }
  }, async (request) => pagedResponse(request, await macros.list(actorOf(request), listQueryFrom(request, macroList)), presentMacro))

  app.get('/macros/:id', {
    schema: { tags, summary: 'View a macro', params: IdParams, response: responses({ 200: Data(Macro) }) }
  }, async (request) => ({ data: presentMacro(await macros.view(actorOf(request), request.params.id)) }))

  app.post('/macros', {
    schema: {
      tags,
      summary: 'Create a macro (personal: any staff member; shared: administrators)',
      description: 'Actions are validated as rules are (422 keyed `actions.N.field`); a macro may set fields, tags, the assignee, and add a note or a reply.',
      body: MacroCreate,
      response: responses({ 201: Data(Macro) })
    }
  }, async (request, reply) => {
    return await reply.code(201).send({ data: presentMacro(await macros.create(actorOf(request), request.body)) })
  })

  app.route({
    method: ['PATCH', 'POST'],
    url: '/macros/:id',
    schema: { tags, summary: 'Update a macro (partial; shared: administrators, personal: its owner)', params: IdParams, body: MacroUpdate, response: responses({ 200: Data(Macro) }) },
    handler: async (request) => ({ data: presentMacro(await macros.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/macros/:id', {
    schema: { tags, summary: 'Delete a macro (shared: administrators, personal: its owner)', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await macros.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })

  app.post('/tickets/:id/macros/:macro_id', {
    schema: {
      tags,
      summary: 'Apply a macro to a ticket',
      description: 'All the macro\'s actions in one transaction, or none (a failing action writes nothing). Each action needs the caller\'s right to do it ' +
        '(assigning: `assign_tickets`). Notes and replies are written by the caller, placeholders filled. Answers the ticket as the macro left it, with its tags.',
      params: ApplyMacroParams,
      response: responses({ 200: Data(Ticket) })
    }
  }, async (request) => ({ data: presentTicket(await macros.apply(actorOf(request), request.params.id, request.params.macro_id), avatar, request.actor) }))
}
