import { draftList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Data, Draft, DraftSave, listQuerystring, Nullable, Paged, presentDraft, responses, Success, TicketCommentsParams } from '@helpdesk/shapes'

/** Drafts: each person's own unsent reply or note per ticket (issue 35). Customers keep drafts of replies on their own tickets. */
export function draftRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Drafts']
  const drafts = helpdesk.drafts

  app.get('/drafts', {
    schema: {
      tags,
      summary: 'The caller\'s own drafts (newest first), on tickets they can still see',
      querystring: listQuerystring(draftList),
      response: responses({ 200: Paged(Draft) })
    }
  }, async (request) => pagedResponse(request, await drafts.list(actorOf(request), listQueryFrom(request, draftList)), presentDraft))

  app.get('/tickets/:ticket_id/draft', {
    schema: {
      tags,
      summary: 'The caller\'s draft on a ticket, or `data: null` when they keep none',
      description: 'A draft is seen by its author alone; a ticket the caller cannot see is 404.',
      params: TicketCommentsParams,
      response: responses({ 200: Data(Nullable(Draft)) })
    }
  }, async (request) => {
    const draft = await drafts.find(actorOf(request), request.params.ticket_id)
    return { data: draft === null ? null : presentDraft(draft) }
  })

  app.put('/tickets/:ticket_id/draft', {
    schema: {
      tags,
      summary: 'Save the caller\'s draft on a ticket (creates or replaces it)',
      description: 'The body is checked and sanitised as a comment\'s but may be empty; `attachments` are the caller\'s own unlinked uploads ' +
        '(kept from pruning while the draft holds them). The type must be one the caller may send (403 otherwise). Sending a comment on ' +
        'the ticket deletes the draft in the same transaction.',
      params: TicketCommentsParams,
      body: DraftSave,
      response: responses({ 200: Data(Draft) })
    }
  }, async (request) => ({ data: presentDraft(await drafts.save(actorOf(request), request.params.ticket_id, request.body)) }))

  app.delete('/tickets/:ticket_id/draft', {
    schema: {
      tags,
      summary: 'Discard the caller\'s draft on a ticket (none is no error)',
      description: 'Its uploads stay, unlinked, and are pruned as any unlinked upload.',
      params: TicketCommentsParams,
      response: responses({ 200: Success })
    }
  }, async (request) => {
    await drafts.discard(actorOf(request), request.params.ticket_id)
    return { success: true as const }
  })
}
