import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { desk, postComment, postTicket } from './ticket-fixtures.js'

/** Issue #11 item 9: an internal note does not tell the owner it was written. */
eachDialect((dialect) => {
  describe(`internal notes and updated_at on ${dialect}`, () => {
    it('leaves updated_at, the updated_at sort and filter[updated_since] where they were when staff add a note; a reply moves them', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const first = await postTicket(h, d.alice.token, { category: d.billing, title: 'First' })
      const second = await postTicket(h, d.alice.token, { category: d.billing, title: 'Second' })
      // Both tickets an hour old, the first older: the order and the since filter are then unambiguous.
      await h.store.knex('tickets').where('id', first.id).update({ updated_at: '2020-01-01 10:00:00' })
      await h.store.knex('tickets').where('id', second.id).update({ updated_at: '2020-01-01 11:00:00' })
      const view = async () => {
        const one = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${first.id}`, token: d.alice.token }), 200).data
        const order = (expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?sort=-updated_at', token: d.alice.token }), 200).data as any[]).map((x) => x.id)
        const since = (expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[updated_since]=2021-01-01 00:00:00', token: d.alice.token }), 200).data as any[]).map((x) => x.id)
        return { updated_at: one.updated_at, order, since }
      }
      const before = await view()
      assert.deepEqual(before, { updated_at: '2020-01-01 10:00:00', order: [second.id, first.id], since: [] })
      await postComment(h, d.agent.token, first.id, { type: 2, private: true, body: 'Customer sounded upset.' })
      assert.deepEqual(await view(), before, 'a note leaves no trace the owner can see')
      await postComment(h, d.agent.token, first.id, { type: 1, private: false, body: 'On it.' })
      const after = await view()
      assert.notEqual(after.updated_at, before.updated_at)
      assert.deepEqual([after.order, after.since], [[first.id, second.id], [first.id]])
    })

    it('moves updated_at for a note that closes the ticket (the status change is visible anyway)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      await h.store.knex('tickets').where('id', ticket.id).update({ updated_at: '2020-01-01 10:00:00' })
      await postComment(h, d.agent.token, ticket.id, { type: 2, private: true, body: 'Done.', close: true })
      const seen = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token }), 200).data
      assert.equal(seen.status, 3)
      assert.notEqual(seen.updated_at, '2020-01-01 10:00:00')
    })
  })
})
