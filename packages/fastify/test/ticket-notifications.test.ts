import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { DomainEvent } from '@helpdesk/core'
import { buildApp, eachDialect } from './helpers.js'
import { notificationTypes } from './notification-fixtures.js'
import { desk, postTicket } from './ticket-fixtures.js'

/** End to end: a failed request's events leave no notification (recipients: store-knex/test/use-cases-notifications.test.ts). */
eachDialect((dialect) => {
  describe(`ticket notifications on ${dialect}`, () => {
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
