import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { UserStatus } from '@helpdesk/core'
import helpdeskPlugin, { frameworkErrors, type HelpdeskPluginCommonOptions } from '../src/index.js'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'

const PASSWORD = 'secret123'

interface Session { cookie: string, csrf: string, setCookie: string }

async function startSession (h: TestApp, email: string, app = h.app, headers: Record<string, string> = {}): Promise<Session> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/session', payload: { email, password: PASSWORD }, headers })
  const body = expectStatus(res, 200)
  assert.deepEqual(keysOf(body.data), ['csrf_token', 'permissions', 'user'])
  const setCookie = String(res.headers['set-cookie'])
  const cookie = /^helpdesk_session=([^;]+)/.exec(setCookie)?.[1]
  assert.ok(cookie !== undefined, `a session cookie: ${setCookie}`)
  return { cookie: `helpdesk_session=${cookie}`, csrf: body.data.csrf_token, setCookie }
}

function withCookie (h: TestApp, session: Session, method: 'GET' | 'POST' | 'DELETE', url: string, options: { csrf?: string, payload?: object } = {}) {
  return h.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { cookie: session.cookie, ...(options.csrf !== undefined ? { 'x-csrf-token': options.csrf } : {}) },
    ...(options.payload !== undefined ? { payload: options.payload } : {})
  })
}

async function hostApp (t: TestContext, h: TestApp, options: HelpdeskPluginCommonOptions = {}, trustProxy = false) {
  const app = Fastify({ logger: false, frameworkErrors, trustProxy })
  await app.register(helpdeskPlugin, { helpdesk: h.helpdesk, rateLimit: false, ...options })
  await app.ready()
  t.after(async () => { await app.close() })
  return app
}

