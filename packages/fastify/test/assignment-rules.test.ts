import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { expectStatus, expectValidation } from './http-assertions.js'
import { desk, postTicket } from './ticket-fixtures.js'

eachDialect((dialect) => {
  describe(`assignment rules on ${dialect}`, () => {
    it('assigns new tickets round-robin over the category\'s available agents; an agent going away hands their tickets over', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const second = await h.user('agent', { first_name: 'Sue' })
      await h.store.users.setCategories(second.user.id, [d.billing])
      expectValidation(await h.inject({ method: 'PUT', url: `/api/v1/categories/${d.billing}/assignment`, token: d.admin.token, payload: { mode: 'lottery' } }), 'mode')
      const set = expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/categories/${d.billing}/assignment`, token: d.admin.token, payload: { mode: 'round_robin' } }), 200).data
      assert.deepEqual(set, { category_id: d.billing, mode: 'round_robin' })

      const assignees: number[] = []
      for (let i = 0; i < 4; i++) assignees.push((await postTicket(h, d.alice.token, { category: d.billing })).assigned_agent_id)
      assert.deepEqual(assignees, [d.agent.user.id, second.user.id, d.agent.user.id, second.user.id], 'turns alternate, kept in the agents\' rows')
      const sales = await postTicket(h, d.alice.token, { category: d.sales })
      assert.equal(sales.assigned_agent_id, null, 'a manual category is left alone')

      // Gus switches himself away: his two open tickets go to Sue, and new tickets too.
      const away = expectStatus(await h.inject({ method: 'PUT', url: '/api/v1/auth/me/availability', token: d.agent.token, payload: { available: false } }), 200).data
      assert.equal(away.available, false)
      assert.equal(away.reassigned.length, 2)
      for (const id of away.reassigned) assert.equal((await h.store.tickets.findById(id))?.assigned_agent_id, second.user.id)
      assert.equal((await postTicket(h, d.alice.token, { category: d.billing })).assigned_agent_id, second.user.id)
      const history = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${away.reassigned[0]}/history`, token: d.admin.token }), 200).data
      const handed = history.filter((entry: any) => entry.field === 'assignee').at(-1)
      assert.equal(handed.actor.name, 'assignment')
      assert.equal(expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents/${d.agent.user.id}/availability`, token: d.admin.token }), 200).data.available, false)
    })

    it('least open: the agent with the fewest open tickets', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const second = await h.user('agent', { first_name: 'Sue' })
      await h.store.users.setCategories(second.user.id, [d.billing])
      const busy = await postTicket(h, d.alice.token, { category: d.billing })
      await h.helpdesk.tickets.assign(d.admin.user, busy.id, d.agent.user.id)
      await h.helpdesk.assignment.setMode(d.admin.user, d.billing, 'least_open')
      assert.equal((await postTicket(h, d.alice.token, { category: d.billing })).assigned_agent_id, second.user.id)
      assert.equal((await postTicket(h, d.alice.token, { category: d.billing })).assigned_agent_id, d.agent.user.id, 'one each now: the older turn')
    })
  })
})
