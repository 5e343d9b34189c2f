import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'

eachDialect((dialect) => {
  describe(`errors on ${dialect}`, () => {
    describe('bad list queries (400)', () => {
      it('names the unknown include and the allowed ones', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const { message } = expectError(await h.inject({ method: 'GET', url: '/api/v1/customers?include=notes-count,orders', token }), 400)
        assert.match(message, /orders/)
        assert.match(message, /tickets-count/)
        assert.match(message, /notes-count/)
        const view = expectError(await h.inject({ method: 'GET', url: `/api/v1/agents/${1}?include=tickets`, token }), 400)
        assert.match(view.message, /tickets/)
        assert.match(view.message, /resolved-tickets-count/)
      })

      it('names an unknown sort and an unknown filter', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const sort = expectError(await h.inject({ method: 'GET', url: '/api/v1/categories?sort=-colour', token }), 400)
        assert.match(sort.message, /colour/)
        assert.match(sort.message, /order, name/)
        const filter = expectError(await h.inject({ method: 'GET', url: '/api/v1/customers?filter[phone]=1', token }), 400)
        assert.match(filter.message, /phone/)
        assert.match(filter.message, /first_name/)
        assert.match(filter.message, /status/)
        expectError(await h.inject({ method: 'GET', url: '/api/v1/customers?sort=email', token }), 400)
      })
    })

    describe('bad pages (422)', () => {
      it('rejects page 0, negative, fractional and non-numeric pages, and per_page out of 1..100', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        for (const page of ['0', '-1', 'abc', '1.5']) {
          expectValidation(await h.inject({ method: 'GET', url: `/api/v1/customers?page=${page}`, token }), 'page')
        }
        for (const perPage of ['0', '101', '-5', 'many']) {
          expectValidation(await h.inject({ method: 'GET', url: `/api/v1/categories?per_page=${perPage}`, token }), 'per_page')
        }
        expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers?page=1&per_page=100', token }), 200)
      })
    })

    describe('request bodies', () => {
      it('answers malformed JSON with 400 { message }', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const res = await h.inject({ method: 'POST', url: '/api/v1/categories', token, headers: { 'content-type': 'application/json' }, payload: '{"name": "Billing",' })
        const body = expectError(res, 400)
        assert.deepEqual(Object.keys(body), ['message'])
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/categories', token }), 200)
        assert.equal(list.meta.total, 0)
      })

      it('names each required field when the body is missing altogether', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        expectValidation(await h.inject({ method: 'DELETE', url: '/api/v1/canned-responses', token }), 'responses')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/categories/order', token }), 'order')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token }), 'first_name', 'last_name', 'email', 'password')
        expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token }), 201)
      })

      it('answers a body of the wrong type or media type with 4xx { message }', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/categories', token, payload: [1, 2] }), 'body')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/categories', token, headers: { 'content-type': 'text/plain' }, payload: 'name=x' }), 'body')
        expectError(await h.inject({ method: 'POST', url: '/api/v1/categories', token, headers: { 'content-type': 'application/xml' }, payload: '<name>x</name>' }), 415)
        const huge = { note: 'x'.repeat(2 * 1024 * 1024) }
        const customer = await h.user('customer')
        expectError(await h.inject({ method: 'POST', url: `/api/v1/customers/${customer.user.id}/notes`, token, payload: huge }), 413)
      })

      it('reports every bad field at once, with dotted keys for nested values', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const errors = expectValidation(
          await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { first_name: '', last_name: 5, email: 'x', password: '1' } }),
          'first_name', 'last_name', 'email', 'password'
        )
        assert.deepEqual(errors.last_name, ['The last name must be a string.'])
        const agent = await h.user('agent')
        expectValidation(await h.inject({ method: 'PUT', url: `/api/v1/agents/${agent.user.id}/categories`, token, payload: { categories: [1, 'two', 0] } }), 'categories.1', 'categories.2')
      })
    })

    describe('no credentials (401)', () => {
      it('comes before any check of the request, so an anonymous caller learns nothing about bodies or ids', async (t) => {
        const h = await buildApp(t, dialect)
        for (const request of [
          { method: 'POST', url: '/api/v1/customers', payload: {} },
          { method: 'POST', url: '/api/v1/categories', payload: { name: 'x'.repeat(300) } },
          { method: 'PUT', url: '/api/v1/agents/1/categories', payload: { categories: 'all' } },
          { method: 'GET', url: '/api/v1/customers?page=0' },
          { method: 'GET', url: '/api/v1/customers/abc' }
        ] as const) {
          assert.deepEqual(expectStatus(await h.inject(request), 401), { message: 'Unauthenticated.' }, `${request.method} ${request.url}`)
        }
      })
    })

    describe('union and nullable fields (422)', () => {
      it('reports the failure of the branch the value was meant for, once', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const post = async (url: string, payload: object) => await h.inject({ method: 'POST', url, token, payload })
        assert.deepEqual(expectValidation(await post('/api/v1/auth/tokens', { name: 'n'.repeat(101) }), 'name'), { name: ['The name may not be greater than 100 characters.'] })
        assert.deepEqual(expectValidation(await post('/api/v1/auth/tokens', { name: 5 }), 'name'), { name: ['The name must be a string or null.'] })
        assert.deepEqual(expectValidation(await post('/api/v1/categories/order', { order: 'A' }), 'order'), { order: ['The order must be an array or an object.'] })
        assert.deepEqual(expectValidation(await post('/api/v1/categories/order', { order: [0] }), 'order.0'), { 'order.0': ['The order must be at least 1.'] })
        assert.deepEqual(
          expectValidation(await post('/api/v1/categories', { name: 'x', purchase_verification: 7 }), 'purchase_verification'),
          { purchase_verification: ['The selected purchase verification is invalid.'] }
        )
      })
    })

    describe('missing things (404)', () => {
      it('answers unknown routes under the prefix with 404 { message }', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        for (const request of [
          { method: 'GET', url: '/api/v1/nothing-here' },
          { method: 'GET', url: '/api/v1/nothing-here', token },
          { method: 'DELETE', url: '/api/v1/auth/me', token },
          { method: 'GET', url: '/api/v1/customers/abc', token },
          { method: 'GET', url: '/api/v1/customers/99999999999', token },
          { method: 'GET', url: '/api/v1/customers/0', token }
        ] as const) {
          const body = expectError(await h.inject(request), 404)
          assert.deepEqual(Object.keys(body), ['message'], `${request.method} ${request.url}`)
        }
      })
    })

    describe('unexpected failures (500)', () => {
      it('answers { message } without internals', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        Object.assign(h.store.users, { list: async () => { throw new Error('boom at /srv/secret/path.ts:42') } })
        const res = await h.inject({ method: 'GET', url: '/api/v1/customers', token })
        const body = expectError(res, 500)
        assert.deepEqual(Object.keys(body), ['message'])
        assert.ok(!res.body.includes('secret') && !res.body.includes('boom'), res.body)
      })
    })

    describe('every response', () => {
      it('is JSON with charset utf-8 and carries nosniff', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        for (const request of [
          { method: 'GET', url: '/api/v1/auth/me', token },
          { method: 'GET', url: '/api/v1/auth/me' },
          { method: 'GET', url: '/api/v1/customers?page=0', token },
          { method: 'GET', url: '/api/v1/customers?include=x', token },
          { method: 'GET', url: '/api/v1/missing', token },
          { method: 'POST', url: '/api/v1/auth/logout', token }
        ] as const) {
          const res = await h.inject(request)
          assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', `${request.method} ${request.url}`)
          assert.equal(res.headers['x-content-type-options'], 'nosniff')
          assert.equal(typeof res.json(), 'object')
        }
      })
    })
  })
})
