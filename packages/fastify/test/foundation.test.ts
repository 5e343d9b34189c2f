import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'

eachDialect((dialect) => {
  describe(`foundation on ${dialect}`, () => {
    it('logs in and reads me', async (t) => {
      const h = await buildApp(t, dialect)
      const { user } = await h.user('admin', { email: 'Boss@Example.com', password: 'secret123' })
      const login = await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'boss@example.com', password: 'secret123' } })
      assert.equal(login.statusCode, 200, login.body)
      const token = login.json().data.token as string
      const me = await h.inject({ method: 'GET', url: '/api/v1/auth/me', token })
      assert.equal(me.statusCode, 200)
      assert.deepEqual(me.json().data.id, user.id)
      assert.equal(me.json().data.type, 'admin')
    })
  })
})
