import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Data, PresenceBeat, PresenceLeaveQuery, presentTicketPresence, responses, Success, TicketPresence, TicketPresenceParams } from '@helpdesk/shapes'

/**
 * Who else is on a ticket (collision detection): staff beat with `PUT` while
 * they view or type, `DELETE` when they leave, each tab with its own
 * `client_id`; others hear of it on the event stream (`presence`). See
 * docs/tickets.md.
 */
export function presenceRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  const tags = ['Presence']

  app.get('/tickets/:id/presence', {
    schema: {
      tags,
      summary: 'Who else is viewing or typing on a ticket (staff)',
      description: 'Customers get 403 (404 for a ticket they cannot see).',
      params: TicketPresenceParams,
      response: responses({ 200: Data(TicketPresence) })
    }
  }, async (request) => ({ data: presentTicketPresence(await helpdesk.presence.list(actorOf(request), request.params.id), avatar) }))

  app.put('/tickets/:id/presence', {
    schema: {
      tags,
      summary: 'Heartbeat: I am viewing or typing on this ticket (staff)',
      description: 'Keeps the caller\'s tab (`client_id`) present for `ttl_seconds` (30); beat every 10-15 s and when typing starts or stops. Answers who else is there.',
      params: TicketPresenceParams,
      body: PresenceBeat,
      response: responses({ 200: Data(TicketPresence) })
    }
  }, async (request) => ({ data: presentTicketPresence(await helpdesk.presence.beat(actorOf(request), request.params.id, request.body.state, request.body.client_id), avatar) }))

  app.delete('/tickets/:id/presence', {
    schema: {
      tags,
      summary: 'I left this ticket, in this tab (staff)',
      description: 'Others see the caller gone at once, unless another of the caller\'s tabs (another `client_id`) is still there; without it, the tab drops out when its last heartbeat expires.',
      params: TicketPresenceParams,
      querystring: PresenceLeaveQuery,
      response: responses({ 200: Success })
    }
  }, async (request) => {
    await helpdesk.presence.leave(actorOf(request), request.params.id, request.query.client_id)
    return { success: true as const }
  })
}
