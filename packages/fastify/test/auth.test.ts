import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { UserStatus } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'

const PERSON_KEYS = ['avatar', 'email', 'first_name', 'id', 'last_name', 'type']

async function login (h: TestApp, email: string, password: string) {
  return await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } })
}

async function me (h: TestApp, token: string) {
  return await h.inject({ method: 'GET', url: '/api/v1/auth/me', token })
}

eachDialect((dialect) => {
  describe(`auth on ${dialect}`, () => {
    describe('POST /auth/login', () => {
      it('returns a token and the user in the contract shape, and records the login', async (t) => {
        const h = await buildApp(t, dialect)
        const { user } = await h.user('agent', { email: 'ann@example.com', password: 'secret123', first_name: 'Ann', last_name: 'Lee' })
        const body = expectStatus(await login(h, '  ANN@example.com ', 'secret123'), 200)
        assert.deepEqual(keysOf(body), ['data'])
        assert.deepEqual(keysOf(body.data), ['token', 'user'])
        assert.deepEqual(keysOf(body.data.user), PERSON_KEYS)
        assert.deepEqual(
          { ...body.data.user, avatar: undefined },
          { id: user.id, type: 'agent', first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com', avatar: undefined }
        )
        assert.match(body.data.user.avatar, /^https:\/\//)
        assert.equal(typeof body.data.token, 'string')
        assert.ok(body.data.token.length >= 43, 'a token carries at least 32 bytes')
        const stored = await h.store.users.findById(user.id)
        assert.match(String(stored?.last_login_at), DATETIME)
        assert.equal(expectStatus(await me(h, body.data.token), 200).data.id, user.id)
      })

      it('answers 422 on email for a wrong password and for an unknown email alike', async (t) => {
        const h = await buildApp(t, dialect)
        await h.user('customer', { email: 'carl@example.com', password: 'secret123' })
        const wrong = expectValidation(await login(h, 'carl@example.com', 'secret124'), 'email')
        const unknown = expectValidation(await login(h, 'nobody@example.com', 'secret123'), 'email')
        assert.deepEqual(wrong, unknown, 'the answer does not reveal which emails exist')
      })

      it('rejects a body without email or password', async (t) => {
        const h = await buildApp(t, dialect)
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: {} }), 'email', 'password')
      })

      it('refuses banned users, and their existing tokens stop working', async (t) => {
        const h = await buildApp(t, dialect)
        const { user, token } = await h.user('customer', { email: 'bad@example.com', password: 'secret123' })
        expectStatus(await me(h, token), 200)
        await h.store.users.update(user.id, { status: UserStatus.Banned })
        expectValidation(await login(h, 'bad@example.com', 'secret123'), 'email')
        expectUnauthenticated(await me(h, token))
      })

      it('lets staff ban and unban through PATCH status; a ban locks the user out at once', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const customer = await h.user('customer', { email: 'banme@example.com', password: 'secret123' })
        const agent = await h.user('agent', { email: 'banagent@example.com', password: 'secret123' })
        const banned = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${customer.user.id}`, token: admin.token, payload: { status: 3 } }), 200)
        assert.equal(banned.data.status, 3)
        expectUnauthenticated(await me(h, customer.token))
        expectValidation(await login(h, 'banme@example.com', 'secret123'), 'email')
        expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.user.id}`, token: admin.token, payload: { status: 3 } }), 200)
        expectUnauthenticated(await me(h, agent.token))

        expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${customer.user.id}`, token: admin.token, payload: { status: 1 } }), 200)
        expectStatus(await me(h, customer.token), 200)
        expectStatus(await login(h, 'banme@example.com', 'secret123'), 200)

        expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${customer.user.id}`, token: admin.token, payload: { status: 4 } }), 'status')
        expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${admin.user.id}`, token: admin.token, payload: { status: 3 } }), 'status')
        expectStatus(await me(h, admin.token), 200)
      })

      it('does not let an Unconfirmed customer without a password log in', async (t) => {
        const h = await buildApp(t, dialect)
        await h.store.users.create({
          role: 3, first_name: 'Implicit', last_name: 'Customer', email: 'implicit@example.com', status: UserStatus.Unconfirmed, password_hash: null
        })
        expectValidation(await login(h, 'implicit@example.com', 'anything'), 'email')
      })
    })

    describe('POST /auth/logout', () => {
      it('revokes the presented token only', async (t) => {
        const h = await buildApp(t, dialect)
        const { user, token: other } = await h.user('customer', { email: 'two@example.com', password: 'secret123' })
        const token = expectStatus(await login(h, 'two@example.com', 'secret123'), 200).data.token
        assert.deepEqual(expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/logout', token }), 200), { success: true })
        expectUnauthenticated(await me(h, token))
        expectUnauthenticated(await h.inject({ method: 'POST', url: '/api/v1/auth/logout', token }))
        assert.equal(expectStatus(await me(h, other), 200).data.id, user.id)
      })

      it('needs a token', async (t) => {
        const h = await buildApp(t, dialect)
        expectUnauthenticated(await h.inject({ method: 'POST', url: '/api/v1/auth/logout' }))
      })
    })

    describe('GET /auth/me', () => {
      it('gives each role its type', async (t) => {
        const h = await buildApp(t, dialect)
        for (const role of ['admin', 'agent', 'customer'] as const) {
          const { user, token } = await h.user(role)
          const body = expectStatus(await me(h, token), 200)
          assert.deepEqual(keysOf(body.data), PERSON_KEYS)
          assert.equal(body.data.type, role)
          assert.equal(body.data.id, user.id)
          assert.equal(body.data.email, user.email)
        }
      })

      it('answers 401 { message: "Unauthenticated." } without a token, with an unknown one, or another scheme', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me' }))
        expectUnauthenticated(await me(h, 'hd_not-a-real-token'))
        expectUnauthenticated(await me(h, `${token}x`))
        expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Basic ${token}` } }))
        expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: 'Bearer' } }))
      })
    })

    describe('POST /auth/register', () => {
      const registration = { first_name: 'New', last_name: 'Person', email: 'new@example.com', password: 'secret123', password_confirmation: 'secret123' }

      it('creates an Active customer and signs them in', async (t) => {
        const h = await buildApp(t, dialect)
        // Fields a client may not set are ignored, whatever it sends.
        const res = await h.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { ...registration, role: 1, status: 3 } })
        const body = expectStatus(res, 201)
        assert.deepEqual(keysOf(body.data), ['token', 'user'])
        assert.deepEqual(keysOf(body.data.user), PERSON_KEYS)
        assert.equal(body.data.user.type, 'customer')
        const stored = await h.store.users.findById(body.data.user.id)
        assert.equal(stored?.role, 3)
        assert.equal(stored?.status, UserStatus.Active)
        assert.equal(expectStatus(await me(h, body.data.token), 200).data.email, 'new@example.com')
        expectStatus(await login(h, 'new@example.com', 'secret123'), 200)
      })

      it('checks the password, its confirmation and the email, and writes nothing on failure', async (t) => {
        const h = await buildApp(t, dialect)
        const register = async (payload: object) => await h.inject({ method: 'POST', url: '/api/v1/auth/register', payload })
        expectValidation(await register({ ...registration, password_confirmation: 'secret124' }), 'password')
        expectValidation(await register({ ...registration, password_confirmation: undefined }), 'password')
        expectValidation(await register({ ...registration, password: 'five5', password_confirmation: 'five5' }), 'password')
        expectValidation(await register({ ...registration, email: 'not-an-email' }), 'email')
        expectValidation(await register({ ...registration, first_name: 'x'.repeat(251) }), 'first_name')
        assert.equal(await h.store.users.findByEmail('new@example.com'), null)
        expectStatus(await register(registration), 201)
        expectValidation(await register({ ...registration, email: 'NEW@example.com' }), 'email')
      })

      it('can be switched off with the plugin option `registration: false`', async (t) => {
        const h = await buildApp(t, dialect, { registration: false })
        expectError(await h.inject({ method: 'POST', url: '/api/v1/auth/register', payload: registration }), 403)
        assert.equal(await h.store.users.findByEmail('new@example.com'), null)
      })
    })

    describe('API tokens', () => {
      it('lists the caller\'s own tokens, login tokens included, without secrets', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('agent', { email: 'tok@example.com', password: 'secret123' })
        await h.user('agent')
        expectStatus(await login(h, 'tok@example.com', 'secret123'), 200)
        const body = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens', token }), 200)
        assert.deepEqual(keysOf(body), ['data', 'links', 'meta'], 'paged like every list')
        assert.deepEqual(body.data.map((k: { name: string }) => k.name), ['test', 'login'])
        const named = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens?filter[name]=LOG&per_page=1', token }), 200)
        assert.deepEqual(named.data.map((k: { name: string }) => k.name), ['login'])
        assert.equal(named.meta.total, 1)
        const newest = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens?sort=-id&per_page=1', token }), 200)
        assert.deepEqual(newest.data.map((k: { name: string }) => k.name), ['login'])
        assert.match(newest.links.next, /page=2/)
        for (const key of body.data) {
          assert.deepEqual(keysOf(key), ['created_at', 'id', 'name'])
          assert.match(key.created_at, DATETIME)
        }
      })

      it('creates a token shown once and stored only as a hash', async (t) => {
        const h = await buildApp(t, dialect)
        const { user, token } = await h.user('customer')
        const body = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token, payload: { name: 'CI' } }), 201)
        assert.deepEqual(keysOf(body.data), ['created_at', 'id', 'name', 'token'])
        assert.equal(body.data.name, 'CI')
        const issued = body.data.token as string
        assert.equal(expectStatus(await me(h, issued), 200).data.id, user.id)

        const rows = await h.store.knex('api_tokens').where('user_id', user.id) as Array<Record<string, unknown>>
        const row = rows.find((r) => r.id === body.data.id)
        assert.ok(row !== undefined)
        assert.ok(!Object.values(row).some((v) => typeof v === 'string' && v.includes(issued)), 'the token itself is not stored')
        assert.equal(row.token_hash, createHash('sha256').update(issued).digest('hex'))

        const listed = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens', token }), 200)
        assert.ok(!JSON.stringify(listed).includes(issued), 'the token is shown only once')
      })

      it('takes an optional name and limits its length', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('customer')
        assert.equal(expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token }), 201).data.name, null)
        assert.equal(expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token, payload: {} }), 201).data.name, null)
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token, payload: { name: 'n'.repeat(101) } }), 'name')
      })

      it('deletes only the caller\'s own tokens (another user\'s id is 404)', async (t) => {
        const h = await buildApp(t, dialect)
        const mine = await h.user('agent')
        const theirs = await h.user('agent')
        const created = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token: mine.token, payload: { name: 'spare' } }), 201).data
        const theirTokens = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens', token: theirs.token }), 200).data

        expectError(await h.inject({ method: 'DELETE', url: `/api/v1/auth/tokens/${theirTokens[0].id}`, token: mine.token }), 404)
        expectStatus(await me(h, theirs.token), 200)
        expectError(await h.inject({ method: 'DELETE', url: '/api/v1/auth/tokens/999999', token: mine.token }), 404)

        assert.deepEqual(expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/auth/tokens/${created.id}`, token: mine.token }), 200), { success: true })
        expectUnauthenticated(await me(h, created.token))
        expectStatus(await me(h, mine.token), 200)
      })
    })

    describe('changing a password', () => {
      it('revokes every token of that user; the new password logs in', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const customer = await h.user('customer', { email: 'cpw@example.com', password: 'secret123' })
        const agent = await h.user('agent', { email: 'apw@example.com', password: 'secret123' })
        const patch = { new_password: 'changed1', new_password_confirmation: 'changed1' }

        expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${customer.user.id}`, token: admin.token, payload: patch }), 200)
        expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.user.id}`, token: admin.token, payload: patch }), 200)

        expectUnauthenticated(await me(h, customer.token))
        expectUnauthenticated(await me(h, agent.token))
        expectStatus(await me(h, admin.token), 200)
        expectValidation(await login(h, 'cpw@example.com', 'secret123'), 'email')
        expectStatus(await login(h, 'cpw@example.com', 'changed1'), 200)
        expectStatus(await login(h, 'apw@example.com', 'changed1'), 200)
      })

      it('keeps the tokens when the update changes no password', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const customer = await h.user('customer')
        expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${customer.user.id}`, token: admin.token, payload: { company: 'Acme' } }), 200)
        expectStatus(await me(h, customer.token), 200)
      })
    })

    describe('the host `authenticate` option', () => {
      it('maps a host session to a user by id or by email, and falls back to bearer tokens', async (t) => {
        const h = await buildApp(t, dialect, {
          authenticate: (request) => {
            const id = request.headers['x-host-user-id']
            const email = request.headers['x-host-user-email']
            if (typeof id === 'string') return { id: Number(id) }
            if (typeof email === 'string') return { email }
            return null
          }
        })
        const agent = await h.user('agent', { email: 'host-agent@example.com' })
        const customer = await h.user('customer')

        const byId = await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { 'x-host-user-id': String(agent.user.id) } })
        assert.equal(expectStatus(byId, 200).data.id, agent.user.id)
        const byEmail = await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { 'x-host-user-email': 'HOST-AGENT@example.com' } })
        assert.equal(expectStatus(byEmail, 200).data.id, agent.user.id)
        assert.equal(expectStatus(await me(h, customer.token), 200).data.id, customer.user.id)

        expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { 'x-host-user-id': '999999' } }))
        expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { 'x-host-user-email': 'ghost@example.com' } }))
        expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me' }))

        await h.store.users.update(agent.user.id, { status: UserStatus.Banned })
        expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { 'x-host-user-id': String(agent.user.id) } }))
      })

      it('gives the host user the same rights as a token would', async (t) => {
        const h = await buildApp(t, dialect, {
          authenticate: (request) => typeof request.headers['x-host-user-id'] === 'string' ? { id: Number(request.headers['x-host-user-id']) } : null
        })
        const admin = await h.user('admin')
        const customer = await h.user('customer')
        expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers', headers: { 'x-host-user-id': String(admin.user.id) } }), 200)
        expectError(await h.inject({ method: 'GET', url: '/api/v1/customers', headers: { 'x-host-user-id': String(customer.user.id) } }), 403)
      })
    })
  })
})
