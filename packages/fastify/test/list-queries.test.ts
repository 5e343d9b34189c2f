import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { Role, UserStatus, SYSTEM } from '@helpdesk/core'
import { createTicket } from './fixtures.js'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'

/** Inserts customers straight through the store (no password hashing): fast enough for pages of 100. */
async function seedCustomers (h: TestApp, count: number, company = 'Acme'): Promise<number[]> {
  const ids: number[] = []
  for (let i = 0; i < count; i++) {
    const user = await h.store.users.create({
      role: Role.Customer, first_name: `C${i}`, last_name: 'Seed', email: `${company.toLowerCase()}-${i}-${ids.length}@seed.test`, company, status: UserStatus.Active, password_hash: null
    })
    ids.push(user.id)
  }
  return ids
}

async function seedAgents (h: TestApp, count: number): Promise<number[]> {
  const ids: number[] = []
  for (let i = 0; i < count; i++) {
    const user = await h.store.users.create({
      role: Role.Agent, first_name: `A${i}`, last_name: 'Seed', email: `agent-${i}@seed.test`, status: UserStatus.Active, password_hash: null
    })
    ids.push(user.id)
  }
  return ids
}

function pageOf (link: string | null): string | null {
  return link === null ? null : new URL(link).searchParams.get('page')
}

