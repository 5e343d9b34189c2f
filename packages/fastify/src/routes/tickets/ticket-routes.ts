import type { FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import { ticketList, type Ticket as TicketEntity } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse, viewQueryFrom } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  AssignBody, BulkTicketOutcome, BulkTicketRequest, Data, presentBulkTicketOutcome, IdParams, listQuerystring, MergeBody, Paged, presentTicket, responses, SplitBody, Success, Ticket, TicketCreate, TicketUpdate, viewQuerystring
} from '@helpdesk/shapes'

export function ticketRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  const tags = ['Tickets']
  const tickets = helpdesk.tickets
  const present = (request: FastifyRequest) => (ticket: TicketEntity) => presentTicket(ticket, avatar, request.actor)

  app.get('/tickets', {
    schema: {
      tags,
      summary: 'List the tickets the caller may see',
      description: '`filter[search]` matches the ticket id, title, body, purchase code, the owner\'s names, email and marketplace username, and the replies the caller may read (staff: also internal notes).',
      querystring: listQuerystring(ticketList),
      response: responses({ 200: Paged(Ticket) })
    }
  }, async (request) => pagedResponse(request, await tickets.list(actorOf(request), listQueryFrom(request, ticketList)), present(request)))

  app.get('/tickets/:id', {
    schema: { tags, summary: 'View a ticket (records the read)', params: IdParams, querystring: viewQuerystring(ticketList), response: responses({ 200: Data(Ticket) }) }
  }, async (request) => ({ data: present(request)(await tickets.view(actorOf(request), request.params.id, viewQueryFrom(request, ticketList))) }))

  app.post('/tickets', {
    schema: {
      tags,
      summary: 'Create a ticket',
      description: 'A customer\'s ticket is their own. Staff name the owner by `customer_id` (alias `customer`) or `email`; an unknown email ' +
        'creates an Unconfirmed customer. The ticket starts Open, unassigned and private. Required custom fields of the category must be ' +
        'answered in `fields`; `attachments` links the caller\'s own uploads.',
      body: TicketCreate,
      response: responses({ 201: Data(Ticket) })
    }
  }, async (request, reply) => {
    return await reply.code(201).send({ data: present(request)(await tickets.create(actorOf(request), request.body)) })
  })

  app.post('/tickets/bulk', {
    schema: {
      tags,
      summary: 'Apply one action to many tickets (staff)',
      description: 'Assign or unassign, change the status, close, set the priority, add or remove tags, or delete, for up to 100 tickets at once. ' +
        'Each ticket is checked and written on its own, in its own transaction, exactly as its single-ticket route would: a ticket that is ' +
        'missing or invisible to the caller, that the caller may not change, or that fails validation gets an `error` outcome (with the code ' +
        'and message that route would have answered) and the others go on. The answer is 200 with one outcome per id, in request order. ' +
        'Customers get 403; a malformed body (no ids, more than 100, a repeated id, not exactly one action) is a 422 and changes nothing.',
      body: BulkTicketRequest,
      response: responses({ 200: Data(Type.Array(BulkTicketOutcome)) })
    }
  }, async (request) => {
    const outcomes = await tickets.bulk(actorOf(request), request.body)
    const onUnexpected = (error: unknown) => { request.log.error({ err: error }, 'bulk ticket action failed') }
    return { data: outcomes.map((outcome) => presentBulkTicketOutcome(outcome, present(request), onUnexpected)) }
  })

  app.route({
    method: ['POST', 'PATCH'],
    url: '/tickets/:id',
    schema: {
      tags,
      summary: 'Update a ticket (partial)',
      description: 'The owner may change the title and body; staff everything. `PATCH` and `POST` both work.',
      params: IdParams,
      body: TicketUpdate,
      response: responses({ 200: Data(Ticket) })
    },
    handler: async (request) => ({ data: present(request)(await tickets.update(actorOf(request), request.params.id, request.body)) })
  })

  app.put('/tickets/:id/privacy', {
    schema: { tags, summary: 'Make a ticket public', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await tickets.setPrivate(actorOf(request), request.params.id, false)
    return { success: true as const }
  })

  app.delete('/tickets/:id/privacy', {
    schema: { tags, summary: 'Make a ticket private', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await tickets.setPrivate(actorOf(request), request.params.id, true)
    return { success: true as const }
  })

  app.put('/tickets/:id/agents', {
    schema: { tags, summary: 'Assign an agent (administrators, agents with assign_tickets)', params: IdParams, body: AssignBody, response: responses({ 200: Success }) }
  }, async (request) => {
    await tickets.assign(actorOf(request), request.params.id, request.body.agent)
    return { success: true as const }
  })

  app.delete('/tickets/:id', {
    schema: { tags, summary: 'Delete a ticket with its comments and attachments (administrators, agents with delete_tickets)', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await tickets.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })

  const merges = helpdesk.ticketMerges

  app.post('/tickets/:id/merge', {
    schema: {
      tags,
      summary: 'Merge this ticket into another (staff who can see both)',
      description: 'Moves this ticket\'s comments (keeping their privacy; a private ticket\'s public replies become private replies in a public target), ' +
        'its body (as a reply on the target), attachments, mail participants and the custom-field answers the target lacks, in one transaction. ' +
        'This ticket is closed with `merged_into_id`; later replies to it (API or mail) land on the target; a closed target reopens. ' +
        'Tickets of different customers, a ticket into itself, a merged ticket, or into a merged ticket: 422. Returns the target.',
      params: IdParams,
      body: MergeBody,
      response: responses({ 200: Data(Ticket) })
    }
  }, async (request) => ({ data: present(request)(await merges.merge(actorOf(request), request.params.id, request.body)) }))

  app.post('/tickets/:id/unmerge', {
    schema: {
      tags,
      summary: 'Undo the merge of this ticket (within the grace period)',
      description: 'Within `tickets.merge_undo_hours` (default 24) of the merge: the moved comments go back with their attachments and privacy, ' +
        'the target loses the participants and answers it gained, this ticket gets its status back. Replies that landed on the target after the merge stay there. ' +
        'Not merged, or too late: 422. Returns this ticket.',
      params: IdParams,
      response: responses({ 200: Data(Ticket) })
    }
  }, async (request) => ({ data: present(request)(await merges.unmerge(actorOf(request), request.params.id)) }))

  app.post('/tickets/:id/split', {
    schema: {
      tags,
      summary: 'Split comments off into a new ticket (staff)',
      description: 'Moves the chosen comments (with their attachments) to a new ticket of the same customer, category, privacy, priority, assignee and tags, ' +
        'in one transaction. Undo a split by merging the new ticket back. Returns the new ticket.',
      params: IdParams,
      body: SplitBody,
      response: responses({ 201: Data(Ticket) })
    }
  }, async (request, reply) => await reply.code(201).send({ data: present(request)(await merges.split(actorOf(request), request.params.id, request.body)) }))
}
