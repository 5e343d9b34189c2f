import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createTestDatabase, testDialects } from '@helpdesk/store-knex'
import { SYSTEM } from '@helpdesk/core'
import helpdesk, { helpdeskErrors, isHelpdeskError, NotFoundError, ValidationError } from '@helpdesk/fastify'
import { buildHostApp } from '../src/app.js'

async function login (app: Awaited<ReturnType<typeof buildHostApp>>['app'], username: string, password: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/login', payload: { username, password } })
  assert.equal(response.statusCode, 200)
  const cookie = response.cookies.find((c) => c.name === 'session')
  assert.ok(cookie !== undefined)
  return `session=${cookie.value}`
}

for (const dialect of testDialects()) {
  describe(`embedding in a host Fastify app on ${dialect}`, () => {
    it('drives a ticket through the host session', async (t) => {
      const db = await createTestDatabase(dialect)
      const { app } = await buildHostApp({ databaseUrl: db.url })
      t.after(async () => { await app.close(); await db.drop() })
      const category = await app.helpdesk.categories.create(SYSTEM, { name: 'Orders' })

      const anonymous = await app.inject({ method: 'GET', url: '/support/api/tickets' })
      assert.equal(anonymous.statusCode, 401)

      const bob = await login(app, 'bob', 'bob-pass')
      const me = await app.inject({ method: 'GET', url: '/support/api/auth/me', headers: { cookie: bob } })
      assert.equal(me.statusCode, 200)
      assert.equal(me.json().data.type, 'customer')
      assert.equal(me.json().data.email, 'bob@host.example')

      const created = await app.inject({
        method: 'POST', url: '/support/api/tickets', headers: { cookie: bob },
        payload: { category: category.id, title: 'Where is my order?', body: '<p>It has been a week.</p>' }
      })
      assert.equal(created.statusCode, 201, created.body)
      const ticket = created.json().data as { id: number, status: number }
      assert.equal(ticket.status, 1)

      const alice = await login(app, 'alice', 'alice-pass')
      const list = await app.inject({ method: 'GET', url: '/support/api/tickets?include=user', headers: { cookie: alice } })
      assert.equal(list.statusCode, 200)
      assert.deepEqual(list.json().data.map((x: { id: number }) => x.id), [ticket.id])
      assert.equal(list.json().data[0].user.email, 'bob@host.example')

      const reply = await app.inject({
        method: 'POST', url: `/support/api/tickets/${ticket.id}/comments`, headers: { cookie: alice },
        payload: { body: 'It ships today.', type: 1, private: false }
      })
      assert.equal(reply.statusCode, 201, reply.body)

      const seen = await app.inject({ method: 'GET', url: `/support/api/tickets/${ticket.id}?include=last_reply`, headers: { cookie: bob } })
      assert.equal(seen.statusCode, 200)
      assert.equal(seen.json().data.status, 2)
      assert.match(seen.json().data.last_reply.body, /ships today/)

      const forged = await app.inject({ method: 'GET', url: '/support/api/auth/me', headers: { cookie: 'session=bob' } })
      assert.equal(forged.statusCode, 401, 'an unsigned cookie is not a session')
    })

    it('leaks nothing into the host app', async (t) => {
      const db = await createTestDatabase(dialect)
      const { app } = await buildHostApp({ databaseUrl: db.url })
      t.after(async () => { await app.close(); await db.drop() })
      assert.equal(app.hasRequestDecorator('actor'), false)
      assert.equal(app.hasDecorator('helpdesk'), true, 'the services are exposed to the host on purpose')
      const hostMissing = await app.inject({ method: 'GET', url: '/not-a-host-route' })
      assert.equal(hostMissing.statusCode, 404)
      assert.equal(hostMissing.json().error, 'Not Found', 'the host keeps its own 404 handler')
      const badLogin = await app.inject({ method: 'POST', url: '/login', payload: { username: 'bob', password: 'nope' } })
      assert.deepEqual(badLogin.json(), { error: 'bad login' }, 'the host keeps its own error shapes')
      assert.equal(badLogin.headers['x-ratelimit-limit'], undefined)
    })

    it('is a fastify-plugin with a name and a Fastify version, and exposes its error classes', async () => {
      assert.deepEqual((helpdesk as unknown as Record<symbol, unknown>)[Symbol.for('plugin-meta')], { name: '@helpdesk/fastify', fastify: '5.x' })
      assert.equal(helpdeskErrors.HD_NOT_FOUND, NotFoundError)
      const db = await createTestDatabase(dialect)
      const { app } = await buildHostApp({ databaseUrl: db.url })
      try {
        // A host calling the services directly gets the same errors the HTTP API maps to statuses.
        const invalid = await app.helpdesk.categories.create(SYSTEM, { name: '' }).catch((error: unknown) => error)
        assert.ok(isHelpdeskError(invalid, 'HD_VALIDATION'), String(invalid))
        assert.ok(invalid instanceof ValidationError)
        assert.equal(invalid.statusCode, 422)
        assert.deepEqual(Object.keys(invalid.errors), ['name'])
      } finally {
        await app.close()
        await db.drop()
      }
    })
  })
}