eachDialect((dialect) => {
  describe(`session cookie on ${dialect}`, () => {
    it('logs in into an HttpOnly, SameSite=Lax cookie on Path=/ with a max age, not Secure over plain http', async (t) => {
      const h = await buildApp(t, dialect)
      const { user } = await h.user('agent', { email: 'ann@example.com' })
      const session = await startSession(h, 'ann@example.com')
      const flags = session.setCookie.split(';').map((part) => part.trim().toLowerCase())
      assert.ok(flags.includes('httponly'), session.setCookie)
      assert.ok(flags.includes('samesite=lax'), session.setCookie)
      assert.ok(flags.includes('path=/'), session.setCookie)
      assert.ok(flags.some((flag) => /^max-age=\d+$/.test(flag)), session.setCookie)
      assert.ok(!flags.includes('secure'), 'no Secure flag over plain http')
      const me = expectStatus(await withCookie(h, session, 'GET', '/auth/session'), 200)
      assert.equal(me.data.user.id, user.id)
      assert.equal(me.data.csrf_token, session.csrf)
      assert.equal(expectStatus(await withCookie(h, session, 'GET', '/auth/me'), 200).data.id, user.id)
      const tokens = expectStatus(await withCookie(h, session, 'GET', '/auth/tokens'), 200).data as Array<{ name: string | null }>
      assert.ok(tokens.some((token) => token.name === 'session'), 'the session is a token row named session')
    })

    it('answers the caller\'s own permissions, so the console can leave out what they may not do', async (t) => {
      const h = await buildApp(t, dialect)
      const { user } = await h.user('agent', { email: 'ann@example.com' })
      const { user: root } = await h.user('admin', { email: 'root@example.com' })
      await h.helpdesk.agents.updatePermissions(root, user.id, { manage_articles: true })

      await h.user('customer', { email: 'cy@example.com' })
      const agent = expectStatus(await withCookie(h, await startSession(h, 'ann@example.com'), 'GET', '/auth/session'), 200).data.permissions
      assert.equal(agent.manage_articles, true)
      assert.equal(agent.manage_customers, false)
      const admin = expectStatus(await withCookie(h, await startSession(h, 'root@example.com'), 'GET', '/auth/session'), 200).data.permissions
      assert.ok(Object.values(admin).every((flag) => flag === true), JSON.stringify(admin))
      const customer = expectStatus(await withCookie(h, await startSession(h, 'cy@example.com'), 'GET', '/auth/session'), 200).data.permissions
      assert.ok(Object.values(customer).every((flag) => flag === false), JSON.stringify(customer))
    })

    it('sets Secure when the request came over https behind a trusted proxy', async (t) => {
      const h = await buildApp(t, dialect)
      await h.user('customer', { email: 'carl@example.com' })
      const app = await hostApp(t, h, {}, true)
      const session = await startSession(h, 'carl@example.com', app, { 'x-forwarded-proto': 'https' })
      assert.match(session.setCookie, /;\s*Secure/i)
    })

    it('answers 422 on email for wrong credentials and sets no cookie; 401 on GET without a session', async (t) => {
      const h = await buildApp(t, dialect)
      await h.user('customer', { email: 'carl@example.com' })
      const res = await h.inject({ method: 'POST', url: '/api/v1/auth/session', payload: { email: 'carl@example.com', password: 'wrong-one' } })
      expectValidation(res, 'email')
      assert.equal(res.headers['set-cookie'], undefined)
      expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/session' }))
      expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: 'helpdesk_session=hd_forged' } }))
    })

    it('refuses a state-changing cookie request without the CSRF token (403), accepts it with the token', async (t) => {
      const h = await buildApp(t, dialect)
      await h.user('agent', { email: 'ann@example.com' })
      const session = await startSession(h, 'ann@example.com')
      const missing = expectError(await withCookie(h, session, 'POST', '/auth/tokens', { payload: { name: 'x' } }), 403)
      assert.equal(missing.message, 'CSRF token missing or invalid.')
      const forged = session.csrf.slice(0, -1) + (session.csrf.endsWith('A') ? 'B' : 'A')
      expectError(await withCookie(h, session, 'POST', '/auth/tokens', { csrf: forged, payload: { name: 'x' } }), 403)
      expectError(await withCookie(h, session, 'POST', '/auth/tokens', { csrf: 'short', payload: { name: 'x' } }), 403)
      expectStatus(await withCookie(h, session, 'POST', '/auth/tokens', { csrf: session.csrf, payload: { name: 'x' } }), 201)
      const other = await startSession(h, 'ann@example.com')
      expectError(await withCookie(h, session, 'POST', '/auth/tokens', { csrf: other.csrf, payload: { name: 'x' } }), 403)
    })

    it('leaves bearer requests alone: no CSRF token needed, bearer wins over a cookie', async (t) => {
      const h = await buildApp(t, dialect)
      const ann = await h.user('agent', { email: 'ann@example.com' })
      const bob = await h.user('agent', { email: 'bob@example.com' })
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token: ann.token, payload: { name: 'x' } }), 201)
      const bobSession = await startSession(h, 'bob@example.com')
      const res = await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token: ann.token, headers: { cookie: bobSession.cookie }, payload: { name: 'y' } })
      expectStatus(res, 201)
      const me = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/session', token: ann.token, headers: { cookie: bobSession.cookie } }), 200)
      assert.equal(me.data.user.id, ann.user.id)
      assert.equal(me.data.csrf_token, null)
      assert.notEqual(bob.user.id, ann.user.id)
    })

    it('logs out at once: the same cookie is then 401, the cookie is cleared, and logout needs the CSRF token', async (t) => {
      const h = await buildApp(t, dialect)
      await h.user('customer', { email: 'carl@example.com' })
      const session = await startSession(h, 'carl@example.com')
      expectStatus(await withCookie(h, session, 'GET', '/auth/me'), 200)
      expectError(await withCookie(h, session, 'DELETE', '/auth/session'), 403)
      const out = await withCookie(h, session, 'DELETE', '/auth/session', { csrf: session.csrf })
      assert.deepEqual(expectStatus(out, 200), { success: true })
      assert.match(String(out.headers['set-cookie']), /^helpdesk_session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i)
      expectUnauthenticated(await withCookie(h, session, 'GET', '/auth/me'))
      expectUnauthenticated(await withCookie(h, session, 'GET', '/auth/session'))
      // Logging out without a session still clears the cookie.
      expectStatus(await h.inject({ method: 'DELETE', url: '/api/v1/auth/session' }), 200)
    })

    it('ends a banned user\'s session, and refuses them a new one', async (t) => {
      const h = await buildApp(t, dialect)
      const { user } = await h.user('customer', { email: 'bad@example.com' })
      const session = await startSession(h, 'bad@example.com')
      expectStatus(await withCookie(h, session, 'GET', '/auth/me'), 200)
      await h.store.users.update(user.id, { status: UserStatus.Banned })
      expectUnauthenticated(await withCookie(h, session, 'GET', '/auth/me'))
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/auth/session', payload: { email: 'bad@example.com', password: PASSWORD } }), 'email')
    })

    it('answers GET /auth/session for a host app\'s own login', async (t) => {
      const h = await buildApp(t, dialect)
      const { user } = await h.user('agent', { email: 'host@example.com' })
      const app = await hostApp(t, h, { authenticate: (request) => request.headers['x-host-user'] === 'host' ? { email: 'host@example.com' } : null })
      const res = await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { 'x-host-user': 'host' } })
      const body = expectStatus(res, 200)
      assert.equal(body.data.user.id, user.id)
      assert.equal(body.data.csrf_token, null)
      expectUnauthenticated(await app.inject({ method: 'GET', url: '/api/v1/auth/session' }))
    })
  })
})