eachDialect((dialect) => {
  describe(`list queries on ${dialect}`, () => {
    describe('the paged shape', () => {
      it('has links and meta with absolute URLs that keep the other query parameters', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        await seedCustomers(h, 23)
        await seedCustomers(h, 4, 'Other')
        const query = 'filter[company]=acme&include=notes-count&per_page=5&page=2'
        const body = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers?${query}`, token, headers: { host: 'help.example.com:8080' } }), 200)
        assert.deepEqual(Object.keys(body).sort(), ['data', 'links', 'meta'])
        assert.equal(body.data.length, 5)
        assert.deepEqual(body.data.map((c: { first_name: string }) => c.first_name), ['C5', 'C6', 'C7', 'C8', 'C9'])
        assert.deepEqual(body.meta, {
          current_page: 2, from: 6, last_page: 5, path: 'http://help.example.com:8080/api/v1/customers', per_page: 5, to: 10, total: 23
        })
        assert.deepEqual(Object.keys(body.links).sort(), ['first', 'last', 'next', 'prev'])
        for (const [name, expected] of [['first', '1'], ['last', '5'], ['prev', '1'], ['next', '3']] as const) {
          const url = new URL(body.links[name])
          assert.equal(`${url.origin}${url.pathname}`, 'http://help.example.com:8080/api/v1/customers', name)
          assert.equal(url.searchParams.get('page'), expected, name)
          assert.equal(url.searchParams.get('per_page'), '5', name)
          assert.equal(url.searchParams.get('filter[company]'), 'acme', name)
          assert.equal(url.searchParams.get('include'), 'notes-count', name)
        }
        // Following `next` gives the next page.
        const next = new URL(body.links.next)
        const following = expectStatus(await h.inject({ method: 'GET', url: `${next.pathname}${next.search}`, token }), 200)
        assert.equal(following.meta.current_page, 3)
        assert.equal(following.meta.from, 11)
      })

      it('describes the first, the last, an empty and an out-of-range page', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const list = async (query: string) => expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers?${query}`, token }), 200)

        const empty = await list('')
        assert.deepEqual(empty.data, [])
        assert.deepEqual({ ...empty.meta, path: undefined }, { current_page: 1, from: null, last_page: 1, path: undefined, per_page: 15, to: null, total: 0 })
        assert.deepEqual([pageOf(empty.links.first), pageOf(empty.links.last), empty.links.prev, empty.links.next], ['1', '1', null, null])

        await seedCustomers(h, 12)
        const first = await list('per_page=5')
        assert.deepEqual([first.meta.from, first.meta.to, first.meta.last_page, first.links.prev, pageOf(first.links.next)], [1, 5, 3, null, '2'])
        const last = await list('per_page=5&page=3')
        assert.deepEqual([last.data.length, last.meta.from, last.meta.to, pageOf(last.links.prev), last.links.next], [2, 11, 12, '2', null])
        const beyond = await list('per_page=5&page=9')
        assert.deepEqual([beyond.data, beyond.meta.from, beyond.meta.to, beyond.meta.total, pageOf(beyond.links.prev), beyond.links.next], [[], null, null, 12, '3', null])
        assert.equal((await list('')).meta.per_page, 15)
        assert.equal((await list('')).data.length, 12)
      })

      it('sorts descending with a leading minus and keeps pages stable', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const ids = await seedCustomers(h, 7)
        const page = async (n: number) => expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers?sort=-id&per_page=3&page=${n}`, token }), 200).data.map((c: { id: number }) => c.id)
        assert.deepEqual([...await page(1), ...await page(2), ...await page(3)], [...ids].reverse())
      })
    })

    describe('includes are batched', () => {
      async function countList (h: TestApp, token: string, url: string, expected: number): Promise<number> {
        const { result, queries } = await h.countQueries(async () => await h.inject({ method: 'GET', url, token }))
        const body = expectStatus(result, 200)
        assert.equal(body.data.length, expected)
        return queries
      }

      it('costs the same number of queries for customers pages of 15 and of 100', async (t) => {
        const h = await buildApp(t, dialect)
        const { user, token } = await h.user('admin')
        const ids = await seedCustomers(h, 100)
        for (const id of ids.slice(0, 30)) await h.store.customerNotes.create({ customer_id: id, creator_id: user.id, text: 'n' })
        const category = (await h.helpdesk.categories.create(SYSTEM, { name: 'Support' })).id
        for (const id of [ids[0]!, ids[0]!, ids[99]!]) await createTicket(h, user, (await h.store.users.findById(id))!, category)
        const include = 'include=tickets-count,notes-count'
        const small = await countList(h, token, `/api/v1/customers?${include}`, 15)
        const large = await countList(h, token, `/api/v1/customers?${include}&per_page=100`, 100)
        assert.equal(large, small)
        // token lookup + count + page + one per include
        assert.ok(small <= 5, `${small} queries`)
        const withIncludes = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers?${include}&per_page=100`, token }), 200)
        assert.equal(withIncludes.data.filter((c: { notes_count: number }) => c.notes_count === 1).length, 30)
        assert.deepEqual(withIncludes.data.map((c: { tickets_count: number }) => c.tickets_count).filter((n: number) => n > 0), [2, 1])
      })

      it('costs the same number of queries for agents pages of 15 and of 100 with all four counts', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        await seedAgents(h, 110)
        const include = 'include=notes-count,assigned-categories-count,unresolved-tickets-count,resolved-tickets-count'
        const small = await countList(h, token, `/api/v1/agents?${include}`, 15)
        const large = await countList(h, token, `/api/v1/agents?${include}&per_page=100`, 100)
        assert.equal(large, small)
        assert.ok(small <= 7, `${small} queries`)
      })

      it('costs the same number of queries for notes pages with creator and user', async (t) => {
        const h = await buildApp(t, dialect)
        const { user, token } = await h.user('admin')
        const [customer] = await seedCustomers(h, 1)
        const writers = await seedAgents(h, 10)
        for (let i = 0; i < 100; i++) {
          await h.store.customerNotes.create({ customer_id: customer!, creator_id: writers[i % 10] ?? user.id, text: `note ${i}` })
        }
        const url = `/api/v1/customers/${customer}/notes?include=creator,user`
        const small = await countList(h, token, url, 15)
        const large = await countList(h, token, `${url}&per_page=100`, 100)
        assert.equal(large, small)
      })

      it('costs the same number of queries for category pages with agents-count', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        for (let i = 0; i < 100; i++) await h.helpdesk.categories.create(SYSTEM, { name: `Category ${i}` })
        const small = await countList(h, admin.token, '/api/v1/categories?include=agents-count', 15)
        const large = await countList(h, admin.token, '/api/v1/categories?include=agents-count&per_page=100', 100)
        assert.equal(large, small)
      })
    })
  })
})
