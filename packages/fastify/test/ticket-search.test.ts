import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { desk, idsOf, postTicket } from './ticket-fixtures.js'

async function search (h: TestApp, token: string, text: string): Promise<number[]> {
  const url = `/api/v1/tickets?filter[search]=${encodeURIComponent(text)}&per_page=100`
  return idsOf(expectStatus(await h.inject({ method: 'GET', url, token }), 200).data)
}

/** How many search documents the index holds (SQLite's FTS table; PostgreSQL's column goes with its row). */
async function documentCount (h: TestApp): Promise<number> {
  const table = h.store.dialect.name === 'sqlite' ? 'tickets_search' : 'tickets'
  const row = await h.store.knex(table).count({ n: '*' }).first() as { n: number | string }
  return Number(row.n)
}

eachDialect((dialect) => {
  describe(`ticket search on ${dialect}`, () => {
    it('finds tickets by a word of the body, the title, the purchase code, the id, and the owner\'s names, email and marketplace username', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await h.store.users.update(d.bob.user.id, { marketplace_username: 'bobthebuilder' })
      const printer = await postTicket(h, d.alice.token, { category: d.billing, title: 'Printer on fire', body: '<p>The <b>cartridge</b> smoulders since Tuesday.</p>', purchase_code: 'ab12-cd34' })
      const refund = await postTicket(h, d.bob.token, { category: d.sales, title: 'Refund please', body: 'Charged twice for the licence.' })
      const token = d.admin.token
      assert.deepEqual(await search(h, token, 'cartridge'), [printer.id], 'a word of the body')
      assert.deepEqual(await search(h, token, 'SMOULDERS'), [printer.id], 'case-insensitive')
      assert.deepEqual(await search(h, token, 'cartri'), [printer.id], 'the last word as a prefix')
      assert.deepEqual(await search(h, token, 'fire printer'), [printer.id], 'every term, in any order')
      assert.deepEqual(await search(h, token, 'printer refund'), [])
      assert.deepEqual(await search(h, token, 'AB12-CD34'), [printer.id], 'the purchase code')
      assert.deepEqual(await search(h, token, 'alice.liddell@example.com'), [printer.id], 'the owner\'s email')
      assert.deepEqual(await search(h, token, 'iddell@exam'), [printer.id], 'a part of the owner\'s email')
      assert.deepEqual(await search(h, token, 'Builder'), [refund.id], 'the owner\'s last name')
      assert.deepEqual(await search(h, token, 'bob'), [refund.id], 'the owner\'s first name')
      assert.deepEqual(await search(h, token, 'thebuild'), [refund.id], 'the marketplace username')
      assert.deepEqual(await search(h, token, String(refund.id)), [refund.id], 'the ticket id')
      assert.deepEqual(await search(h, token, `#${printer.id}`), [printer.id])
      assert.deepEqual(await search(h, token, 'licence twice charged'), [refund.id])
      assert.deepEqual(await search(h, token, 'nothing-like-this'), [])
      assert.deepEqual(await search(h, token, '%'), [], 'LIKE wildcards match literally')
      assert.deepEqual(await search(h, token, '"quoted" AND (x) OR y*'), [], 'search syntax is treated as text')
      assert.deepEqual(await search(h, token, 'übér'), [])
    })

    it('keeps the index in step with ticket and owner changes, in the same transaction', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, title: 'Old title', body: 'Old body' })
      const token = d.admin.token
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, payload: { title: 'Crème brûlée', body: 'Fresh words' } }), 200)
      assert.deepEqual(await search(h, token, 'old'), [])
      assert.deepEqual(await search(h, token, 'creme brulee'), [ticket.id], 'accents are folded')
      assert.deepEqual(await search(h, token, 'fresh'), [ticket.id])
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${d.alice.user.id}`, token, payload: { first_name: 'Alicia', email: 'alicia@wonder.land' } }), 200)
      assert.deepEqual(await search(h, token, 'alicia@wonder.land'), [ticket.id])
      assert.deepEqual(await search(h, token, 'wonder'), [ticket.id])
      assert.deepEqual(await search(h, token, 'alice.liddell'), [])
      // A failed owner update (email taken) leaves the index as it was.
      const failed = await h.inject({ method: 'PATCH', url: `/api/v1/customers/${d.alice.user.id}`, token, payload: { first_name: 'Zed', email: d.bob.user.email } })
      assert.equal(failed.statusCode, 422)
      assert.deepEqual(await search(h, token, 'zed'), [])
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticket.id}`, token }), 200)
      assert.deepEqual(await search(h, token, 'fresh'), [])
      // Deleting the owner deletes their tickets by cascade; their documents go too.
      const bobs = await postTicket(h, d.bob.token, { category: d.sales, title: 'Cascade me' })
      assert.deepEqual(await search(h, token, 'cascade'), [bobs.id])
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${d.bob.user.id}`, token }), 200)
      assert.deepEqual(await search(h, token, 'cascade'), [])
      assert.deepEqual(await documentCount(h), 0)
    })

    it('searches only the tickets the caller may see, combined with the other filters', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const alices = await postTicket(h, d.alice.token, { category: d.billing, title: 'Shared word' })
      const bobs = await postTicket(h, d.bob.token, { category: d.sales, title: 'Shared word' })
      assert.deepEqual(await search(h, d.admin.token, 'shared'), idsOf([alices, bobs]))
      assert.deepEqual(await search(h, d.alice.token, 'shared'), [alices.id])
      assert.deepEqual(await search(h, d.agent.token, 'shared'), [alices.id])
      assert.deepEqual(await search(h, d.alice.token, String(bobs.id)), [])
      const filtered = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?filter[search]=shared&filter[categories]=${d.sales}`, token: d.admin.token }), 200)
      assert.deepEqual(idsOf(filtered.data), [bobs.id])
    })
  })
})
