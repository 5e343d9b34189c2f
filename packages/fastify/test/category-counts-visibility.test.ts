import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { desk, postTicket } from './ticket-fixtures.js'

const COUNTS = 'include=tickets-count,articles-count,collections-count'

type Counts = [number, number, number]
const countsOf = (c: { tickets_count: number, articles_count: number, collections_count: number }): Counts => [c.tickets_count, c.articles_count, c.collections_count]

async function listed (h: TestApp, token: string, id: number): Promise<{ list: Counts, view: Counts }> {
  const list = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/categories?${COUNTS}`, token }), 200)
  const view = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/categories/${id}?${COUNTS}`, token }), 200)
  return { list: countsOf(list.data.find((c: { id: number }) => c.id === id)), view: countsOf(view.data) }
}

/** CONTRACT §17: category counts follow visibility; a customer counts only what they could list. */
eachDialect((dialect) => {
  describe(`category counts per caller on ${dialect}`, () => {
    it('counts for a customer only what they could list, and everything for staff', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await postTicket(h, d.bob.token, { category: d.billing, title: 'Bob private', body: 'x', private: true })
      await postTicket(h, d.bob.token, { category: d.billing, title: 'Bob public', body: 'x', private: false })
      await postTicket(h, d.alice.token, { category: d.billing, title: 'Alice private', body: 'x', private: true })
      await postTicket(h, d.alice.token, { category: d.sales, title: 'Alice public', body: 'x', private: false })
      const collections: Record<number, number> = {}
      for (const visibility of [1, 2, 3, 4]) {
        collections[visibility] = (await h.helpdesk.collections.create(d.admin.user, { category_id: d.billing, name: `Level ${visibility}`, visibility: visibility as 1 | 2 | 3 | 4 })).id
      }
      const article = async (collection: number, status: 'draft' | 'published'): Promise<void> => {
        await h.helpdesk.articles.create(d.admin.user, { title: `${status} in ${collection}`, body: 'Text.', category: d.billing, collection, status })
      }
      await article(collections[1]!, 'published')
      await article(collections[1]!, 'draft')
      await article(collections[2]!, 'published')
      await article(collections[3]!, 'published')
      await article(collections[4]!, 'draft')

      // Alice: Bob's public ticket and her own private one; published articles of levels 1-2; collections of levels 1-2.
      assert.deepEqual(await listed(h, d.alice.token, d.billing), { list: [2, 2, 2], view: [2, 2, 2] })
      assert.deepEqual(await listed(h, d.bob.token, d.billing), { list: [2, 2, 2], view: [2, 2, 2] })
      assert.deepEqual((await listed(h, d.bob.token, d.sales)).list, [1, 0, 0])
      for (const staff of [d.admin, d.agent]) assert.deepEqual(await listed(h, staff.token, d.billing), { list: [3, 5, 4], view: [3, 5, 4] })

      // Tickets are counted from the counter table; only a customer's own private ones through the owner index.
      const issued: string[] = []
      const listener = (q: { sql: string }): void => { issued.push(q.sql) }
      h.store.knex.on('query', listener)
      try {
        await listed(h, d.admin.token, d.billing)
        assert.ok(!issued.some((sql) => /from [`"]tickets[`"]/.test(sql)), issued.join('\n'))
        issued.length = 0
        await listed(h, d.alice.token, d.billing)
        const ticketReads = issued.filter((sql) => /from [`"]tickets[`"]/.test(sql))
        assert.ok(ticketReads.length > 0 && ticketReads.every((sql) => /[`"]user_id[`"] = \?|[`"]user_id[`"] = \$\d/.test(sql)), ticketReads.join('\n'))
      } finally {
        h.store.knex.off('query', listener)
      }
    })
  })
})
