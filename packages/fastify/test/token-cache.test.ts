import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { createHelpdesk, SYSTEM } from '@helpdesk/core'
import { createKnexStore } from '@helpdesk/store-knex'
import helpdeskPlugin from '../src/index.js'
import { buildApp, eachDialect, testHasher, type TestApp } from './helpers.js'
import { expectStatus, expectUnauthenticated } from './http-assertions.js'

const me = async (h: Pick<TestApp, 'inject'>, token: string) => await h.inject({ method: 'GET', url: '/api/v1/auth/me', token })

/** Two requests, so the token is cached before the test revokes it. */
async function warm (h: Pick<TestApp, 'inject'>, token: string): Promise<void> {
  for (let i = 0; i < 2; i++) expectStatus(await me(h, token), 200)
}

/** The database URL `h` runs on, for a second instance. */
function databaseUrl (h: TestApp): string {
  const connection = (h.store.knex.client as { config: { connection: { filename?: string, connectionString?: string } } }).config.connection
  return connection.filename !== undefined ? `sqlite:${connection.filename}` : String(connection.connectionString)
}

/** Another instance of the help desk (its own store, services and token cache) on the same database. */
async function secondInstance (t: TestContext, h: TestApp): Promise<Pick<TestApp, 'inject'>> {
  const store = createKnexStore({ url: databaseUrl(h) })
  const app = Fastify({ logger: false })
  await app.register(helpdeskPlugin, { helpdesk: createHelpdesk({ store, hasher: testHasher }), rateLimit: false })
  await app.ready()
  t.after(async () => { await app.close(); await store.close() })
  return {
    inject: async ({ token, ...options }) =>
      await app.inject({ ...options, headers: { ...(options.headers ?? {}), ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) } })
  }
}

eachDialect((dialect) => {
  describe(`token lookups cached, revocations at once, on ${dialect}`, () => {
    it('looks a token up once, then only checks the auth revision', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('agent')
      const statements: string[] = []
      h.store.knex.on('query', (query: { sql: string }) => { statements.push(query.sql) })
      expectStatus(await me(h, token), 200)
      assert.equal(statements.filter((sql) => sql.includes('api_tokens')).length, 1)
      statements.length = 0
      expectStatus(await me(h, token), 200)
      assert.deepEqual(statements.filter((sql) => sql.includes('api_tokens')), [])
      assert.equal(statements.filter((sql) => sql.includes('auth_revision')).length, 1)
    })

    it('refuses a token on the very next request after logout, deletion of the token, a ban, a password change or deletion of the user', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')

      const loggedOut = await h.user('customer')
      await warm(h, loggedOut.token)
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/logout', token: loggedOut.token }), 200)
      expectUnauthenticated(await me(h, loggedOut.token))

      const revoked = await h.user('agent')
      await warm(h, revoked.token)
      const [listed] = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens', token: revoked.token }), 200).data
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/auth/tokens/${listed.id as number}`, token: revoked.token }), 200)
      expectUnauthenticated(await me(h, revoked.token))

      const banned = await h.user('customer')
      await warm(h, banned.token)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${banned.user.id}`, token: admin.token, payload: { status: 3 } }), 200)
      expectUnauthenticated(await me(h, banned.token))
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${banned.user.id}`, token: admin.token, payload: { status: 1 } }), 200)
      expectStatus(await me(h, banned.token), 200)

      const rekeyed = await h.user('customer')
      await warm(h, rekeyed.token)
      expectStatus(await h.inject({
        method: 'PATCH', url: `/api/v1/customers/${rekeyed.user.id}`, token: admin.token, payload: { new_password: 'another-secret', new_password_confirmation: 'another-secret' }
      }), 200)
      expectUnauthenticated(await me(h, rekeyed.token))

      const deleted = await h.user('customer')
      await warm(h, deleted.token)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${deleted.user.id}`, token: admin.token }), 200)
      expectUnauthenticated(await me(h, deleted.token))
      await warm(h, admin.token)
    })

    it('applies a changed name, permission or set of categories on the next request', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const agent = await h.user('agent')
      const customer = await h.user('customer')
      const category = (await h.helpdesk.categories.create(SYSTEM, { name: 'Refunds' })).id
      const ticket = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: customer.token, payload: { category, title: 'Money back', body: 'Please.' } }), 201).data
      const listed = async (): Promise<number> => expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets', token: agent.token }), 200).meta.total
      assert.equal(await listed(), 0)
      assert.equal(await listed(), 0)
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/agents/${agent.user.id}/categories`, token: admin.token, payload: { categories: [category] } }), 200)
      assert.equal(await listed(), 1)
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id as number}`, token: agent.token }), 200)
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/agents/${agent.user.id}/categories`, token: admin.token, payload: { categories: [] } }), 200)
      assert.equal(await listed(), 0)
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id as number}`, token: agent.token }), 404)
      await warm(h, agent.token)
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers', token: agent.token }), 403)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.user.id}/permissions`, token: admin.token, payload: { manage_customers: true } }), 200)
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers', token: agent.token }), 200)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.user.id}`, token: admin.token, payload: { first_name: 'Renamed' } }), 200)
      assert.equal(expectStatus(await me(h, agent.token), 200).data.first_name, 'Renamed')
    })

    it('refuses at once, on another instance sharing the database, a token revoked or a user banned on the first', async (t) => {
      const h = await buildApp(t, dialect)
      const other = await secondInstance(t, h)
      const admin = await h.user('admin')
      const customer = await h.user('customer')
      const agent = await h.user('agent')
      for (const instance of [h, other]) {
        await warm(instance, customer.token)
        await warm(instance, agent.token)
      }
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/logout', token: customer.token }), 200)
      expectUnauthenticated(await me(other, customer.token))
      expectStatus(await other.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.user.id}`, token: admin.token, payload: { status: 3 } }), 200)
      expectUnauthenticated(await me(h, agent.token))
      expectUnauthenticated(await me(other, agent.token))
    })
  })
})
