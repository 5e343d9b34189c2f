import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import Fastify from 'fastify'
import helpdeskPlugin, { frameworkErrors } from '../src/index.js'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectUnauthenticated } from './http-assertions.js'

type Person = Awaited<ReturnType<TestApp['user']>>

async function me (h: TestApp, token: string) {
  return await h.inject({ method: 'GET', url: '/api/v1/auth/me', token })
}

/** Several successful requests first, so any cache of the token is warm when it is revoked. */
async function warm (h: TestApp, token: string): Promise<void> {
  for (let i = 0; i < 3; i++) expectStatus(await me(h, token), 200)
}

/** Each way a token stops working, carried out over HTTP by `admin` on a `victim` of the given role. */
const revocations: Record<string, { role: 'customer' | 'agent', revoke: (h: TestApp, admin: Person, victim: Person) => Promise<void> }> = {
  'logging out': {
    role: 'customer',
    revoke: async (h, _admin, victim) => { expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/logout', token: victim.token }), 200) }
  },
  'deleting the token': {
    role: 'agent',
    revoke: async (h, _admin, victim) => {
      const tokens = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens', token: victim.token }), 200).data as Array<{ id: number }>
      for (const { id } of tokens) expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/auth/tokens/${id}`, token: victim.token }), 200)
    }
  },
  'deleting the customer': {
    role: 'customer',
    revoke: async (h, admin, victim) => { expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${victim.user.id}`, token: admin.token }), 200) }
  },
  'banning the customer': {
    role: 'customer',
    revoke: async (h, admin, victim) => { expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${victim.user.id}`, token: admin.token, payload: { status: 3 } }), 200) }
  },
  'changing the customer\'s password': {
    role: 'customer',
    revoke: async (h, admin, victim) => {
      const payload = { new_password: 'another-secret', new_password_confirmation: 'another-secret' }
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${victim.user.id}`, token: admin.token, payload }), 200)
    }
  },
  'deleting the agent': {
    role: 'agent',
    revoke: async (h, admin, victim) => { expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/agents/${victim.user.id}`, token: admin.token }), 200) }
  },
  'banning the agent': {
    role: 'agent',
    revoke: async (h, admin, victim) => { expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${victim.user.id}`, token: admin.token, payload: { status: 3 } }), 200) }
  }
}

