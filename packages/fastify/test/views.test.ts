import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk, postTicket, type Desk } from './ticket-fixtures.js'

async function createView (h: TestApp, token: string, payload: Record<string, unknown>): Promise<any> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/views', token, payload }), 201).data
}

async function views (h: TestApp, token: string, query = ''): Promise<any> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/views${query}`, token }), 200)
}

/**
 * Five tickets the count tests share: two Billing tickets of Alice, a Sales
 * ticket and a closed Billing ticket of Bob, and a Sales ticket of
 * `assignedOwner` assigned to the agent (they cover Billing only).
 */
async function countedTickets (h: TestApp, d: Desk, assignedOwner: 'alice' | 'bob'): Promise<{ sales: { id: number } }> {
  await postTicket(h, d.alice.token, { category: d.billing, title: 'Billing one' })
  await postTicket(h, d.alice.token, { category: d.billing, title: 'Billing two' })
  const sales = await postTicket(h, d.bob.token, { category: d.sales, title: 'Sales one' })
  const closed = await postTicket(h, d.bob.token, { category: d.billing, title: 'Closed one' })
  expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${closed.id}`, token: d.admin.token, payload: { status: 3 } }), 200)
  const assigned = await postTicket(h, d[assignedOwner].token, { category: d.sales, title: 'Sales, assigned' })
  expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${assigned.id}/agents`, token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)
  return { sales }
}

eachDialect((dialect) => {
  describe(`views on ${dialect}`, () => {
    it('lists the built-in views first, then shared ones and the caller\'s own; private views stay their owner\'s', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const builtIn = (await views(h, d.agent.token)).data
      assert.deepEqual(builtIn.map((v: any) => v.key), ['mine', 'unassigned', 'open', 'pending', 'closed'])
      assert.ok(builtIn.every((v: any) => v.built_in === true && v.shared === true))
      assert.deepEqual(builtIn[0].filters, { status: '1,2', agents: String(d.agent.user.id) }, 'mine is the viewer\'s own')
      assert.equal(builtIn[0].query, `filter%5Bstatus%5D=1%2C2&filter%5Bagents%5D=${d.agent.user.id}&sort=-updated_at`)

      const mine = await createView(h, d.agent.token, { name: 'My billing', filters: { categories: String(d.billing), status: '1' }, sort: '-created_at' })
      assert.equal(mine.shared, false)
      assert.equal(mine.built_in, false)
      assert.equal(mine.user_id, d.agent.user.id)
      const shared = await createView(h, d.agent.token, { name: 'Urgent', shared: true, filters: { priority: 'high,urgent' } })
      assert.equal(shared.sort, '-updated_at')
      const adminOwn = await createView(h, d.admin.token, { name: 'Admin only', filters: { status: '3' } })

      const names = async (token: string) => (await views(h, token, '?filter[shared]=0,1&per_page=100')).data.filter((v: any) => !v.built_in).map((v: any) => v.name)
      assert.deepEqual(await names(d.agent.token), ['My billing', 'Urgent'])
      assert.deepEqual(await names(d.admin.token), ['Admin only', 'Urgent'])
      expectError(await h.inject({ method: 'GET', url: `/api/v1/views/${adminOwn.id}`, token: d.agent.token }), 404)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/views/${mine.id}`, token: d.admin.token }), 404)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/views', token: d.alice.token }), 403)
      expectError(await h.inject({ method: 'POST', url: '/api/v1/views', token: d.alice.token, payload: { name: 'x' } }), 403)

      // Shared: its owner and administrators edit it; other agents see it only.
      const other = await h.user('agent', { first_name: 'Olga', last_name: 'Other' })
      assert.deepEqual(await names(other.token), ['Urgent'])
      expectError(await h.inject({ method: 'PATCH', url: `/api/v1/views/${shared.id}`, token: other.token, payload: { name: 'x' } }), 403)
      expectError(await h.inject({ method: 'DELETE', url: `/api/v1/views/${shared.id}`, token: other.token }), 403)
      const renamed = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/views/${shared.id}`, token: d.admin.token, payload: { name: 'Urgent ones' } }), 200).data
      assert.equal(renamed.name, 'Urgent ones')
      expectError(await h.inject({ method: 'PATCH', url: `/api/v1/views/${shared.id}`, token: d.admin.token, payload: { shared: false } }), 403)
      expectError(await h.inject({ method: 'PATCH', url: `/api/v1/views/${builtIn[0].id}`, token: d.admin.token, payload: { name: 'x' } }), 403)
      expectError(await h.inject({ method: 'DELETE', url: `/api/v1/views/${builtIn[0].id}`, token: d.admin.token }), 403)

      const unshared = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/views/${shared.id}`, token: d.agent.token, payload: { shared: false } }), 200).data
      assert.equal(unshared.shared, false)
      assert.deepEqual(await names(other.token), [])
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/views/${mine.id}`, token: d.agent.token }), 200)
      assert.deepEqual(await names(d.agent.token), ['Urgent ones'])
    })

    it('checks filters and sort by the ticket list\'s rules, as 422 in the contract\'s shape', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/views', token: d.agent.token, payload: { name: 'Bad', filters: { colour: 'red' } } }), 'filters.colour')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/views', token: d.agent.token, payload: { name: 'Bad', filters: { status: 'open' } } }), 'filters.status')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/views', token: d.agent.token, payload: { name: 'Bad', filters: { priority: 'asap' } } }), 'filters.priority')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/views', token: d.agent.token, payload: { name: 'Bad', filters: { updated_since: 'yesterday' } } }), 'filters.updated_since')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/views', token: d.agent.token, payload: { name: 'Bad', sort: '-colour' } }), 'sort')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/views', token: d.agent.token, payload: { name: '   ' } }), 'name')
      const res = await h.inject({ method: 'POST', url: '/api/v1/views', token: d.agent.token, payload: { name: 'Bad', filters: { colour: 'red', status: 'x' }, sort: 'nope' } })
      const body = expectError(res, 422) as { message: string, errors: Record<string, string[]> }
      assert.deepEqual(Object.keys(body.errors).sort(), ['filters.colour', 'filters.status', 'sort'], 'every problem at once')
      const view = await createView(h, d.agent.token, { name: 'Search', filters: { search: 'printer', 'first_response_due_at[lt]': '2030-01-01 00:00:00', tags: 'vip' } })
      assert.match(view.query, /filter%5Bfirst_response_due_at%5D%5Blt%5D=/)
      expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/views/${view.id}`, token: d.agent.token, payload: { filters: { agents: 'me' } } }), 'filters.agents')
    })

    it('counts each view\'s tickets in the caller\'s ticket scope, as the ticket list counts them', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const { sales } = await countedTickets(h, d, 'bob')
      await createView(h, d.admin.token, { name: 'Sales', shared: true, filters: { categories: String(d.sales) } })
      await createView(h, d.admin.token, { name: 'Search billing', shared: true, filters: { search: 'Billing' } })

      const counts = async (token: string) => Object.fromEntries((await views(h, token, '?include=count')).data.map((v: any) => [v.key ?? v.name, v.count]))
      // The agent covers billing, plus the sales ticket assigned to them.
      assert.deepEqual(await counts(d.agent.token), { mine: 1, unassigned: 2, open: 3, pending: 0, closed: 1, Sales: 1, 'Search billing': 2 })
      assert.deepEqual(await counts(d.admin.token), { mine: 0, unassigned: 3, open: 4, pending: 0, closed: 1, Sales: 2, 'Search billing': 2 })
      // The counts are those of the ticket list itself, for every view and caller.
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${sales.id}`, token: d.admin.token, payload: { priority: 'urgent', tags: ['vip'] } }), 200)
      await createView(h, d.admin.token, { name: 'Urgent VIP', shared: true, filters: { priority: 'high,urgent', tags: 'vip' }, sort: 'title' })
      for (const token of [d.agent.token, d.admin.token]) {
        for (const view of (await views(h, token, '?include=count')).data) {
          const listed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?${view.query}`, token }), 200)
          assert.equal(view.count, listed.meta.total, `${view.name}: the count is the list's total`)
        }
      }
      assert.equal((await views(h, d.admin.token, '?include=count&filter[name]=vip')).data[0].count, 1)
      assert.equal((await views(h, d.agent.token, '?include=count&filter[name]=vip')).data[0].count, 0, 'the sales ticket is outside the agent\'s categories')

      // The page's counts in one statement (plus the page, the caller's categories and the search's plan), whatever the number of tickets.
      const before = (await h.countQueries(async () => await views(h, d.agent.token, '?include=count'))).queries
      for (let i = 0; i < 5; i++) await postTicket(h, d.alice.token, { category: d.billing, title: `More ${i}` })
      const after = (await h.countQueries(async () => await views(h, d.agent.token, '?include=count'))).queries
      t.diagnostic(`${dialect}: GET /views?include=count with 8 views: ${before} statements`)
      assert.equal(after, before)
      assert.ok(before <= 8 + 6, `${before} queries for 8 views`)
      const page = await views(h, d.agent.token, '?include=count&per_page=2&page=2')
      assert.equal(page.meta.total, 8)
      assert.ok(page.links.next.includes('page=3'))
      assert.deepEqual(page.data.map((v: any) => v.count), [5 + 3, 0])
    })

    it('counts a page of 3 views and a page of 12 with the same number of statements, each count the list\'s total', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const { sales } = await countedTickets(h, d, 'alice')
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${sales.id}`, token: d.admin.token, payload: { priority: 'urgent', tags: ['vip'] } }), 200)
      // Saved views of every kind of filter: those the counts answer, and those counted with a capped COUNT.
      const saved: Array<Record<string, string>> = [
        { categories: String(d.sales) },
        { status: '1,3', categories: `${d.billing},${d.sales}` },
        { agents: `0,${d.agent.user.id}` },
        { priority: 'high,urgent' },
        { tags: 'vip' },
        { merged: '0', status: '3' },
        { updated_since: '2000-01-01 00:00:00' },
        { first_name: 'Alice' },
        { email: 'builders' },
        { 'first_response_due_at[lt]': '2999-01-01 00:00:00' }
      ]
      for (const [i, filters] of saved.entries()) await createView(h, d.admin.token, { name: `View ${String(i).padStart(2, '0')}`, shared: true, filters })
      for (const token of [d.agent.token, d.admin.token]) {
        const statements = async (perPage: number): Promise<number> => {
          const { result, queries } = await h.countQueries(async () => await views(h, token, `?include=count&per_page=${perPage}`))
          assert.equal(result.data.length, perPage)
          // Each count is the total of the view's own ticket list, as a count of that view alone would give.
          for (const view of result.data) {
            const listed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?${view.query}`, token }), 200)
            assert.equal(view.count, listed.meta.total, `${view.name}: the count is the list's total`)
            assert.equal(view.count_is_lower_bound, undefined)
          }
          return queries
        }
        // The caller's first count reads what later ones find cached (their categories): not part of the comparison.
        await views(h, token, '?include=count&per_page=1')
        const three = await statements(3)
        const twelve = await statements(12)
        t.diagnostic(`${dialect}: GET /views?include=count: ${three} statements for 3 views, ${twelve} for 12`)
        assert.equal(twelve, three, 'the counts of a page cost the same whatever its size')
      }
      // The counts themselves, for the agent (their categories and what is assigned to them) and the administrator.
      const counts = async (token: string) => (await views(h, token, '?include=count&per_page=15')).data.map((v: any) => v.count)
      assert.deepEqual(await counts(d.agent.token), [1, 2, 3, 0, 1, 1, 4, 4, 0, 0, 1, 4, 3, 1, 0])
      assert.deepEqual(await counts(d.admin.token), [0, 3, 4, 0, 1, 2, 5, 5, 1, 1, 1, 5, 3, 2, 0])
    })
  })
})
