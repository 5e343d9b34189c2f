import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { AgentAvailability, AgentAvailabilityUpdate, CategoryAssignment, CategoryAssignmentUpdate, Data, IdParams, responses } from '@helpdesk/shapes'
import { requirePerson } from '@helpdesk/core'

/** Assignment rules per category (administrators) and the agents' away switch. */
export function assignmentRuleRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Assignment']
  const assignment = helpdesk.assignment

  app.get('/categories/:id/assignment', {
    schema: { tags, summary: 'View a category\'s assignment rule (administrators)', params: IdParams, response: responses({ 200: Data(CategoryAssignment) }) }
  }, async (request) => ({ data: await assignment.view(actorOf(request), request.params.id) }))

  app.put('/categories/:id/assignment', {
    schema: { tags, summary: 'Set a category\'s assignment rule (administrators; audited)', params: IdParams, body: CategoryAssignmentUpdate, response: responses({ 200: Data(CategoryAssignment) }) }
  }, async (request) => ({ data: await assignment.setMode(actorOf(request), request.params.id, request.body.mode) }))

  app.get('/agents/:id/availability', {
    schema: { tags, summary: 'Whether an agent is available or away (staff)', params: IdParams, response: responses({ 200: Data(AgentAvailability) }) }
  }, async (request) => ({ data: await assignment.availability(actorOf(request), request.params.id) }))

  app.put('/agents/:id/availability', {
    schema: {
      tags,
      summary: 'Switch an agent away or back (the agent, or administrators)',
      description: 'Going away hands the agent\'s open and pending tickets in categories with an assignment rule to the next available agent by that rule.',
      params: IdParams,
      body: AgentAvailabilityUpdate,
      response: responses({ 200: Data(AgentAvailability) })
    }
  }, async (request) => ({ data: await assignment.setAvailable(actorOf(request), request.params.id, request.body.available) }))

  app.get('/auth/me/availability', {
    schema: { tags, summary: 'Whether the caller (staff) is available or away', response: responses({ 200: Data(AgentAvailability) }) }
  }, async (request) => {
    const actor = requirePerson(actorOf(request))
    return { data: await assignment.availability(actor, actor.id) }
  })

  app.put('/auth/me/availability', {
    schema: { tags, summary: 'Switch oneself away or back (staff): the console\'s away switch', body: AgentAvailabilityUpdate, response: responses({ 200: Data(AgentAvailability) }) }
  }, async (request) => {
    const actor = requirePerson(actorOf(request))
    return { data: await assignment.setAvailable(actor, actor.id, request.body.available) }
  })
}