eachDialect((dialect) => {
  describe(`authentication under attack on ${dialect}`, () => {
    it('rate-limits login attempts per email and IP by default: 429 with Retry-After, even for the right password', async (t) => {
      // The plugin's defaults, as `helpdesk serve` runs it: no test override of the limits.
      const h = await buildApp(t, dialect, { rateLimit: {} })
      await h.user('customer', { email: 'target@example.com', password: 'right-password' })
      const attempt = async (email: string, password: string, remoteAddress = '203.0.113.7') =>
        await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress })
      const statuses: number[] = []
      for (let i = 0; i < 15; i++) statuses.push((await attempt('target@example.com', `guess-${i}`)).statusCode)
      assert.deepEqual(statuses, [...Array(10).fill(422), ...Array(5).fill(429)], 'ten guesses, then refused')
      const locked = await attempt('target@example.com', 'right-password')
      expectError(locked, 429)
      const retryAfter = Number(locked.headers['retry-after'])
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${String(locked.headers['retry-after'])}`)
      // Unknown emails are limited alike: the limit tells nothing about which accounts exist.
      for (let i = 0; i < 10; i++) expectError(await attempt('nobody@example.com', 'guess'), 422)
      expectError(await attempt('nobody@example.com', 'guess'), 429)
      // The same email from another address, and another email from this one, have budgets of their own.
      expectStatus(await attempt('target@example.com', 'right-password', '198.51.100.9'), 200)
      expectError(await attempt('someone@example.com', 'guess'), 422)
    })

    it('a token stops working at once, however it is revoked', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      for (const [how, { role, revoke }] of Object.entries(revocations)) {
        await t.test(`after ${how}`, async () => {
          const victim = await h.user(role)
          const bystander = await h.user(role)
          await warm(h, victim.token)
          await warm(h, bystander.token)
          await revoke(h, admin, victim)
          expectUnauthenticated(await me(h, victim.token))
          expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/tickets', token: victim.token }))
          expectStatus(await me(h, bystander.token), 200)
        })
      }
    })

    it('a token revoked through one instance is refused at once by another sharing the database', async (t) => {
      const h = await buildApp(t, dialect)
      const other = Fastify({ logger: false, frameworkErrors })
      await other.register(helpdeskPlugin, { store: h.store, rateLimit: false, storageDir: h.storageDir })
      await other.ready()
      t.after(async () => { await other.close() })
      const admin = await h.user('admin')
      const victim = await h.user('customer')
      const onOther = async (token: string) => await other.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } })
      for (let i = 0; i < 3; i++) assert.equal((await onOther(victim.token)).statusCode, 200)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${victim.user.id}`, token: admin.token, payload: { status: 3 } }), 200)
      expectUnauthenticated(await onOther(victim.token))
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${victim.user.id}`, token: admin.token, payload: { status: 1 } }), 200)
      assert.equal((await onOther(victim.token)).statusCode, 200)
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/logout', token: victim.token }), 200)
      expectUnauthenticated(await onOther(victim.token))
    })

    it('looks tokens up by their SHA-256 digest only, and refuses any token that differs by one character', async (t) => {
      const h = await buildApp(t, dialect)
      const { user, token } = await h.user('agent')
      // Tokens are found by an index lookup of their digest, so no secret is ever compared byte by byte
      // (where a timing difference could leak how much of a guess was right); what is checkable is that
      // the store sees only the digest, stores only the digest, and that near misses fail.
      const looked: string[] = []
      const tokens = h.store.tokens
      const original = tokens.findUserByHash.bind(tokens)
      tokens.findUserByHash = async (hash: string) => { looked.push(hash); return await original(hash) }
      t.after(() => { tokens.findUserByHash = original })
      expectStatus(await me(h, token), 200)
      assert.deepEqual(looked, [createHash('sha256').update(token).digest('hex')])

      const stored = await h.store.knex('api_tokens').where('user_id', user.id).select('*') as Array<Record<string, unknown>>
      assert.equal(stored.length, 1)
      assert.equal(stored[0]?.token_hash, createHash('sha256').update(token).digest('hex'))
      assert.ok(!Object.values(stored[0] ?? {}).some((value) => typeof value === 'string' && value.includes(token.slice(3))), 'the raw token is stored nowhere')

      const flip = (c: string): string => c === 'A' ? 'B' : 'A'
      const nearMisses = [
        token.slice(0, -1) + flip(token.at(-1) ?? ''),
        flip(token[3] ?? '') + token.slice(1),
        token.slice(0, 20) + flip(token[20] ?? '') + token.slice(21),
        token.slice(0, -1),
        `${token}A`,
        token.toUpperCase(),
        token.slice(3),
        ` ${token}x`
      ]
      for (const guess of nearMisses) expectUnauthenticated(await me(h, guess))
      expectStatus(await me(h, token), 200)
    })

    it('sets X-Content-Type-Options on every answer and never X-Powered-By', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const answers = await Promise.all([
        h.inject({ method: 'GET', url: '/api/v1/auth/me', token }),
        h.inject({ method: 'GET', url: '/api/v1/auth/me' }),
        h.inject({ method: 'GET', url: '/api/v1/no-such-route', token }),
        h.inject({ method: 'GET', url: '/api/v1/tickets?include=nope', token }),
        h.inject({ method: 'POST', url: '/api/v1/categories', token, payload: {} }),
        h.inject({ method: 'POST', url: '/api/v1/categories', token, headers: { 'content-type': 'application/json' }, payload: '{"name":' }),
        h.inject({ method: 'GET', url: `/api/v1/tickets/${'9'.repeat(300)}`, token }),
        h.inject({ method: 'GET', url: '/api/v1/tickets/%E0%A4%A', token }),
        h.inject({ method: 'GET', url: '/api/v1/health' }),
        h.inject({ method: 'GET', url: '/api/v1/openapi.json' })
      ])
      for (const res of answers) {
        assert.equal(res.headers['x-content-type-options'], 'nosniff', `${res.statusCode} ${res.body.slice(0, 80)}`)
        assert.equal(res.headers['x-powered-by'], undefined)
        assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/)
      }
      assert.deepEqual(answers.map((res) => res.statusCode), [200, 401, 404, 400, 422, 400, 404, 400, 200, 200])
    })
  })
})
