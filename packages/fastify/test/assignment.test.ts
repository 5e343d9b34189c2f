import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { desk, grant, postTicket, settle } from './ticket-fixtures.js'

/** Issue 35: assigning to colleagues of the ticket's category, unassigning, agents covering all categories. */
eachDialect((dialect) => {
  describe(`assignment on ${dialect}`, () => {
    it('lets an agent with assign_tickets assign any agent of the ticket\'s category, and unassign; nobody else', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const colleague = await h.user('agent', { first_name: 'Cora', last_name: 'Colleague' })
      const outsider = await h.user('agent', { first_name: 'Otto', last_name: 'Outsider' })
      await h.store.users.setCategories(colleague.user.id, [d.billing])
      await h.store.users.setCategories(outsider.user.id, [d.sales])
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const put = async (token: string, agent: number) => await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id}/agents`, token, payload: { agent } })

      // Without the permission: 403 on assigning, unassigning and the list of assignees.
      expectStatus(await put(d.agent.token, colleague.user.id), 403)
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/assignees`, token: d.agent.token }), 403)
      await grant(h, d.agent, 'assign_tickets')

      const assignees = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/assignees`, token: d.agent.token }), 200).data as any[]
      assert.deepEqual(assignees.map((p) => p.id).sort((a, b) => a - b), [d.admin.user.id, d.agent.user.id, colleague.user.id].sort((a, b) => a - b))
      assert.deepEqual(Object.keys(assignees[0]).sort(), ['avatar', 'email', 'first_name', 'id', 'last_name', 'type'])

      expectStatus(await put(d.agent.token, colleague.user.id), 200)
      let stored = await h.store.tickets.findById(ticket.id)
      assert.equal(stored!.assigned_agent_id, colleague.user.id)
      // Someone outside the category: 422 on `agent` for an agent; an administrator may still.
      const refused = expectStatus(await put(d.agent.token, outsider.user.id), 422)
      assert.ok(refused.errors.agent)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticket.id}/agents`, token: d.alice.token }), 403)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticket.id}/agents`, token: d.agent.token }), 200)
      stored = await h.store.tickets.findById(ticket.id)
      assert.deepEqual([stored!.assigned_agent_id, stored!.agent_assigned_at], [null, null])
      expectStatus(await put(d.admin.token, outsider.user.id), 200)
      // A ticket of another category is not found for the agent at all.
      const sales = await postTicket(h, d.alice.token, { category: d.sales })
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${sales.id}/assignees`, token: d.agent.token }), 404)
    })

    it('gives agents covering all categories every ticket, present and future, and their assignment', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const lead = await h.user('agent', { first_name: 'Lea', last_name: 'Lead' })
      const coverage = (token: string, body?: object) => h.inject(body === undefined
        ? { method: 'GET', url: `/api/v1/agents/${lead.user.id}/coverage`, token }
        : { method: 'PUT', url: `/api/v1/agents/${lead.user.id}/coverage`, token, payload: body })
      assert.deepEqual(expectStatus(await coverage(d.admin.token), 200).data, { all_categories: false })
      expectStatus(await coverage(d.agent.token, { all_categories: true }), 403)
      assert.deepEqual(expectStatus(await coverage(d.admin.token, { all_categories: true }), 200).data, { all_categories: true })

      // A category created afterwards is theirs too.
      const later = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories', token: d.admin.token, payload: { name: 'Later' } }), 201).data.id
      const ticket = await postTicket(h, d.alice.token, { category: later })
      // ...and they are told of its tickets, as the category's agents are.
      await settle()
      const told = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/notifications', token: lead.token }), 200).data as any[]
      assert.ok(told.some((n) => n.type === 'Tickets.TicketCreated' && n.data.ticket.id === ticket.id), JSON.stringify(told))
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: lead.token }), 200)
      const listed = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets', token: lead.token }), 200).data as any[]
      assert.ok(listed.some((x) => x.id === ticket.id))
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: d.agent.token }), 404)
      await grant(h, d.agent, 'assign_tickets')
      const admins = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/assignees`, token: d.admin.token }), 200).data as any[]
      assert.deepEqual(admins.map((p) => p.id).sort((a, b) => a - b), [d.admin.user.id, lead.user.id])
      // Uncovered again: the new category's ticket is gone from their view.
      expectStatus(await coverage(d.admin.token, { all_categories: false }), 200)
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: lead.token }), 404)
    })

    it('gives a new category to the agents the administrator names, in one request', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const other = await h.user('agent', { first_name: 'Olga', last_name: 'Other' })
      const bad = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories', token: d.admin.token, payload: { name: 'Refunds', agents: [d.agent.user.id, d.alice.user.id] } }), 422)
      assert.ok(bad.errors['agents.1'])
      const created = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories', token: d.admin.token, payload: { name: 'Refunds', agents: [d.agent.user.id, other.user.id] } }), 201).data
      assert.deepEqual(await h.store.users.categoryIds(other.user.id), [created.id])
      assert.deepEqual(await h.store.users.categoryIds(d.agent.user.id), [d.billing, created.id])
      const ticket = await postTicket(h, d.alice.token, { category: created.id })
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: other.token }), 200)
    })
  })
})
