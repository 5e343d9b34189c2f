import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import {
  anonymous, ForbiddenError, mailSenderActor, parseListQuery, SYSTEM, UnauthenticatedError, webhookDeliveryList,
  type ActorInput, type LoggedEvent
} from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { mailDesk, SUPPORT } from './mail-fixtures.js'
import { desk, postTicket } from './ticket-fixtures.js'

/** The `Customers.CustomerCreated` events in the log: whose email, and by whom. */
async function customersCreated (h: TestApp): Promise<Array<{ email: string, actor_id: number | null, event: LoggedEvent }>> {
  const events = await h.store.eventLog.after(0, 1000)
  return events.filter((e) => e.type === 'Customers.CustomerCreated')
    .map((event) => ({ email: (event.payload.customer as { email: string }).email, actor_id: event.actor_id, event }))
}

eachDialect((dialect) => {
  describe(`actors on ${dialect}`, () => {
    it('nobody signed in is never trusted: what once took null as "a trusted caller" refuses anonymous() and mail senders, and takes SYSTEM', async (t) => {
      const h = await buildApp(t, dialect)
      const { user: agent } = await h.user('agent')
      const category = await h.helpdesk.categories.create(SYSTEM, { name: 'General' })
      const query = { include: [], sort: [], partial: {}, exact: {}, page: 1, perPage: 10 }
      const person = { first_name: 'New', last_name: 'Person', email: 'new@example.com', password: 'secret123', password_confirmation: 'secret123' }
      // Each of these trusted `null` before: an optional-auth route handing its anonymous caller on would have granted it.
      const trustedBefore: Array<[string, (actor: ActorInput) => Promise<unknown>]> = [
        ['categories.create', async (actor) => await h.helpdesk.categories.create(actor, { name: 'Another' })],
        ['categories.list', async (actor) => await h.helpdesk.categories.list(actor, query)],
        ['agents.create', async (actor) => await h.helpdesk.agents.create(actor, { ...person, email: 'agent-new@example.com' })],
        ['agents.setCategories', async (actor) => { await h.helpdesk.agents.setCategories(actor, agent.id, [category.id]) }],
        ['customers.create', async (actor) => await h.helpdesk.customers.create(actor, person)],
        ['customFields.create', async (actor) => await h.helpdesk.customFields.create(actor, { title: 'Order', type: 'text' } as never)],
        ['webhooks.list', async (actor) => await h.helpdesk.webhooks.list(actor)],
        ['webhooks.create', async (actor) => await h.helpdesk.webhooks.create(actor, { url: 'https://hooks.example.com/x', events: ['*'] })]
      ]
      for (const [name, call] of trustedBefore) {
        await assert.rejects(call(anonymous()), (error: unknown) => error instanceof UnauthenticatedError || error instanceof ForbiddenError, `${name}: anonymous`)
        await assert.rejects(call(mailSenderActor('boss@example.com', null, false)), ForbiddenError, `${name}: a mail sender`)
        await assert.rejects(call(null as unknown as ActorInput), TypeError, `${name}: null`)
      }
      for (const [name, call] of trustedBefore) await assert.doesNotReject(call(SYSTEM), name)
      assert.equal((await h.helpdesk.customers.list(SYSTEM, query)).total, 1, 'SYSTEM created exactly the customer, nobody else did')
      // Reading the knowledge base, nobody is the anonymous reader (not staff): drafts stay hidden.
      await assert.rejects(h.helpdesk.articles.create(anonymous(), { title: 'X', body: 'Y', collection: 1 } as never), UnauthenticatedError)
    })

    it('every door that creates a customer emits CustomerCreated in its transaction, naming who did it', async (t) => {
      const d = await mailDesk(t, dialect)
      const { h, admin, agent } = d
      // Staff through the API, and the system (the CLI).
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/customers', token: admin.token, payload: { first_name: 'Via', last_name: 'Api', email: 'api@example.com', password: 'secret123', password_confirmation: 'secret123' } }), 201)
      await h.helpdesk.customers.create(SYSTEM, { first_name: 'Via', last_name: 'Cli', email: 'cli@example.com', password: 'secret123' }, false)
      // Self-registration.
      const registered = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { first_name: 'Self', last_name: 'Made', email: 'self@example.com', password: 'secret123', password_confirmation: 'secret123' } }), 201).data
      // Staff opening a ticket for a new email: the customer before the ticket.
      const ticket = await postTicket(h, agent.token, { category: d.billing, email: 'ticket-owner@example.com', first_name: '<b>Tina</b>', last_name: 'Owner' })
      // A mail from an unknown sender.
      const mailed = await d.post({ from: 'Mia <mia@senders.test>', to: SUPPORT, subject: 'Hello', text: 'From a stranger.', messageId: '<first@senders.test>' })
      assert.equal(mailed.status, 'created')
      // A held mail, released by an administrator as its unknown sender.
      const held = await d.post({ from: 'stranger@senders.test', to: SUPPORT, subject: 'Re: Hello', text: 'Me too.', inReplyTo: '<first@senders.test>' })
      assert.equal(held.status, 'held')
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/mail/inbound/${held.id}/release`, token: admin.token, payload: {} }), 200)
      // An import started by an administrator, and one from the CLI.
      await h.helpdesk.imports.importFile(Readable.from(['{"type":"customer","id":"c1","first_name":"Imp","last_name":"One","email":"imported@example.com"}\n']), { format: 'jsonl', actor: admin.user })
      await h.helpdesk.imports.importFile(Readable.from(['{"type":"customer","id":"c2","first_name":"Imp","last_name":"Two","email":"imported2@example.com"}\n']), { format: 'jsonl' })
      // Bulk creation: one event each.
      await h.helpdesk.customers.createMany(SYSTEM, [
        { first_name: 'Bulk', last_name: 'One', email: 'bulk1@example.com' },
        { first_name: 'Bulk', last_name: 'Two', email: 'bulk2@example.com' }
      ], null)

      const created = await customersCreated(h)
      const byEmail = new Map(created.map((c) => [c.email, c.actor_id]))
      assert.deepEqual(Object.fromEntries(byEmail), {
        [d.alice.user.email]: null,
        [d.bob.user.email]: null,
        'api@example.com': admin.user.id,
        'cli@example.com': null,
        'self@example.com': registered.user.id,
        'ticket-owner@example.com': agent.user.id,
        'mia@senders.test': null,
        'stranger@senders.test': admin.user.id,
        'imported@example.com': admin.user.id,
        'imported2@example.com': null,
        'bulk1@example.com': null,
        'bulk2@example.com': null
      })
      assert.equal(created.length, byEmail.size, 'one event per customer')
      const owner = created.find((c) => c.email === 'ticket-owner@example.com')!
      assert.equal((owner.event.payload.customer as { first_name: string }).first_name, '&lt;b&gt;Tina&lt;/b&gt;', 'the plain-text name rule: kept as typed, never markup')
      const ticketCreated = (await h.store.eventLog.after(0, 1000)).find((e) => e.type === 'Tickets.TicketCreated' && e.ticket_id === ticket.id)!
      assert.ok(owner.event.id < ticketCreated.id, 'the customer is created in the ticket\'s transaction, before it')
      const bulk = created.filter((c) => c.email.startsWith('bulk'))
      assert.deepEqual(bulk.map((c) => c.email), ['bulk1@example.com', 'bulk2@example.com'], 'in input order')
      // Every one of them is a webhook event: a subscribed endpoint gets a delivery for each.
      const { endpoint } = await h.helpdesk.webhooks.create(SYSTEM, { url: 'https://hooks.example.com/x', events: ['Customers.CustomerCreated'] })
      await postTicket(h, agent.token, { category: d.billing, email: 'later@example.com' })
      assert.deepEqual((await h.helpdesk.webhooks.deliveries(SYSTEM, endpoint.id, parseListQuery(webhookDeliveryList, {}))).items.map((delivery) => delivery.event_type), ['Customers.CustomerCreated'])
    })

    it('two staff opening tickets at once for the same new email: one customer, both tickets theirs', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const results = await Promise.all([0, 1, 2, 3].map(async (i) => await h.inject({
        method: 'POST', url: '/api/v1/tickets', token: i % 2 === 0 ? d.agent.token : d.admin.token,
        payload: { title: `Race ${i}`, body: 'Who is first?', category: d.billing, email: 'racer@example.com' }
      })))
      assert.deepEqual(results.map((r) => r.statusCode), [201, 201, 201, 201], results.map((r) => r.body).join('\n'))
      const customer = await h.store.users.findByEmail('racer@example.com')
      assert.ok(customer !== null)
      assert.deepEqual(new Set(results.map((r) => r.json().data.user_id)), new Set([customer.id]))
      assert.equal((await customersCreated(h)).filter((c) => c.email === 'racer@example.com').length, 1)
    })
  })
})
