import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createTicket } from './fixtures.js'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'

const CATEGORY_KEYS = ['created_at', 'id', 'marketplace_item_id', 'name', 'order', 'purchase_verification', 'thumbnail', 'updated_at']

async function create (h: TestApp, token: string, payload: object) {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories', token, payload }), 201).data
}

async function names (h: TestApp, token: string, query = '') {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/categories${query}`, token }), 200).data.map((c: { name: string }) => c.name)
}

eachDialect((dialect) => {
  describe(`categories on ${dialect}`, () => {
    it('lets any authenticated user list and view, and nobody anonymous', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const id = (await create(h, admin.token, { name: 'Billing' })).id
      for (const role of ['agent', 'customer'] as const) {
        const { token } = await h.user(role)
        assert.deepEqual(await names(h, token), ['Billing'])
        assert.equal(expectStatus(await h.inject({ method: 'GET', url: `/api/v1/categories/${id}`, token }), 200).data.name, 'Billing')
      }
      expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/categories' }))
      expectUnauthenticated(await h.inject({ method: 'GET', url: `/api/v1/categories/${id}` }))
      expectError(await h.inject({ method: 'GET', url: '/api/v1/categories/999999', token: admin.token }), 404)
    })

    it('creates with the resource shape and defaults, appending to the order', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const first = await create(h, token, { name: 'Billing' })
      assert.deepEqual(keysOf(first), CATEGORY_KEYS)
      assert.deepEqual(
        { ...first, id: undefined, created_at: undefined, updated_at: undefined },
        { id: undefined, name: 'Billing', order: 1, thumbnail: null, marketplace_item_id: null, purchase_verification: 0, created_at: undefined, updated_at: undefined }
      )
      assert.match(first.created_at, DATETIME)
      const second = await create(h, token, { name: 'Themes', thumbnail: 'https://cdn.test/t.png', marketplace_item_id: 4711, purchase_verification: 2 })
      assert.deepEqual([second.order, second.thumbnail, second.marketplace_item_id, second.purchase_verification], [2, 'https://cdn.test/t.png', 4711, 2])
      assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url: `/api/v1/categories/${second.id}`, token }), 200), { data: second })
    })

    it('validates names and fields', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const post = async (payload: object) => await h.inject({ method: 'POST', url: '/api/v1/categories', token, payload })
      expectValidation(await post({}), 'name')
      expectValidation(await post({ name: '' }), 'name')
      expectValidation(await post({ name: '   ' }), 'name')
      expectValidation(await post({ name: 'n'.repeat(251) }), 'name')
      expectValidation(await post({ name: 'Ok', purchase_verification: 3 }), 'purchase_verification')
      expectValidation(await post({ name: 'Ok', marketplace_item_id: 'abc' }), 'marketplace_item_id')
      await create(h, token, { name: 'n'.repeat(250) })
      assert.equal((await names(h, token)).length, 1, 'failed creates write nothing')
    })

    it('lets administrators only create, update, reorder and delete', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const id = (await create(h, admin.token, { name: 'Billing' })).id
      const agent = await h.user('agent')
      await h.store.users.update(agent.user.id, {
        permissions: { view_all_tickets: true, manage_customers: true, manage_articles: true, assign_tickets: true, delete_tickets: true }
      })
      const customer = await h.user('customer')
      const requests = [
        { method: 'POST', url: '/api/v1/categories', payload: { name: 'New' } },
        { method: 'PATCH', url: `/api/v1/categories/${id}`, payload: { name: 'Renamed' } },
        { method: 'POST', url: '/api/v1/categories/order', payload: { order: [id] } },
        { method: 'DELETE', url: `/api/v1/categories/${id}` }
      ] as const
      for (const request of requests) {
        expectUnauthenticated(await h.inject({ ...request }))
        expectError(await h.inject({ ...request, token: agent.token }), 403)
        expectError(await h.inject({ ...request, token: customer.token }), 403)
      }
      assert.deepEqual(await names(h, admin.token), ['Billing'])
    })

    it('updates partially (PATCH and POST) and deletes', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const created = await create(h, token, { name: 'Billing', marketplace_item_id: 12, purchase_verification: 1 })
      const url = `/api/v1/categories/${created.id}`
      const patched = expectStatus(await h.inject({ method: 'PATCH', url, token, payload: { name: 'Invoices' } }), 200).data
      assert.deepEqual({ ...patched, updated_at: undefined }, { ...created, name: 'Invoices', updated_at: undefined })
      const posted = expectStatus(await h.inject({ method: 'POST', url, token, payload: { marketplace_item_id: null, purchase_verification: 0 } }), 200).data
      assert.deepEqual([posted.name, posted.marketplace_item_id, posted.purchase_verification], ['Invoices', null, 0])
      // Keys that are not writable fields are ignored: no way to move the id or the order through an update.
      const sneaky = expectStatus(await h.inject({ method: 'PATCH', url, token, payload: { id: 777, order: 99, created_at: '2000-01-01 00:00:00' } }), 200).data
      assert.deepEqual([sneaky.id, sneaky.order, sneaky.created_at], [created.id, created.order, created.created_at])
      expectValidation(await h.inject({ method: 'PATCH', url, token, payload: { name: '' } }), 'name')
      expectValidation(await h.inject({ method: 'PATCH', url, token, payload: { name: ' ' } }), 'name')
      expectError(await h.inject({ method: 'PATCH', url: '/api/v1/categories/999999', token, payload: { name: 'X' } }), 404)

      assert.deepEqual(expectStatus(await h.inject({ method: 'DELETE', url, token }), 200), { success: true })
      expectError(await h.inject({ method: 'GET', url, token }), 404)
      expectError(await h.inject({ method: 'DELETE', url, token }), 404)
    })

    it('drops a deleted category from agents\' assignments', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const agent = await h.user('agent')
      const id = (await create(h, admin.token, { name: 'Billing' })).id
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/agents/${agent.user.id}/categories`, token: admin.token, payload: { categories: [id] } }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/categories/${id}`, token: admin.token }), 200)
      assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents/${agent.user.id}/categories`, token: admin.token }), 200).data, [])
    })

    it('sorts by order (default) or name, either way, and filters name partially', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      for (const name of ['Sales', 'billing', 'Support', 'Account']) await create(h, token, { name })
      assert.deepEqual(await names(h, token), ['Sales', 'billing', 'Support', 'Account'])
      assert.deepEqual(await names(h, token, '?sort=-order'), ['Account', 'Support', 'billing', 'Sales'])
      const byName = await names(h, token, '?sort=name')
      assert.deepEqual(byName.map((n: string) => n.toLowerCase()), ['account', 'billing', 'sales', 'support'])
      assert.deepEqual(await names(h, token, '?sort=-name'), [...byName].reverse())
      assert.deepEqual(await names(h, token, '?filter[name]=S'), ['Sales', 'Support'])
      assert.deepEqual(await names(h, token, '?filter[name]=BILL'), ['billing'])
      expectError(await h.inject({ method: 'GET', url: '/api/v1/categories?sort=created_at', token }), 400)
    })

    describe('POST /categories/order', () => {
      it('takes a plain list (positions 1, 2, 3...)', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const [a, b, c] = [await create(h, token, { name: 'A' }), await create(h, token, { name: 'B' }), await create(h, token, { name: 'C' })]
        assert.deepEqual(expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories/order', token, payload: { order: [c.id, a.id, b.id] } }), 200), { success: true })
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/categories', token }), 200).data
        assert.deepEqual(list.map((x: { name: string, order: number }) => [x.name, x.order]), [['C', 1], ['A', 2], ['B', 3]])
      })

      it('takes a map of position to id', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const [a, b, c] = [await create(h, token, { name: 'A' }), await create(h, token, { name: 'B' }), await create(h, token, { name: 'C' })]
        expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories/order', token, payload: { order: { 10: b.id, 20: c.id, 30: a.id } } }), 200)
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/categories', token }), 200).data
        assert.deepEqual(list.map((x: { name: string, order: number }) => [x.name, x.order]), [['B', 10], ['C', 20], ['A', 30]])
      })

      it('rejects unknown ids on order.N and reorders nothing', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const [a, b] = [await create(h, token, { name: 'A' }), await create(h, token, { name: 'B' })]
        const order = async (payload: object) => await h.inject({ method: 'POST', url: '/api/v1/categories/order', token, payload })
        expectValidation(await order({ order: [b.id, 999999, a.id] }), 'order.1')
        expectValidation(await order({ order: { 1: b.id, 2: 999999 } }), 'order.2')
        expectValidation(await order({ order: [] }), 'order')
        expectValidation(await order({ order: 'A' }), 'order')
        expectValidation(await order({}), 'order')
        assert.deepEqual(await names(h, token), ['A', 'B'])
      })
    })

    describe('includes', () => {
      it('counts the agents of each category on the list and the view', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const billing = (await create(h, admin.token, { name: 'Billing' })).id
        const sales = (await create(h, admin.token, { name: 'Sales' })).id
        for (const categories of [[billing], [billing, sales]]) {
          const agent = await h.user('agent')
          expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/agents/${agent.user.id}/categories`, token: admin.token, payload: { categories } }), 200)
        }
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/categories?include=agents-count', token: admin.token }), 200)
        assert.deepEqual(list.data.map((c: { agents_count: number }) => c.agents_count), [2, 1])
        const one = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/categories/${sales}?include=agents-count`, token: admin.token }), 200)
        assert.equal(one.data.agents_count, 1)
        expectError(await h.inject({ method: 'GET', url: '/api/v1/categories?include=agents', token: admin.token }), 400)
      })

      it('counts tickets per category', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const customer = await h.user('customer')
        const billing = (await create(h, admin.token, { name: 'Billing' })).id
        const sales = (await create(h, admin.token, { name: 'Sales' })).id
        for (const category of [sales, sales, billing]) await createTicket(h, admin.user, customer.user, category)
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/categories?include=tickets-count', token: customer.token }), 200)
        assert.deepEqual(list.data.map((c: { id: number, tickets_count: number }) => [c.id, c.tickets_count]), [[billing, 1], [sales, 2]])
      })
    })

    describe('DELETE /categories/{id} while in use', () => {
      it('answers 422 while tickets use the category, and deletes it once they are gone', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const customer = await h.user('customer')
        const id = (await create(h, admin.token, { name: 'Busy' })).id
        const ticket = await createTicket(h, admin.user, customer.user, id)
        const errors = expectValidation(await h.inject({ method: 'DELETE', url: `/api/v1/categories/${id}`, token: admin.token }), 'category')
        assert.match(errors.category?.[0] ?? '', /tickets/)
        expectStatus(await h.inject({ method: 'GET', url: `/api/v1/categories/${id}`, token: admin.token }), 200)
        await h.helpdesk.tickets.delete(admin.user, ticket)
        expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/categories/${id}`, token: admin.token }), 200)
      })

      it('answers 422 while article collections use the category', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const id = (await create(h, admin.token, { name: 'Docs' })).id
        const collection = await h.helpdesk.collections.create(admin.user, { category_id: id, name: 'Guides', visibility: 1 })
        await h.helpdesk.articles.create(admin.user, { title: 'Start', body: 'Read me.', category: id, collection: collection.id, status: 'published' })
        const counted = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/categories/${id}?include=collections-count,articles-count`, token: admin.token }), 200)
        assert.deepEqual([counted.data.collections_count, counted.data.articles_count], [1, 1])
        expectValidation(await h.inject({ method: 'DELETE', url: `/api/v1/categories/${id}`, token: admin.token }), 'category')
        expectStatus(await h.inject({ method: 'GET', url: `/api/v1/categories/${id}`, token: admin.token }), 200)
      })
    })
  })
})
