import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { DomainEvent } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { notificationsOf, notificationTypes } from './notification-fixtures.js'
import { desk, postTicket } from './ticket-fixtures.js'

type Person = Awaited<ReturnType<TestApp['user']>>

async function comment (h: TestApp, who: Person, ticketId: number, payload: Record<string, unknown>): Promise<any> {
  return expectStatus(await h.inject({
    method: 'POST', url: `/api/v1/tickets/${ticketId}/comments`, token: who.token, payload: { type: 1, private: false, ...payload }
  }), 201).data
}

/** End to end: ticket and comment routes raise the events, the notifications resource shows them. */
eachDialect((dialect) => {
  describe(`ticket notifications on ${dialect}`, () => {
    it('a customer\'s reply notifies the assigned agent and not the customer', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, agent, alice, billing } = await desk(h)
      const colleague = await h.user('agent')
      const ticket = await postTicket(h, alice.token, { category: billing })
      assert.deepEqual(await notificationTypes(h, alice.token), [])
      assert.deepEqual(await notificationTypes(h, admin.token), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(h, agent.token), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(h, colleague.token), [], 'not an agent of the category')
      const [created] = await notificationsOf(h, agent.token)
      assert.deepEqual(created?.data.ticket, { id: ticket.id, title: ticket.title })
      assert.equal(created?.author.id, alice.user.id)

      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id}/agents`, token: admin.token, payload: { agent: colleague.user.id } }), 200)
      assert.deepEqual(await notificationTypes(h, colleague.token), ['Tickets.TicketAssigned'])

      const reply = await comment(h, alice, ticket.id, { body: 'Any news?' })
      assert.deepEqual(await notificationTypes(h, colleague.token), ['Tickets.CommentAdded', 'Tickets.TicketAssigned'])
      assert.deepEqual(await notificationTypes(h, alice.token), [])
      assert.equal((await notificationTypes(h, agent.token)).length, 1, 'the category\'s agents are not told once someone is assigned')
      const [added] = await notificationsOf(h, colleague.token)
      assert.deepEqual(added?.data.comment, { id: reply.id, preview: 'Any news?' })
    })

    it('new_comment = false suppresses CommentAdded; closing still notifies', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, agent, alice, billing } = await desk(h)
      const ticket = await postTicket(h, alice.token, { category: billing })
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id}/agents`, token: admin.token, payload: { agent: agent.user.id } }), 200)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.user.id}/notifications`, token: admin.token, payload: { new_comment: false } }), 200)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${alice.user.id}/notifications`, token: admin.token, payload: { new_comment: false } }), 200)
      const before = (await notificationTypes(h, agent.token)).length

      await comment(h, alice, ticket.id, { body: 'Hello again' })
      assert.equal((await notificationTypes(h, agent.token)).length, before)
      await comment(h, agent, ticket.id, { body: 'We are on it', close: true })
      assert.deepEqual(await notificationTypes(h, alice.token), ['Tickets.TicketClosedByAgent'])
    })

    it('staff raising a ticket for a customer: TicketCreatedByAgent for the owner; deleting the ticket deletes its notifications', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, agent, alice, billing } = await desk(h)
      const ticket = await postTicket(h, agent.token, { category: billing, customer_id: alice.user.id })
      assert.deepEqual(await notificationTypes(h, alice.token), ['Tickets.TicketCreatedByAgent'])
      assert.deepEqual(await notificationTypes(h, admin.token), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(h, agent.token), [])
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticket.id}`, token: admin.token }), 200)
      assert.deepEqual(await notificationTypes(h, alice.token), [])
      assert.deepEqual(await notificationTypes(h, admin.token), [])
    })

    it('a ticket creation that rolls back leaves no ticket, no notification, and reaches no subscriber', async (t) => {
      const seen: DomainEvent[] = []
      const h = await buildApp(t, dialect, { onEvent: (event) => { seen.push(event) } })
      const { admin, alice, billing } = await desk(h)
      await new Promise((resolve) => setImmediate(resolve))
      seen.length = 0 // the desk's Customers.CustomerCreated
      // A later step of the same transaction fails (here: a recorder that crashes after the notifications were written).
      let crash = true
      h.helpdesk.events.record(async (_tx, event) => {
        if (crash && event.type === 'Tickets.TicketCreated') throw new Error('disk full')
      })
      const failed = await h.inject({ method: 'POST', url: '/api/v1/tickets', token: alice.token, payload: { category: billing, title: 'Lost', body: 'Never saved' } })
      assert.equal(failed.statusCode, 500)
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(await notificationTypes(h, admin.token), [])
      assert.equal(Number((await h.store.knex('tickets').count({ n: '*' }).first())?.n), 0)
      assert.equal(seen.length, 0)

      crash = false
      await postTicket(h, alice.token, { category: billing })
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(await notificationTypes(h, admin.token), ['Tickets.TicketCreated'])
      assert.deepEqual(seen.map((e) => e.type), ['Tickets.TicketCreated'])
    })
  })
})
