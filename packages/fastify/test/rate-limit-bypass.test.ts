import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { hashToken, LOGIN_TOKEN_LIMIT, PERSONAL_TOKEN_LIMIT } from '@helpdesk/core'
import { buildApp, eachDialect } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'

/** CONTRACT §17: a bearer token buys its own budget only once verified; tokens per user are bounded. */
eachDialect((dialect) => {
  describe(`rate-limit keys and token caps on ${dialect}`, () => {
    it('counts unknown and malformed bearer tokens against the caller\'s IP, on every route', async (t) => {
      const h = await buildApp(t, dialect, { rateLimit: { max: 4, loginMax: 100 } })
      const junk = (i: number) => ({ authorization: i % 2 === 0 ? `Bearer junk${i}` : `Bearer hd_${'x'.repeat(43)}${i}` })
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: junk(1) }), 401)
      expectError(await h.inject({ method: 'POST', url: '/api/v1/auth/login', headers: junk(2), payload: { email: 'a@example.com', password: 'guess' } }), 422)
      expectError(await h.inject({ method: 'POST', url: '/api/v1/auth/register', headers: junk(3), payload: {} }), 422)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/tickets', headers: { authorization: 'Bearer' } }), 401)
      for (const [i, request] of [
        { method: 'GET', url: '/api/v1/auth/me' },
        { method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a@example.com', password: 'guess' } },
        { method: 'POST', url: '/api/v1/auth/register', payload: {} },
        { method: 'GET', url: '/api/v1/no-such-route' }
      ].entries()) {
        const limited = await h.inject({ ...request, headers: junk(10 + i) } as Parameters<typeof h.inject>[0])
        expectError(limited, 429)
        assert.equal(limited.headers['x-ratelimit-limit'], '4')
      }
      // Another IP has its own budget; a verified token its own as well.
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me', headers: junk(20), remoteAddress: '10.0.0.7' }), 401)
      const { token } = await h.user('customer')
      const mine = await h.inject({ method: 'GET', url: '/api/v1/auth/me', token })
      expectStatus(mine, 200)
      assert.equal(mine.headers['x-ratelimit-remaining'], '3')
    })

    it('holds the per-email and IP login limit whatever headers come with the attempts', async (t) => {
      const h = await buildApp(t, dialect, { rateLimit: { max: 1000, loginMax: 2 } })
      await h.user('customer', { email: 'victim@example.com' })
      const attempt = async (headers: Record<string, string>) =>
        await h.inject({ method: 'POST', url: '/api/v1/auth/login', headers, payload: { email: 'victim@example.com', password: 'guess' } })
      expectError(await attempt({ authorization: 'Bearer junk-a' }), 422)
      expectError(await attempt({ 'x-forwarded-for': '203.0.113.9' }), 422)
      const variants: Array<Record<string, string>> = [{ authorization: 'Bearer junk-b' }, { 'x-forwarded-for': '198.51.100.1', 'x-real-ip': '198.51.100.2' }, {}]
      for (const headers of variants) {
        expectError(await attempt(headers), 429)
      }
    })

    it(`caps personal tokens at ${PERSONAL_TOKEN_LIMIT} per user (422 on name), login tokens aside`, async (t) => {
      const h = await buildApp(t, dialect)
      const person = await h.user('customer', { email: 'many@example.com' }) // holds one personal token already
      for (let i = 1; i < PERSONAL_TOKEN_LIMIT; i++) {
        expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token: person.token, payload: { name: `t${i}` } }), 201)
      }
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token: person.token, payload: { name: 'one too many' } }), 'name')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token: person.token }), 'name')
      // Logging in still works (login tokens are not personal ones)...
      const login = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'many@example.com', password: 'secret123' } }), 200)
      const listed = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens', token: login.data.token }), 200)
      assert.equal(listed.meta.total, PERSONAL_TOKEN_LIMIT + 1)
      // ...and revoking a personal token makes room for one.
      const named = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens?filter[name]=t1&per_page=100', token: login.data.token }), 200).data as Array<{ id: number, name: string | null }>
      const personal = named.find((token) => token.name === 't1')
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/auth/tokens/${personal?.id ?? 0}`, token: person.token }), 200)
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/tokens', token: person.token, payload: { name: 'room again' } }), 201)
    })

    it(`keeps a user's newest ${LOGIN_TOKEN_LIMIT} login tokens: a login revokes the oldest beyond that`, async (t) => {
      const h = await buildApp(t, dialect)
      const person = await h.user('customer', { email: 'often@example.com' })
      const raw = (i: number) => `hd_login-token-${i}-${'y'.repeat(30)}`
      for (let i = 0; i < LOGIN_TOKEN_LIMIT + 5; i++) {
        await h.store.tokens.create({ user_id: person.user.id, name: 'login', token_hash: hashToken(raw(i)), session: true })
      }
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: raw(0) }), 200)
      const login = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'often@example.com', password: 'secret123' } }), 200)
      const tokens = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/tokens?per_page=100', token: login.data.token }), 200).data as Array<{ name: string | null }>
      assert.equal(tokens.filter((token) => token.name === 'login').length, LOGIN_TOKEN_LIMIT)
      assert.equal(tokens.filter((token) => token.name !== 'login').length, 1, 'personal tokens are never pruned')
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: raw(0) }), 401)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: raw(5) }), 401)
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: raw(6) }), 200)
    })
  })
})
