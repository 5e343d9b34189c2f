import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import Fastify from 'fastify'
import { Redis } from 'ioredis'
import helpdeskPlugin, { type RateLimitOptions } from '../src/index.js'
import { buildApp, eachDialect } from './helpers.js'
import { expectError, expectStatus } from './http-assertions.js'

const REDIS_URL = process.env.HELPDESK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Whether a Redis answers at `url` (the shared-counter test needs one; set HELPDESK_TEST_REDIS_URL). */
async function redisAnswers (url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null })
  try {
    await client.connect()
    return await client.ping() === 'PONG'
  } catch {
    return false
  } finally {
    client.disconnect()
  }
}

function unixNow (): number {
  return Math.floor(Date.now() / 1000)
}

eachDialect((dialect) => {
  describe(`rate limits on ${dialect}`, () => {
    it('sends X-RateLimit-Limit and X-RateLimit-Remaining on every response and 429s past the budget', async (t) => {
      const h = await buildApp(t, dialect, { rateLimit: { max: 3 } })
      const { token } = await h.user('admin')
      const remaining: number[] = []
      for (const request of [
        { method: 'GET', url: '/api/v1/auth/me', token },
        { method: 'GET', url: '/api/v1/customers?include=nope', token },
        { method: 'GET', url: '/api/v1/no-such-route', token }
      ] as const) {
        const res = await h.inject(request)
        assert.equal(res.headers['x-ratelimit-limit'], '3')
        remaining.push(Number(res.headers['x-ratelimit-remaining']))
      }
      assert.deepEqual(remaining, [2, 1, 0])

      const limited = await h.inject({ method: 'GET', url: '/api/v1/auth/me', token })
      const body = expectError(limited, 429)
      assert.deepEqual(Object.keys(body), ['message'])
      assert.equal(limited.headers['x-ratelimit-limit'], '3')
      assert.equal(limited.headers['x-ratelimit-remaining'], '0')
      const retryAfter = Number(limited.headers['retry-after'])
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`)
      const reset = Number(limited.headers['x-ratelimit-reset'])
      assert.ok(reset >= unixNow() && reset <= unixNow() + 61, `X-RateLimit-Reset ${reset} is a unix time within the window`)
    })

    it('keeps one budget per user, shared by all their tokens and sessions (issue 29)', async (t) => {
      const h = await buildApp(t, dialect, { rateLimit: { max: 4, loginMax: 100 } })
      const ann = await h.user('agent', { email: 'ann@example.com' })
      const tokens = [ann.token]
      for (let i = 0; i < 2; i++) tokens.push(expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token: ann.token, payload: { name: `t${i}` } }), 201).data.token)
      const login = await h.inject({ method: 'POST', url: '/api/v1/auth/session', payload: { email: 'ann@example.com', password: 'secret123' } })
      const cookie = String(login.headers['set-cookie']).split(';')[0] ?? ''
      // Two of the budget's four went on creating the tokens; each new token finds the same budget.
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: tokens[1] }), 200)
      const last = await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: tokens[2] })
      expectStatus(last, 200)
      assert.equal(last.headers['x-ratelimit-remaining'], '0')
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: tokens[0] }), 429)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } }), 429)
      // Another user, and an anonymous caller, have their own budgets.
      const bob = await h.user('agent')
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: bob.token }), 200)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me' }), 401)
    })

    it('keeps a budget per user, and per IP for anonymous callers', async (t) => {
      const h = await buildApp(t, dialect, { rateLimit: { max: 2 } })
      const first = await h.user('agent')
      const second = await h.user('agent')
      for (let i = 0; i < 2; i++) expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: first.token }), 200)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: first.token }), 429)
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: second.token }), 200)
      for (let i = 0; i < 2; i++) expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me' }), 401)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me' }), 429)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me', remoteAddress: '10.0.0.9' }), 401)
    })

    it('limits login attempts per email and IP', async (t) => {
      const h = await buildApp(t, dialect, { rateLimit: { max: 100, loginMax: 2 } })
      await h.user('customer', { email: 'victim@example.com', password: 'secret123' })
      const attempt = async (email: string, password: string, remoteAddress = '127.0.0.1') =>
        await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress })
      expectError(await attempt('victim@example.com', 'guess-1'), 422)
      expectError(await attempt('VICTIM@example.com', 'guess-2'), 422)
      const limited = await attempt('victim@example.com', 'secret123')
      expectError(limited, 429)
      assert.ok(Number(limited.headers['retry-after']) >= 1)
      assert.ok(Number(limited.headers['x-ratelimit-reset']) >= unixNow())
      // Another email from the same IP, and the same email from another IP, have their own budgets.
      expectError(await attempt('someone-else@example.com', 'guess'), 422)
      expectStatus(await attempt('victim@example.com', 'secret123', '10.1.2.3'), 200)
    })

    it('counts password logins into a token and into a session cookie against one budget', async (t) => {
      const h = await buildApp(t, dialect, { rateLimit: { max: 100, loginMax: 3 } })
      await h.user('customer', { email: 'victim@example.com', password: 'secret123' })
      const attempt = async (url: string, password: string) =>
        await h.inject({ method: 'POST', url, payload: { email: 'victim@example.com', password } })
      expectError(await attempt('/api/v1/auth/login', 'guess-1'), 422)
      expectError(await attempt('/api/v1/auth/session', 'guess-2'), 422)
      expectError(await attempt('/api/v1/auth/login', 'guess-3'), 422)
      // The budget is spent whichever door the next guess knocks on.
      expectError(await attempt('/api/v1/auth/session', 'guess-4'), 429)
      expectError(await attempt('/api/v1/auth/login', 'secret123'), 429)
    })

    it('sends no rate-limit headers when switched off', async (t) => {
      const h = await buildApp(t, dialect, { rateLimit: false })
      const { token } = await h.user('admin')
      for (let i = 0; i < 20; i++) {
        const res = await h.inject({ method: 'GET', url: '/api/v1/auth/me', token })
        expectStatus(res, 200)
        assert.ok(!Object.keys(res.headers).some((name) => name.startsWith('x-ratelimit') || name === 'retry-after'))
      }
      for (let i = 0; i < 12; i++) {
        expectError(await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'x@example.com', password: 'nope' } }), 422)
      }
    })

    it('shares one counter between instances through Redis', async (t) => {
      if (!await redisAnswers(REDIS_URL)) {
        // CI starts Redis itself (.ci/run): there a missing Redis is a failure, not a skip.
        assert.notEqual(process.env.CI, 'true', `no Redis at ${REDIS_URL}`)
        t.skip(`no Redis at ${REDIS_URL}`)
        return
      }
      const rateLimit: RateLimitOptions = { max: 3, redis: REDIS_URL, keyPrefix: `helpdesk-test-${randomBytes(6).toString('hex')}:` }
      const h = await buildApp(t, dialect, { rateLimit })
      const other = Fastify({ logger: false })
      await other.register(helpdeskPlugin, { helpdesk: h.helpdesk, rateLimit })
      await other.ready()
      t.after(async () => { await other.close() })
      const { token } = await h.user('admin')
      const headers = { authorization: `Bearer ${token}` }

      const one = await h.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })
      const two = await other.inject({ method: 'GET', url: '/api/v1/auth/me', headers })
      const three = await h.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })
      assert.deepEqual([one, two, three].map((r) => [r.statusCode, r.headers['x-ratelimit-remaining']]), [[200, '2'], [200, '1'], [200, '0']])
      expectError(await other.inject({ method: 'GET', url: '/api/v1/auth/me', headers }), 429)
      expectError(await h.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers }), 429)
    })
  })
})
