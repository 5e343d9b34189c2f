import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance } from 'fastify'
import { createHelpdesk, DEFAULT_SESSION_IDLE_TIMEOUT_MS, DEFAULT_SESSION_LIFETIME_MS, type SessionOptions } from '@helpdesk/core'
import helpdeskPlugin, { frameworkErrors } from '../src/index.js'
import { buildApp, eachDialect, manualClock, testHasher, type ManualClock, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectUnauthenticated, keysOf } from './http-assertions.js'
import { openStream } from './sse-client.js'

const PASSWORD = 'secret123'
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

interface CookieSession { cookie: string, csrf: string, setCookie: string }

async function cookieSession (app: FastifyInstance, email: string, headers: Record<string, string> = {}): Promise<CookieSession> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/session', payload: { email, password: PASSWORD }, headers })
  const body = expectStatus(res, 200)
  const setCookie = String(res.headers['set-cookie'])
  const value = /^helpdesk_session=([^;]+)/.exec(setCookie)?.[1]
  assert.ok(value !== undefined, setCookie)
  return { cookie: `helpdesk_session=${value}`, csrf: body.data.csrf_token, setCookie }
}

async function bearerLogin (app: FastifyInstance, email: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: PASSWORD }, headers })
  return expectStatus(res, 200).data.token as string
}

function withCookie (app: FastifyInstance, session: CookieSession, method: 'GET' | 'DELETE', url: string) {
  return app.inject({ method, url: `/api/v1${url}`, headers: { cookie: session.cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': session.csrf }) } })
}

function withToken (app: FastifyInstance, token: string, method: 'GET' | 'DELETE', url: string) {
  return app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } })
}

interface ListedSession { id: number, type: string, created_at: string, last_used_at: string, expires_at: string, user_agent: string | null, ip: string | null, current: boolean }

/** A second instance on the same database: its own services (own token cache) and plugin, the same clock. */
async function secondInstance (t: TestContext, h: TestApp, clock: ManualClock, sessions: SessionOptions = {}): Promise<FastifyInstance> {
  const helpdesk = createHelpdesk({ store: h.store, hasher: testHasher, clock, sessions })
  const app = Fastify({ logger: false, frameworkErrors })
  await app.register(helpdeskPlugin, { helpdesk, rateLimit: false, workers: false })
  await app.ready()
  t.after(async () => { await app.close() })
  return app
}

