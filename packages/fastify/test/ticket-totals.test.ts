import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { TicketImport } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { desk, postComment, postTicket, type Desk } from './ticket-fixtures.js'

interface Listed { total: number, ids: number[] }

/** `meta.total` of the list, and every id it holds (walking the pages), with the statements the first page cost. */
async function listAll (h: TestApp, token: string, query: string): Promise<Listed & { statements: string[] }> {
  const statements: string[] = []
  const listener = (q: { sql: string }): void => { statements.push(q.sql) }
  h.store.knex.on('query', listener)
  const first = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?per_page=100&${query}`, token }), 200)
  h.store.knex.off('query', listener)
  const ids: number[] = first.data.map((t: { id: number }) => t.id)
  for (let page = 2; page <= first.meta.last_page; page++) {
    ids.push(...expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?per_page=100&page=${page}&${query}`, token }), 200).data.map((t: { id: number }) => t.id))
  }
  return { total: first.meta.total, ids, statements }
}

/** The counts table equals a GROUP BY of the tickets themselves, zero groups aside. */
async function countsMatchTickets (h: TestApp): Promise<void> {
  const key = (r: Record<string, unknown>): string => [r.category_id, r.status, r.assigned_agent_id, Number(r.private)].join('/')
  const counted = (await h.store.knex('ticket_counts').select('*') as Array<Record<string, unknown>>)
    .filter((r) => Number(r.total) !== 0).map((r) => `${key(r)}=${Number(r.total)}`).sort()
  const grouped = (await h.store.knex('tickets')
    .select('category_id', 'status', h.store.knex.raw('coalesce(assigned_agent_id, 0) as assigned_agent_id'), 'private')
    .count({ total: '*' }).groupBy('category_id', 'status', h.store.knex.raw('coalesce(assigned_agent_id, 0)'), 'private') as Array<Record<string, unknown>>)
    .map((r) => `${key(r)}=${Number(r.total)}`).sort()
  assert.deepEqual(counted, grouped)
}

/** For each caller and filter, `meta.total` equals the tickets listed, and comes from the counts, not a COUNT of tickets. */
async function totalsAreExact (h: TestApp, d: Desk): Promise<void> {
  await countsMatchTickets(h)
  const queries = ['', 'filter[status]=1', 'filter[status]=1,3', `filter[categories]=${d.billing}`, `filter[agents]=${d.agent.user.id}`,
    `filter[status]=2&filter[categories]=${d.sales}`, `filter[agents]=${d.agent.user.id},0&filter[status]=1,2,3`, 'filter[agents]=0', `filter[agents]=0&filter[categories]=${d.sales}`]
  for (const person of [d.admin, d.agent, d.alice, d.bob]) {
    for (const query of queries) {
      const listed = await listAll(h, person.token, query)
      assert.equal(listed.total, listed.ids.length, `${person.user.email} ${query}`)
      assert.equal(new Set(listed.ids).size, listed.ids.length)
      assert.ok(listed.statements.some((sql) => sql.includes('ticket_counts')), 'the total is read from the counts')
      assert.ok(!listed.statements.some((sql) => /count\(\*\)/i.test(sql) && !sql.includes('ticket_counts') && !/user_id/.test(sql)),
        `no COUNT over tickets: ${listed.statements.join('\n')}`)
    }
  }
}

eachDialect((dialect) => {
  describe(`ticket list totals on ${dialect}`, () => {
    it('keep meta.total exact from the counts through every change a ticket goes through, cascades included', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const a = await postTicket(h, d.alice.token, { category: d.billing, title: 'A' })
      const b = await postTicket(h, d.bob.token, { category: d.sales, title: 'B', private: false })
      const c = await postTicket(h, d.admin.token, { category: d.sales, title: 'C', customer_id: d.bob.user.id })
      const imported = await h.helpdesk.tickets.importMany(Array.from({ length: 30 }, (_, i): TicketImport => ({
        user_id: i % 2 === 0 ? d.alice.user.id : d.bob.user.id,
        category_id: i % 3 === 0 ? d.billing : d.sales,
        title: `Imported ${i}`,
        body: 'Old mail',
        status: (1 + (i % 3)) as 1 | 2 | 3,
        private: i % 4 !== 0,
        assigned_agent_id: i % 5 === 0 ? d.agent.user.id : null
      })))
      await totalsAreExact(h, d)

      await postComment(h, d.agent.token, a.id)
      await postComment(h, d.alice.token, a.id)
      await postComment(h, d.admin.token, b.id, { close: true })
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${c.id}`, token: d.admin.token, payload: { status: 2, category: d.billing } }), 200)
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${c.id}/agents`, token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${a.id}/privacy`, token: d.alice.token }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${imported[3]!}`, token: d.admin.token }), 200)
      await totalsAreExact(h, d)

      // Deleting an agent unassigns their tickets; deleting a customer deletes theirs: both by the database's cascades.
      const other = await h.user('agent')
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${b.id}/agents`, token: d.admin.token, payload: { agent: other.user.id } }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/agents/${other.user.id}`, token: d.admin.token }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${d.bob.user.id}`, token: d.admin.token }), 200)
      const survivors = { ...d, bob: d.alice }
      await totalsAreExact(h, survivors)
      assert.equal((await listAll(h, d.admin.token, '')).total, 1 + 15)
    })

    it('rolls the counts back with a transaction that fails', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await postTicket(h, d.alice.token, { category: d.billing })
      await assert.rejects(h.helpdesk.tickets.importMany([
        { user_id: d.alice.user.id, category_id: d.billing, title: 'fine', body: 'fine' },
        { user_id: d.alice.user.id, category_id: 999_999, title: 'broken', body: 'x' }
      ]))
      await assert.rejects(h.store.transaction(async (tx) => {
        await tx.tickets.create({ user_id: d.alice.user.id, creator_id: null, category_id: d.sales, status: 1, private: true, title: 'x', body: 'x', additional: {} })
        throw new Error('rolled back')
      }))
      await totalsAreExact(h, d)
      assert.equal((await listAll(h, d.admin.token, '')).total, 1)
    })
  })
})
