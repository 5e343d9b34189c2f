import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { TicketImport } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk, grant, idsOf, postComment, postTicket, uploadId, type Desk } from './ticket-fixtures.js'

const ALL_INCLUDES = 'user,creator,attachments,attachments-count,category,agent,last_reply,last_read_by_me,replies-count'

/** Alice's private billing ticket, Bob's private sales ticket, Bob's public sales ticket, Bob's sales ticket assigned to the agent. */
async function fourTickets (h: TestApp, d: Desk) {
  const aliceBilling = await postTicket(h, d.alice.token, { category: d.billing, title: 'Alice billing' })
  const bobSales = await postTicket(h, d.bob.token, { category: d.sales, title: 'Bob sales' })
  const bobPublic = await postTicket(h, d.bob.token, { category: d.sales, title: 'Bob public', private: false })
  const bobAssigned = await postTicket(h, d.bob.token, { category: d.sales, title: 'Bob assigned' })
  await h.helpdesk.tickets.assign(d.admin.user, bobAssigned.id, d.agent.user.id)
  return { aliceBilling, bobSales, bobPublic, bobAssigned }
}

async function listIds (h: TestApp, token: string, query = ''): Promise<number[]> {
  return idsOf(expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets${query}`, token }), 200).data)
}

eachDialect((dialect) => {
  describe(`ticket lists and visibility on ${dialect}`, () => {
    it('shows an agent without view_all_tickets only its categories\' tickets and those assigned to it', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const x = await fourTickets(h, d)
      assert.deepEqual(await listIds(h, d.agent.token), idsOf([x.aliceBilling, x.bobAssigned]))
      for (const hidden of [x.bobSales, x.bobPublic]) {
        expectError(await h.inject({ method: 'GET', url: `/api/v1/tickets/${hidden.id}`, token: d.agent.token }), 404)
        expectError(await h.inject({ method: 'GET', url: `/api/v1/tickets/${hidden.id}/comments`, token: d.agent.token }), 404)
        expectError(await h.inject({ method: 'POST', url: `/api/v1/tickets/${hidden.id}/comments`, token: d.agent.token, payload: { body: 'x', type: 1, private: false } }), 404)
        expectError(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${hidden.id}`, token: d.agent.token, payload: { title: 'x' } }), 404)
      }
      await grant(h, d.agent, 'view_all_tickets')
      assert.deepEqual(await listIds(h, d.agent.token), idsOf(Object.values(x)))
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${x.bobSales.id}`, token: d.agent.token }), 200)
    })

    it('shows customers their own tickets and public ones; administrators all', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const x = await fourTickets(h, d)
      assert.deepEqual(await listIds(h, d.alice.token), idsOf([x.aliceBilling, x.bobPublic]))
      assert.deepEqual(await listIds(h, d.bob.token), idsOf([x.bobSales, x.bobPublic, x.bobAssigned]))
      assert.deepEqual(await listIds(h, d.admin.token), idsOf(Object.values(x)))
      expectError(await h.inject({ method: 'GET', url: `/api/v1/tickets/${x.bobSales.id}`, token: d.alice.token }), 404)
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${x.bobPublic.id}`, token: d.alice.token }), 200)
      // Read-only: no replies on someone else's public ticket.
      expectError(await h.inject({ method: 'POST', url: `/api/v1/tickets/${x.bobPublic.id}/comments`, token: d.alice.token, payload: { body: 'me too', type: 1, private: false } }), 403)
    })

    it('adds every include, with last_reply and replies-count limited to what the caller may see', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, private: false, attachments: [await uploadId(h, d.alice.token)] })
      await h.helpdesk.tickets.assign(d.admin.user, ticket.id, d.agent.user.id)
      const reply = await postComment(h, d.agent.token, ticket.id, { body: '<p>Fixed it</p>' })
      await postComment(h, d.agent.token, ticket.id, { body: 'internal', type: 2 })
      await postComment(h, d.agent.token, ticket.id, { body: 'private to Alice', private: true })
      const url = `/api/v1/tickets/${ticket.id}?include=${ALL_INCLUDES}`
      const first = expectStatus(await h.inject({ method: 'GET', url, token: d.admin.token }), 200).data
      assert.equal(first.user.id, d.alice.user.id)
      assert.equal(first.user.type, 'customer')
      assert.equal(first.creator.id, d.alice.user.id)
      assert.equal(first.agent.id, d.agent.user.id)
      assert.deepEqual([first.category.id, first.category.name], [d.billing, 'Billing'])
      assert.equal(first.attachments.length, 1)
      assert.equal(first.attachments[0].name, 'hello.txt')
      assert.equal(first.attachments_count, 1)
      assert.equal(first.replies_count, 2)
      assert.equal(first.last_reply.body, 'private to Alice')
      assert.equal(first.last_read_by_me, null)
      const again = expectStatus(await h.inject({ method: 'GET', url, token: d.admin.token }), 200).data
      assert.match(again.last_read_by_me, DATETIME)
      // Bob sees the public ticket, but neither the note nor the private reply.
      const asBob = expectStatus(await h.inject({ method: 'GET', url, token: d.bob.token }), 200).data
      assert.equal(asBob.replies_count, 1)
      assert.deepEqual([asBob.last_reply.id, asBob.last_reply.type_text, asBob.last_reply.preview], [reply.id, 'Reply', 'Fixed it'])
      const unread = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?include=last_read_by_me`, token: d.alice.token }), 200).data[0]
      assert.equal(unread.last_read_by_me, null)
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token }), 200)
      const asAlice = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?include=${ALL_INCLUDES}`, token: d.alice.token }), 200).data[0]
      assert.equal(asAlice.replies_count, 2)
      assert.equal(asAlice.last_reply.body, 'private to Alice')
      assert.match(asAlice.last_read_by_me, DATETIME)
    })

    it('sorts by every declared field and filters by status, categories, agents and the owner\'s names and email', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const x = await fourTickets(h, d)
      await h.helpdesk.tickets.update(d.admin.user, x.bobSales.id, { status: 3 })
      const token = d.admin.token
      assert.deepEqual(await listIds(h, token, `?filter[status]=3`), [x.bobSales.id])
      assert.deepEqual(await listIds(h, token, `?filter[status]=1,3`), idsOf(Object.values(x)))
      assert.deepEqual(await listIds(h, token, `?filter[categories]=${d.billing}`), [x.aliceBilling.id])
      assert.deepEqual(await listIds(h, token, `?filter[agents]=${d.agent.user.id}`), [x.bobAssigned.id])
      // 0 is "unassigned", alone or beside agents' ids.
      assert.deepEqual(await listIds(h, token, '?filter[agents]=0'), idsOf([x.aliceBilling, x.bobSales, x.bobPublic]))
      assert.deepEqual(await listIds(h, token, `?filter[agents]=0,${d.agent.user.id}`), idsOf(Object.values(x)))
      assert.equal(expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[agents]=0', token }), 200).meta.total, 3)
      assert.deepEqual(await listIds(h, token, '?filter[first_name]=LIC'), [x.aliceBilling.id])
      assert.deepEqual(await listIds(h, token, '?filter[last_name]=build'), idsOf([x.bobSales, x.bobPublic, x.bobAssigned]))
      assert.deepEqual(await listIds(h, token, '?filter[email]=builders.test'), idsOf([x.bobSales, x.bobPublic, x.bobAssigned]))
      const titles = async (sort: string) => expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?sort=${sort}`, token }), 200).data.map((t: any) => t.title)
      assert.deepEqual(await titles('title'), ['Alice billing', 'Bob assigned', 'Bob public', 'Bob sales'])
      assert.deepEqual(await titles('-id'), ['Bob assigned', 'Bob public', 'Bob sales', 'Alice billing'])
      assert.deepEqual(await titles('-status,id'), ['Bob sales', 'Alice billing', 'Bob public', 'Bob assigned'])
      assert.deepEqual((await titles('private,id'))[0], 'Bob public')
      for (const sort of ['created_at', '-updated_at']) assert.equal((await titles(sort)).length, 4)
      assert.deepEqual(await titles(''), ['Alice billing', 'Bob sales', 'Bob public', 'Bob assigned'])
      expectError(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[owner]=x', token }), 400)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/tickets?sort=colour', token }), 400)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/tickets?include=comments', token }), 400)
      expectValidation(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[status]=open', token }), 'filter.status')
      const paged = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?per_page=3&page=2', token }), 200)
      assert.deepEqual([paged.data.length, paged.meta.total, paged.meta.last_page, paged.meta.from], [1, 4, 2, 4])
    })

    it('costs the same number of queries for 15 tickets with every include as for 100', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const items: TicketImport[] = Array.from({ length: 100 }, (_, i) => ({
        user_id: i % 2 === 0 ? d.alice.user.id : d.bob.user.id,
        creator_id: d.agent.user.id,
        category_id: i % 3 === 0 ? d.sales : d.billing,
        assigned_agent_id: i % 4 === 0 ? d.agent.user.id : null,
        title: `Ticket ${i}`,
        body: `<p>Body ${i}</p>`,
        comments: [
          { user_id: d.agent.user.id, body: `Reply ${i}`, type: 1 },
          { user_id: d.agent.user.id, body: `Note ${i}`, type: 2, private: true }
        ]
      }))
      const ids = await h.helpdesk.tickets.importMany(items)
      assert.equal(ids.length, 100)
      await h.helpdesk.tickets.view(d.admin.user, ids[0]!, { include: [], sort: [], partial: {}, exact: {}, page: 1, perPage: 1 })
      const list = async (perPage: number, token: string) => await h.countQueries(async () =>
        expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?per_page=${perPage}&include=${ALL_INCLUDES}`, token }), 200))
      for (const person of [d.admin, d.agent, d.alice]) {
        // Measured with the token's lookup cached (desk() changed the agent's categories, which renews every cached lookup).
        await list(15, person.token)
        const small = await list(15, person.token)
        const large = await list(100, person.token)
        assert.equal(small.result.data.length, 15)
        assert.ok(large.result.data.length > 15)
        assert.equal(small.queries, large.queries, `${person.user.email}: ${small.queries} vs ${large.queries} queries`)
        assert.ok(large.queries <= 14, `${large.queries} queries`)
      }
    })

    it('feeds the counts of other resources and blocks deleting a category in use', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const x = await fourTickets(h, d)
      await h.helpdesk.tickets.update(d.admin.user, x.bobAssigned.id, { status: 3 })
      await h.helpdesk.tickets.assign(d.admin.user, x.aliceBilling.id, d.agent.user.id)
      const token = d.admin.token
      const customers = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers?include=tickets-count', token }), 200).data
      assert.deepEqual(customers.map((c: any) => [c.id, c.tickets_count]).sort(), [[d.alice.user.id, 1], [d.bob.user.id, 3]].sort())
      const agent = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents/${d.agent.user.id}?include=resolved-tickets-count,unresolved-tickets-count`, token }), 200).data
      assert.deepEqual([agent.resolved_tickets_count, agent.unresolved_tickets_count], [1, 1])
      const categories = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/categories?include=tickets-count', token }), 200).data
      assert.deepEqual(categories.map((c: any) => [c.id, c.tickets_count]), [[d.billing, 1], [d.sales, 3]])
      expectValidation(await h.inject({ method: 'DELETE', url: `/api/v1/categories/${d.billing}`, token }), 'category')
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${x.aliceBilling.id}`, token }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/categories/${d.billing}`, token }), 200)
    })
  })
})