eachDialect((dialect) => {
  describe(`sessions end on the server on ${dialect}`, () => {
    it('refuses a console session idle past the idle timeout (24 h by default), though the browser still sends its cookie', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      await h.user('agent', { email: 'ann@example.com' })
      const session = await cookieSession(h.app, 'ann@example.com')
      // The cookie lasts as long as the server's absolute lifetime.
      assert.match(session.setCookie, new RegExp(`Max-Age=${DEFAULT_SESSION_LIFETIME_MS / 1000}(;|$)`))
      expectStatus(await withCookie(h.app, session, 'GET', '/auth/me'), 200)
      clock.advance(DEFAULT_SESSION_IDLE_TIMEOUT_MS - MINUTE)
      expectStatus(await withCookie(h.app, session, 'GET', '/auth/me'), 200)
      clock.advance(DEFAULT_SESSION_IDLE_TIMEOUT_MS + 2 * MINUTE)
      expectUnauthenticated(await withCookie(h.app, session, 'GET', '/auth/me'))
      expectUnauthenticated(await withCookie(h.app, session, 'GET', '/auth/session'))
    })

    it('refuses a bearer login token idle past the idle timeout; personal tokens do not idle out unless configured', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock, sessions: { idleTimeoutMs: HOUR } })
      const { token: personal } = await h.user('customer', { email: 'cy@example.com' })
      const login = await bearerLogin(h.app, 'cy@example.com')
      expectStatus(await withToken(h.app, login, 'GET', '/auth/me'), 200)
      clock.advance(HOUR + 2 * MINUTE)
      expectUnauthenticated(await withToken(h.app, login, 'GET', '/auth/me'))
      clock.advance(30 * DAY)
      expectStatus(await withToken(h.app, personal, 'GET', '/auth/me'), 200)

      const strict = await buildApp(t, dialect, { clock, sessions: { tokenIdleTimeoutMs: 7 * DAY } })
      const { token } = await strict.user('customer')
      clock.advance(6 * DAY)
      expectStatus(await withToken(strict.app, token, 'GET', '/auth/me'), 200)
      clock.advance(6 * DAY)
      expectStatus(await withToken(strict.app, token, 'GET', '/auth/me'), 200)
      clock.advance(7 * DAY + 2 * MINUTE)
      expectUnauthenticated(await withToken(strict.app, token, 'GET', '/auth/me'))
    })

    it('renews the idle window with every use, on every instance', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock, sessions: { idleTimeoutMs: HOUR } })
      const other = await secondInstance(t, h, clock, { idleTimeoutMs: HOUR })
      await h.user('agent', { email: 'ann@example.com' })
      const session = await cookieSession(h.app, 'ann@example.com')
      expectStatus(await withCookie(h.app, session, 'GET', '/auth/me'), 200)
      // Used every 45 minutes for six hours, through the other instance only...
      for (let i = 0; i < 8; i++) {
        clock.advance(45 * MINUTE)
        expectStatus(await withCookie(other, session, 'GET', '/auth/me'), 200)
      }
      // ...so this instance, whose cache saw it six hours ago, finds it renewed.
      clock.advance(30 * MINUTE)
      expectStatus(await withCookie(h.app, session, 'GET', '/auth/me'), 200)
      // Unused for the idle timeout, it ends on both.
      clock.advance(HOUR + 2 * MINUTE)
      expectUnauthenticated(await withCookie(other, session, 'GET', '/auth/me'))
      expectUnauthenticated(await withCookie(h.app, session, 'GET', '/auth/me'))
    })

    it('does not count an open event stream\'s heartbeats as uses: the stream ends when its session idles out', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock, sessions: { idleTimeoutMs: HOUR }, eventStream: { heartbeatMs: 20 } })
      await h.app.listen({ host: '127.0.0.1', port: 0 })
      const address = h.app.server.address()
      assert.ok(address !== null && typeof address === 'object')
      await h.user('agent', { email: 'ann@example.com' })
      const session = await cookieSession(h.app, 'ann@example.com')
      const stream = await openStream(`http://127.0.0.1:${address.port}/api/v1/events`, { cookie: session.cookie })
      t.after(() => { stream.close() })
      assert.equal(stream.status, 200)
      clock.advance(45 * MINUTE)
      await new Promise((resolve) => setTimeout(resolve, 200))
      assert.equal(await stream.nextComment(2000), 'heartbeat', 'still open 45 minutes on')
      clock.advance(45 * MINUTE)
      await Promise.race([stream.ended, new Promise((_resolve, reject) => setTimeout(() => { reject(new Error('the stream kept its idle session alive')) }, 3000))])
      expectUnauthenticated(await withCookie(h.app, session, 'GET', '/auth/me'))
    })

    it('refuses a session past its absolute lifetime however constantly it is used', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock, sessions: { idleTimeoutMs: HOUR, lifetimeMs: DAY } })
      await h.user('agent', { email: 'ann@example.com' })
      const session = await cookieSession(h.app, 'ann@example.com')
      const token = await bearerLogin(h.app, 'ann@example.com')
      assert.match(session.setCookie, /Max-Age=86400(;|$)/)
      for (let used = 0; used < DAY - 30 * MINUTE; used += 30 * MINUTE) {
        clock.advance(30 * MINUTE)
        expectStatus(await withCookie(h.app, session, 'GET', '/auth/me'), 200)
        expectStatus(await withToken(h.app, token, 'GET', '/auth/me'), 200)
      }
      clock.advance(30 * MINUTE)
      expectUnauthenticated(await withCookie(h.app, session, 'GET', '/auth/me'))
      expectUnauthenticated(await withToken(h.app, token, 'GET', '/auth/me'))
    })

    it('records a use at most once a minute per instance: requests in between write nothing', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      await h.user('agent', { email: 'ann@example.com' })
      const session = await cookieSession(h.app, 'ann@example.com')
      const writes: string[] = []
      const onQuery = (query: { sql: string }) => { if (/^\s*update\s+"?api_tokens/i.test(query.sql)) writes.push(query.sql) }
      h.store.knex.on('query', onQuery)
      t.after(() => { h.store.knex.off('query', onQuery) })
      for (let i = 0; i < 50; i++) {
        clock.advance(1000)
        expectStatus(await withCookie(h.app, session, 'GET', '/auth/me'), 200)
      }
      assert.equal(writes.length, 0, 'a session is created used: no write within its first minute')
      clock.advance(MINUTE)
      for (let i = 0; i < 50; i++) expectStatus(await withCookie(h.app, session, 'GET', '/auth/me'), 200)
      assert.equal(writes.length, 1, 'one write for the minute')
      const listed = expectStatus(await withCookie(h.app, session, 'GET', '/auth/sessions'), 200).data as ListedSession[]
      assert.equal(listed[0]?.last_used_at, new Date(clock.now().getTime()).toISOString().slice(0, 19).replace('T', ' '))
    })
  })

  describe(`GET and DELETE /auth/sessions on ${dialect}`, () => {
    it('lists the caller\'s live sessions only, the current one marked, with the client that logged in', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock, sessions: { idleTimeoutMs: HOUR, lifetimeMs: DAY } })
      const ann = await h.user('agent', { email: 'ann@example.com' })
      await h.user('agent', { email: 'bob@example.com' })
      const stale = await bearerLogin(h.app, 'ann@example.com', { 'user-agent': 'curl/8.5' })
      clock.advance(2 * HOUR)
      const laptop = await cookieSession(h.app, 'ann@example.com', { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' })
      clock.advance(MINUTE)
      const phone = await bearerLogin(h.app, 'ann@example.com', { 'user-agent': 'x'.repeat(400) })
      await cookieSession(h.app, 'bob@example.com')

      const res = expectStatus(await withCookie(h.app, laptop, 'GET', '/auth/sessions'), 200)
      assert.deepEqual(keysOf(res), ['data', 'links', 'meta'])
      const sessions = res.data as ListedSession[]
      assert.equal(res.meta.total, 2, 'the idle login, the other person\'s session and the personal token are not listed')
      assert.deepEqual(sessions.map((s) => [s.type, s.current]), [['bearer', false], ['cookie', true]], 'most recently used first')
      const [phoneRow, laptopRow] = sessions as [ListedSession, ListedSession]
      assert.deepEqual(keysOf(laptopRow), ['created_at', 'current', 'expires_at', 'id', 'ip', 'last_used_at', 'type', 'user_agent'])
      assert.equal(laptopRow.user_agent, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0')
      assert.equal(laptopRow.ip, '127.0.0.1')
      assert.equal(phoneRow.user_agent?.length, 255)
      assert.equal(phoneRow.last_used_at, phoneRow.created_at, 'a session starts used')
      assert.equal(laptopRow.last_used_at, '2030-01-01 02:01:00', 'this very request, a minute after the login, is a use')
      // It ends an hour (and the minute uses are recorded to) after its last use, unless used again.
      assert.equal(Date.parse(`${laptopRow.expires_at}Z`) - Date.parse(`${laptopRow.last_used_at}Z`), HOUR + MINUTE)

      const asBearer = expectStatus(await withToken(h.app, phone, 'GET', '/auth/sessions'), 200).data as ListedSession[]
      assert.deepEqual(asBearer.map((s) => s.current), [true, false])
      const asPersonal = expectStatus(await withToken(h.app, ann.token, 'GET', '/auth/sessions?per_page=1'), 200)
      assert.deepEqual((asPersonal.data as ListedSession[]).map((s) => s.current), [false])
      assert.equal(asPersonal.meta.last_page, 2)
      assert.ok(String(asPersonal.links.next).includes('page=2'))
      expectUnauthenticated(await withToken(h.app, stale, 'GET', '/auth/sessions'))
      // The idle login's row is removed by the prune job; the live ones stay.
      assert.equal(await h.helpdesk.auth.pruneExpired(), 1)
      assert.equal((await h.store.tokens.listForUser(ann.user.id)).length, 3)
    })

    it('ends another session at once, on every instance; someone else\'s session or a personal token is a 404', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const other = await secondInstance(t, h, clock)
      const ann = await h.user('agent', { email: 'ann@example.com' })
      await h.user('agent', { email: 'bob@example.com' })
      const laptop = await cookieSession(h.app, 'ann@example.com')
      const phone = await cookieSession(h.app, 'ann@example.com')
      const bob = await cookieSession(h.app, 'bob@example.com')
      // The other instance has the phone's session cached.
      expectStatus(await withCookie(other, phone, 'GET', '/auth/me'), 200)
      const listed = expectStatus(await withCookie(h.app, laptop, 'GET', '/auth/sessions'), 200).data as ListedSession[]
      const phoneId = listed.find((s) => !s.current)?.id ?? 0
      const bobId = (expectStatus(await withCookie(h.app, bob, 'GET', '/auth/sessions'), 200).data as ListedSession[])[0]?.id ?? 0
      const personalId = (await h.store.tokens.listForUser(ann.user.id)).find((token) => !token.session)?.id ?? 0

      expectError(await withCookie(h.app, laptop, 'DELETE', `/auth/sessions/${bobId}`), 404)
      expectError(await withCookie(h.app, laptop, 'DELETE', `/auth/sessions/${personalId}`), 404)
      expectStatus(await withCookie(other, bob, 'GET', '/auth/me'), 200)
      expectStatus(await withToken(h.app, ann.token, 'GET', '/auth/me'), 200)

      const ended = await withCookie(h.app, laptop, 'DELETE', `/auth/sessions/${phoneId}`)
      expectStatus(ended, 200)
      assert.equal(ended.headers['set-cookie'], undefined, 'ending another session leaves this cookie alone')
      expectUnauthenticated(await withCookie(other, phone, 'GET', '/auth/me'))
      expectUnauthenticated(await withCookie(h.app, phone, 'GET', '/auth/me'))
      expectStatus(await withCookie(h.app, laptop, 'GET', '/auth/me'), 200)
      expectError(await withCookie(h.app, laptop, 'DELETE', `/auth/sessions/${phoneId}`), 404)
      // A cookie request that ends something needs the CSRF token like any other.
      expectError(await h.app.inject({ method: 'DELETE', url: `/api/v1/auth/sessions/${bobId}`, headers: { cookie: laptop.cookie } }), 403)

      // Ending the current session logs out and clears the cookie.
      const laptopId = listed.find((s) => s.current)?.id ?? 0
      const self = await withCookie(h.app, laptop, 'DELETE', `/auth/sessions/${laptopId}`)
      expectStatus(self, 200)
      assert.match(String(self.headers['set-cookie']), /^helpdesk_session=;/)
      expectUnauthenticated(await withCookie(h.app, laptop, 'GET', '/auth/me'))
    })

    it('ends all the other sessions, keeps the current one and the personal tokens', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const other = await secondInstance(t, h, clock)
      const ann = await h.user('agent', { email: 'ann@example.com' })
      const bob = await h.user('agent', { email: 'bob@example.com' })
      const current = await cookieSession(h.app, 'ann@example.com')
      const others = [await cookieSession(h.app, 'ann@example.com'), await cookieSession(other, 'ann@example.com')]
      const logins = [await bearerLogin(h.app, 'ann@example.com'), await bearerLogin(other, 'ann@example.com')]
      const bobs = await bearerLogin(h.app, 'bob@example.com')
      for (const session of others) expectStatus(await withCookie(other, session, 'GET', '/auth/me'), 200)
      for (const token of logins) expectStatus(await withToken(other, token, 'GET', '/auth/me'), 200)

      expectStatus(await withCookie(h.app, current, 'DELETE', '/auth/sessions'), 200)
      for (const app of [h.app, other]) {
        for (const session of others) expectUnauthenticated(await withCookie(app, session, 'GET', '/auth/me'))
        for (const token of logins) expectUnauthenticated(await withToken(app, token, 'GET', '/auth/me'))
      }
      expectStatus(await withCookie(h.app, current, 'GET', '/auth/me'), 200)
      expectStatus(await withToken(h.app, ann.token, 'GET', '/auth/me'), 200)
      expectStatus(await withToken(h.app, bobs, 'GET', '/auth/me'), 200)
      assert.equal((expectStatus(await withCookie(h.app, current, 'GET', '/auth/sessions'), 200).data as ListedSession[]).length, 1)

      // With a personal token there is no current session: all of them end.
      expectStatus(await withToken(h.app, ann.token, 'DELETE', '/auth/sessions'), 200)
      expectUnauthenticated(await withCookie(h.app, current, 'GET', '/auth/me'))
      expectStatus(await withToken(h.app, bob.token, 'GET', '/auth/me'), 200)
    })
  })
})
