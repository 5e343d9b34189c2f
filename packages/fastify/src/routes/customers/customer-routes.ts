import { customerList, customerNoteList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { notificationSettingsRoutes } from '../people.js'
import { listQueryFrom, pagedResponse, viewQueryFrom } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  Customer, CustomerCreate, CustomerUpdate, Data, IdParams, listQuerystring, Note, NoteCreate, NoteParams, Paged, presentCustomer, presentNote, responses, Success, viewQuerystring
} from '@helpdesk/shapes'

export function customerRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  const tags = ['Customers']
  const customers = helpdesk.customers
  const present = (c: Parameters<typeof presentCustomer>[0]) => presentCustomer(c, avatar)

  app.get('/customers', {
    schema: { tags, summary: 'List customers', querystring: listQuerystring(customerList), response: responses({ 200: Paged(Customer) }) }
  }, async (request) => {
    const page = await customers.list(actorOf(request), listQueryFrom(request, customerList))
    return pagedResponse(request, page, present)
  })

  app.get('/customers/:id', {
    schema: { tags, summary: 'View a customer', params: IdParams, querystring: viewQuerystring(customerList), response: responses({ 200: Data(Customer) }) }
  }, async (request) => {
    return { data: present(await customers.view(actorOf(request), request.params.id, viewQueryFrom(request, customerList))) }
  })

  app.post('/customers', {
    schema: { tags, summary: 'Create a customer', body: CustomerCreate, response: responses({ 201: Data(Customer) }) }
  }, async (request, reply) => {
    const customer = await customers.create(actorOf(request), request.body)
    return await reply.code(201).send({ data: present(customer) })
  })

  app.route({
    method: ['PATCH', 'POST'],
    url: '/customers/:id',
    schema: { tags, summary: 'Update a customer (partial)', params: IdParams, body: CustomerUpdate, response: responses({ 200: Data(Customer) }) },
    handler: async (request) => ({ data: present(await customers.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/customers/:id', {
    schema: { tags, summary: 'Delete a customer', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await customers.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })

  notificationSettingsRoutes(app, '/customers', tags, 'a customer', customers)

  app.get('/customers/:id/notes', {
    schema: { tags, summary: 'Notes about a customer', params: IdParams, querystring: listQuerystring(customerNoteList), response: responses({ 200: Paged(Note) }) }
  }, async (request) => {
    const page = await customers.listNotes(actorOf(request), request.params.id, listQueryFrom(request, customerNoteList))
    return pagedResponse(request, page, (n) => presentNote(n, avatar, request.actor))
  })

  app.post('/customers/:id/notes', {
    schema: { tags, summary: 'Add a note about a customer', params: IdParams, body: NoteCreate, response: responses({ 201: Data(Note) }) }
  }, async (request, reply) => {
    const note = await customers.addNote(actorOf(request), request.params.id, request.body.note)
    return await reply.code(201).send({ data: presentNote(note, avatar, request.actor) })
  })

  app.delete('/customers/:customer_id/notes/:note_id', {
    schema: { tags, summary: 'Delete a note', params: NoteParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await customers.deleteNote(actorOf(request), request.params.customer_id, request.params.note_id)
    return { success: true as const }
  })

}
