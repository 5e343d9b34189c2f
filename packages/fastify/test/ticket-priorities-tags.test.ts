import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { TicketEventType, type TicketUpdatedEvent } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk, idsOf, postTicket, recordEvents, settle } from './ticket-fixtures.js'

async function list (h: TestApp, token: string, query: string): Promise<any[]> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets${query}`, token }), 200).data
}

eachDialect((dialect) => {
  describe(`ticket priorities and tags on ${dialect}`, () => {
    it('creates tickets with a priority (normal by default) and tags, shown by the tags include', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const plain = await postTicket(h, d.alice.token, { category: d.billing })
      assert.equal(plain.priority, 'normal')
      const tagged = await postTicket(h, d.admin.token, { category: d.billing, customer_id: d.alice.user.id, priority: 'urgent', tags: [' Refund ', 'billing', 'refund'] })
      assert.equal(tagged.priority, 'urgent')
      const viewed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${tagged.id}?include=tags`, token: d.admin.token }), 200).data
      assert.deepEqual(viewed.tags.map((tag: { name: string }) => tag.name), ['billing', 'refund'])
      // Without the include, no tags key.
      const bare = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${tagged.id}`, token: d.admin.token }), 200).data
      assert.equal('tags' in bare, false)
    })

    it('updates priority and tags by PATCH, emitting the ticket-updated event with the changed fields', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const events = recordEvents(h)
      const updated = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.agent.token, payload: { priority: 'high', tags: ['vip', 'billing'] } }), 200).data
      assert.equal(updated.priority, 'high')
      await settle()
      const changed = events.filter((e) => e.type === TicketEventType.TicketUpdated) as TicketUpdatedEvent[]
      assert.equal(changed.length, 1)
      const event = changed[0] as TicketUpdatedEvent
      assert.deepEqual([...event.changes].sort(), ['priority', 'tags'])
      assert.deepEqual((event.ticket as unknown as { tags: Array<{ name: string }> }).tags.map((tag) => tag.name), ['billing', 'vip'])
      // The same tags again change nothing: no event.
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.agent.token, payload: { tags: ['billing', 'VIP'] } }), 200)
      await settle()
      assert.equal(events.filter((e) => e.type === TicketEventType.TicketUpdated).length, 1)
      // Removing one.
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.agent.token, payload: { tags: ['vip'] } }), 200)
      const viewed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}?include=tags`, token: d.agent.token }), 200).data
      assert.deepEqual(viewed.tags.map((tag: { name: string }) => tag.name), ['vip'])
      // The webhook/event log payload presents the ticket with its priority and tags.
      const logged = await h.store.eventLog.after(0, 100)
      const last = logged.filter((e) => e.type === TicketEventType.TicketUpdated).at(-1)
      assert.equal((last?.payload.ticket as { priority: string } | undefined)?.priority, 'high')
    })

    it('refuses priority and tags from customers (403) and bad values (422)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      expectError(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.alice.token, payload: { category: d.billing, title: 'x', body: 'y', priority: 'urgent' } }), 403)
      expectError(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.alice.token, payload: { category: d.billing, title: 'x', body: 'y', tags: ['me'] } }), 403)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, private: false })
      expectError(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, payload: { priority: 'urgent' } }), 403)
      expectError(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, payload: { tags: ['x'] } }), 403)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[tags]=x', token: d.alice.token }), 403)
      expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.admin.token, payload: { tags: ['ok', '#bad'] } }), 'tags.1')
      expectError(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.admin.token, payload: { priority: 'asap' } }), 422)
      // A customer reading a tagged ticket sees no tags.
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.admin.token, payload: { tags: ['angry'] } }), 200)
      const asAlice = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}?include=tags`, token: d.alice.token }), 200).data
      assert.deepEqual(asAlice.tags, [])
      assert.equal(asAlice.priority, 'normal')
    })

    it('filters by priority and tags and sorts by priority rank', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const make = async (priority: string, tags: string[]) => await postTicket(h, d.admin.token, { category: d.billing, customer_id: d.alice.user.id, priority, tags })
      const low = await make('low', ['a'])
      const urgent = await make('urgent', ['b'])
      const normal = await make('normal', [])
      const high = await make('high', ['a', 'b'])
      assert.deepEqual(idsOf(await list(h, d.admin.token, '?sort=priority')), idsOf([low, normal, high, urgent]))
      assert.deepEqual(idsOf(await list(h, d.admin.token, '?sort=-priority')), idsOf([urgent, high, normal, low]))
      assert.deepEqual(idsOf(await list(h, d.admin.token, '?filter[priority]=high,urgent')), idsOf([urgent, high]))
      assert.deepEqual(idsOf(await list(h, d.admin.token, '?filter[tags]=a')), idsOf([low, high]))
      assert.deepEqual(idsOf(await list(h, d.admin.token, '?filter[tags]=b,zzz&filter[priority]=urgent')), idsOf([urgent]))
      const page = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[tags]=a', token: d.admin.token }), 200)
      assert.equal(page.meta.total, 2)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[priority]=asap', token: d.admin.token }), 422)
      // Cursor pages along the priority sort.
      const first = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?sort=-priority&per_page=2&cursor=', token: d.admin.token }), 200)
      assert.deepEqual(idsOf(first.data), idsOf([urgent, high]))
    })

    it('loads the tags of a page in one query, whatever the page size', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      for (let i = 0; i < 30; i++) await postTicket(h, d.admin.token, { category: d.billing, customer_id: d.alice.user.id, tags: [`t${i % 3}`, 'common'] })
      const page = async (perPage: number) => await list(h, d.admin.token, `?include=tags&per_page=${perPage}`)
      const small = await h.countQueries(async () => await page(5))
      const large = await h.countQueries(async () => await page(30))
      assert.equal(large.result.length, 30)
      assert.ok(large.result.every((ticket) => ticket.tags.length === 2))
      assert.equal(large.queries, small.queries)
    })
  })
})
