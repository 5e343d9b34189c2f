import { ticketHistoryList } from '@helpdesk/core'
import { listQuerystring, Paged, presentHistoryEntry, responses, TicketHistoryEntry, TicketHistoryParams } from '@helpdesk/shapes'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'

/** `GET /tickets/{id}/history`: every recorded change of a ticket, paged like every list. */
export function historyRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  app.get('/tickets/:id/history', {
    schema: {
      tags: ['History'],
      summary: 'The changes of a ticket: who changed which field, when, through which door',
      description: 'Oldest first. Staff who may see the ticket read every change; the owner reads its public changes (status); anyone else gets 404. ' +
        '`include=user` adds the acting person; `filter[field]` narrows to fields, `filter[created_since]` to changes at or after a time.',
      params: TicketHistoryParams,
      querystring: listQuerystring(ticketHistoryList),
      response: responses({ 200: Paged(TicketHistoryEntry) })
    }
  }, async (request) => {
    const page = await helpdesk.ticketHistory.list(actorOf(request), request.params.id, listQueryFrom(request, ticketHistoryList))
    return pagedResponse(request, page, (entry) => presentHistoryEntry(entry, avatar, request.actor))
  })
}
