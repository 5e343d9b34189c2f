import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'
import { getData, ids } from './knowledge-base-fixtures.js'

const KEYS = ['body', 'created_at', 'global', 'id', 'name', 'updated_at', 'user_id']

async function create (h: TestApp, token: string, payload: object): Promise<any> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/canned-responses', token, payload }), 201).data
}

async function bulkDelete (h: TestApp, token: string, payload: object) {
  return await h.inject({ method: 'DELETE', url: '/api/v1/canned-responses', token, payload })
}

async function existing (h: TestApp): Promise<number[]> {
  const rows = await h.store.knex('canned_responses').select('id').orderBy('id') as Array<{ id: number }>
  return rows.map((r) => r.id)
}

eachDialect((dialect) => {
  describe(`canned responses on ${dialect}`, () => {
    it('creates, views and updates partially (PATCH and POST), sanitising the body', async (t) => {
      const h = await buildApp(t, dialect)
      const agent = await h.user('agent')
      const created = await create(h, agent.token, { name: ' Greeting ', body: '<p onclick="x()">Hi {{ customer.first_name }}</p><script>alert(1)</script>' })
      assert.deepEqual(keysOf(created), KEYS)
      assert.deepEqual(
        [created.name, created.body, created.global, created.user_id],
        ['Greeting', '<p>Hi {{ customer.first_name }}</p>', false, agent.user.id]
      )
      assert.match(created.created_at, DATETIME)
      assert.deepEqual(await getData(h, `/canned-responses/${created.id}`, agent.token), created)
      const renamed = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/canned-responses/${created.id}`, token: agent.token, payload: { name: 'Hello' } }), 200).data
      assert.deepEqual([renamed.name, renamed.body, renamed.global], ['Hello', created.body, false])
      const shared = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/canned-responses/${created.id}`, token: agent.token, payload: { global: true } }), 200).data
      assert.deepEqual([shared.name, shared.global], ['Hello', true])
      expectError(await h.inject({ method: 'PATCH', url: '/api/v1/canned-responses/999999', token: agent.token, payload: { name: 'x' } }), 404)
    })

    it('validates name and body, writing nothing on failure', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const post = async (payload: object) => await h.inject({ method: 'POST', url: '/api/v1/canned-responses', token, payload })
      expectValidation(await post({}), 'name', 'body')
      expectValidation(await post({ name: '  ', body: 'x' }), 'name')
      expectValidation(await post({ name: 'n'.repeat(251), body: 'x' }), 'name')
      expectValidation(await post({ name: 'Ok', body: '   ' }), 'body')
      expectValidation(await post({ name: 'Ok', body: '<script>alert(1)</script>' }), 'body')
      expectValidation(await post({ name: 'Ok', body: 'x', global: 'yes' }), 'global')
      assert.deepEqual(await existing(h), [])
      const ok = await create(h, token, { name: 'n'.repeat(250), body: 'x' })
      expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/canned-responses/${ok.id}`, token, payload: { name: '', body: '' } }), 'name', 'body')
      assert.equal((await getData(h, `/canned-responses/${ok.id}`, token)).body, 'x')
    })

    it('shows agents their own and the global ones, administrators all; customers get 403', async (t) => {
      const h = await buildApp(t, dialect)
      const a = await h.user('agent')
      const b = await h.user('agent')
      const admin = await h.user('admin')
      const a1 = await create(h, a.token, { name: 'A personal', body: 'x' })
      const a2 = await create(h, a.token, { name: 'A global', body: 'x', global: true })
      const b1 = await create(h, b.token, { name: 'B personal', body: 'x' })
      const b2 = await create(h, b.token, { name: 'B global', body: 'x', global: true })
      const m1 = await create(h, admin.token, { name: 'Admin personal', body: 'x' })
      const sorted = async (token: string) => ids(await getData(h, '/canned-responses', token)).sort((x, y) => x - y)
      assert.deepEqual(await sorted(a.token), [a1.id, a2.id, b2.id])
      assert.deepEqual(await sorted(b.token), [a2.id, b1.id, b2.id])
      assert.deepEqual(await sorted(admin.token), [a1.id, a2.id, b1.id, b2.id, m1.id])
      expectError(await h.inject({ method: 'GET', url: `/api/v1/canned-responses/${b1.id}`, token: a.token }), 404)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/canned-responses/${m1.id}`, token: a.token }), 404)
      assert.equal((await getData(h, `/canned-responses/${b2.id}`, a.token)).name, 'B global')
      // Only the creator or an administrator changes one.
      expectError(await h.inject({ method: 'PATCH', url: `/api/v1/canned-responses/${b2.id}`, token: a.token, payload: { name: 'Mine' } }), 403)
      expectError(await h.inject({ method: 'DELETE', url: `/api/v1/canned-responses/${b2.id}`, token: a.token }), 403)
      expectError(await h.inject({ method: 'PATCH', url: `/api/v1/canned-responses/${b1.id}`, token: a.token, payload: { name: 'Mine' } }), 404)
      assert.equal(expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/canned-responses/${b1.id}`, token: admin.token, payload: { name: 'Edited' } }), 200).data.name, 'Edited')
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/canned-responses/${b2.id}`, token: admin.token }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/canned-responses/${a1.id}`, token: a.token }), 200)
      assert.deepEqual(await existing(h), [a2.id, b1.id, m1.id])
      const customer = await h.user('customer')
      expectError(await h.inject({ method: 'GET', url: '/api/v1/canned-responses', token: customer.token }), 403)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/canned-responses/${a2.id}`, token: customer.token }), 403)
      expectError(await h.inject({ method: 'POST', url: '/api/v1/canned-responses', token: customer.token, payload: { name: 'x', body: 'x' } }), 403)
      expectError(await bulkDelete(h, customer.token, { responses: [a2.id] }), 403)
      expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/canned-responses' }))
    })

    it('lists newest first by default, sorts by created_at, and filters content over name and body', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const refund = await create(h, token, { name: 'Refund policy', body: 'See our terms.' })
      const terms = await create(h, token, { name: 'Terms', body: 'We offer a REFUND within 30 days.' })
      const other = await create(h, token, { name: '100% done', body: 'Closing.' })
      const at = async (id: number, createdAt: string) => { await h.store.knex('canned_responses').where('id', id).update({ created_at: createdAt }) }
      await at(refund.id, '2030-01-01 00:00:00')
      await at(terms.id, '2020-01-01 00:00:00')
      await at(other.id, '2025-01-01 00:00:00')
      assert.deepEqual(ids(await getData(h, '/canned-responses', token)), [refund.id, other.id, terms.id])
      assert.deepEqual(ids(await getData(h, '/canned-responses?sort=created_at', token)), [terms.id, other.id, refund.id])
      assert.deepEqual(ids(await getData(h, '/canned-responses?filter[content]=refund', token)), [refund.id, terms.id])
      assert.deepEqual(ids(await getData(h, '/canned-responses?filter[content]=POLICY', token)), [refund.id])
      assert.deepEqual(ids(await getData(h, '/canned-responses?filter[content]=0%25', token)), [other.id])
      assert.deepEqual(ids(await getData(h, '/canned-responses?filter[content]=_', token)), [])
      expectError(await h.inject({ method: 'GET', url: '/api/v1/canned-responses?sort=name', token }), 400)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/canned-responses?include=user', token }), 400)
    })

    it('bulk-deletes all or nothing', async (t) => {
      const h = await buildApp(t, dialect)
      const a = await h.user('agent')
      const b = await h.user('agent')
      const admin = await h.user('admin')
      const a1 = await create(h, a.token, { name: 'a1', body: 'x' })
      const a2 = await create(h, a.token, { name: 'a2', body: 'x' })
      const b1 = await create(h, b.token, { name: 'b1', body: 'x' })
      const b2 = await create(h, b.token, { name: 'b2', body: 'x', global: true })
      const all = [a1.id, a2.id, b1.id, b2.id]
      expectValidation(await bulkDelete(h, a.token, {}), 'responses')
      expectValidation(await bulkDelete(h, a.token, { responses: [] }), 'responses')
      expectValidation(await bulkDelete(h, a.token, { responses: [a1.id, 999999] }), 'responses.1')
      expectValidation(await bulkDelete(h, a.token, { responses: [b1.id, a1.id] }), 'responses.0')
      expectError(await bulkDelete(h, a.token, { responses: [a1.id, b2.id] }), 403)
      assert.deepEqual(await existing(h), all, 'a refused bulk delete deletes nothing')
      expectStatus(await bulkDelete(h, a.token, { responses: [a1.id, a2.id, a1.id] }), 200)
      expectStatus(await bulkDelete(h, admin.token, { responses: [b1.id, b2.id] }), 200)
      assert.deepEqual(await existing(h), [])
    })
  })
})
