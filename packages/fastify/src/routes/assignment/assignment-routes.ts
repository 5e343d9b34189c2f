import { Type } from '@sinclair/typebox'
import { AgentCoverage as Coverage, Data, IdParams, Person, presentPerson, responses, Success } from '@helpdesk/shapes'
import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'

/**
 * Assignment (issue 35): whom a ticket may be assigned to, unassigning, and
 * agents covering all categories. The rules are core's (ticket policy); these
 * routes validate and translate.
 */
export function assignmentRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  const tickets = helpdesk.tickets

  app.get('/tickets/:id/assignees', {
    schema: {
      tags: ['Tickets'],
      summary: 'Whom the ticket may be assigned to (administrators, agents with assign_tickets)',
      description: 'The active staff of the ticket\'s category: administrators, agents covering all categories or holding ' +
        '`view_all_tickets`, and the agents of the category, by name.',
      params: IdParams,
      response: responses({ 200: Data(Type.Array(Person)) })
    }
  }, async (request) => ({ data: (await tickets.assignees(actorOf(request), request.params.id)).map((p) => presentPerson(p, avatar)) }))

  app.delete('/tickets/:id/agents', {
    schema: { tags: ['Tickets'], summary: 'Unassign the ticket (administrators, agents with assign_tickets)', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await tickets.unassign(actorOf(request), request.params.id)
    return { success: true as const }
  })

  app.get('/agents/:id/coverage', {
    schema: { tags: ['Agents'], summary: 'Whether an agent covers all categories', params: IdParams, response: responses({ 200: Data(Coverage) }) }
  }, async (request) => ({ data: { all_categories: await helpdesk.agents.allCategories(actorOf(request), request.params.id) } }))

  app.route({
    method: ['PUT', 'PATCH'],
    url: '/agents/:id/coverage',
    schema: {
      tags: ['Agents'],
      summary: 'Mark an agent as covering all categories, present and future (administrators)',
      params: IdParams,
      body: Coverage,
      response: responses({ 200: Data(Coverage) })
    },
    handler: async (request) => ({ data: { all_categories: (await helpdesk.agents.setAllCategories(actorOf(request), request.params.id, request.body.all_categories)).all_categories } })
  })
}
