import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { isHelpdeskError } from '@helpdesk/core'
import { buildApp, eachDialect, manualClock, type ManualClock, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { totp } from './totp.js'

const PASSWORD = 'secret123'

const post = async (h: TestApp, url: string, payload?: Record<string, unknown>, token?: string) =>
  await h.inject({ method: 'POST', url: `/api/v1${url}`, ...(payload !== undefined ? { payload } : {}), ...(token !== undefined ? { token } : {}) })

/** Enrols `token`'s person: answers the secret and the recovery codes. */
async function enrol (h: TestApp, clock: ManualClock, token: string): Promise<{ secret: string, codes: string[] }> {
  const started = expectStatus(await post(h, '/auth/two-factor/enrolment', undefined, token), 200).data
  const codes = expectStatus(await post(h, '/auth/two-factor/confirmation', { code: totp(started.secret, clock.now().getTime()) }, token), 200).data.recovery_codes as string[]
  return { secret: started.secret as string, codes }
}

async function challengeOf (h: TestApp, email: string): Promise<{ challenge: string, enrol: boolean }> {
  const res = await post(h, '/auth/session', { email, password: PASSWORD })
  const body = expectStatus(res, 200)
  assert.equal(res.headers['set-cookie'], undefined, 'no session before the second factor')
  return body.data.second_factor
}

eachDialect((dialect) => {
  describe(`two-factor authentication on ${dialect}`, () => {
    it('enrols with a QR code and a first code, seals the secret, and answers ten recovery codes once', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock, signIn: { secretKey: 'test-secret-key', issuer: 'Acme Support' } })
      const { token } = await h.user('agent', { email: 'ann@example.com' })
      const started = expectStatus(await post(h, '/auth/two-factor/enrolment', undefined, token), 200).data
      assert.match(started.secret, /^[A-Z2-7]{32}$/)
      assert.match(started.otpauth_url, /^otpauth:\/\/totp\/Acme%20Support:ann%40example\.com\?/)
      assert.match(started.qr_svg, /^<svg[^>]*>/)
      const stored = await h.store.knex('two_factor').first()
      assert.match(stored.secret, /^v1:/)
      assert.ok(!String(stored.secret).includes(started.secret))
      // Not on until confirmed.
      assert.equal(expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/two-factor', token }), 200).data.enabled, false)
      expectValidation(await post(h, '/auth/two-factor/confirmation', { code: '000000' }, token), 'code')
      const codes = expectStatus(await post(h, '/auth/two-factor/confirmation', { code: totp(started.secret, clock.now().getTime()) }, token), 200).data.recovery_codes
      assert.equal(codes.length, 10)
      assert.equal(new Set(codes).size, 10)
      const status = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/two-factor', token }), 200).data
      assert.deepEqual(status, { enabled: true, required: false, recovery_codes_left: 10 })
      const hashes = (await h.store.knex('two_factor_recovery_codes').select('code_hash')).map((r: { code_hash: string }) => r.code_hash)
      assert.ok(codes.every((code: string) => !hashes.includes(code)))
      // Enrolling again needs turning it off first.
      expectValidation(await post(h, '/auth/two-factor/enrolment', undefined, token), 'code')
    })

    it('makes sign-in two steps, refuses a code used within its window, takes a recovery code once; personal tokens unaffected', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const { token: personal } = await h.user('agent', { email: 'ann@example.com' })
      const { secret, codes } = await enrol(h, clock, personal)

      clock.advance(60_000)
      const first = await challengeOf(h, 'ann@example.com')
      assert.equal(first.enrol, false)
      const code = totp(secret, clock.now().getTime())
      const res = await post(h, '/auth/session/two-factor', { challenge: first.challenge, code })
      const session = expectStatus(res, 200).data
      assert.match(String(res.headers['set-cookie']), /^helpdesk_session=/)
      assert.equal(session.recovery_codes, null)
      // The challenge is used up, and the same code again is refused even with a new challenge.
      expectValidation(await post(h, '/auth/session/two-factor', { challenge: first.challenge, code }), 'challenge')
      const second = await challengeOf(h, 'ann@example.com')
      assert.match(expectValidation(await post(h, '/auth/session/two-factor', { challenge: second.challenge, code }), 'code').code?.[0] ?? '', /used already/)
      // A recovery code works once (typed in capitals without dashes too).
      const recovery = codes[0] ?? ''
      expectStatus(await post(h, '/auth/login/two-factor', { challenge: second.challenge, code: recovery.replace(/-/g, '').toUpperCase() }), 200)
      const third = await challengeOf(h, 'ann@example.com')
      expectValidation(await post(h, '/auth/session/two-factor', { challenge: third.challenge, code: recovery }), 'code')
      // Bearer login: the same two steps.
      const bearer = expectStatus(await post(h, '/auth/login', { email: 'ann@example.com', password: PASSWORD }), 200).data.second_factor
      clock.advance(30_000)
      const token = expectStatus(await post(h, '/auth/login/two-factor', { challenge: bearer.challenge, code: totp(secret, clock.now().getTime()) }), 200).data.token
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token }), 200)
      // AuthService.login cannot ask for the code: it refuses.
      await assert.rejects(h.helpdesk.auth.login('ann@example.com', PASSWORD), (e) => isHelpdeskError(e, 'HD_FORBIDDEN'))
      // Personal API tokens are credentials of their own.
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: personal }), 200)
    })

    it('drops a challenge after 5 wrong codes and refuses codes for 15 minutes after 10 (429 with Retry-After)', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const { token } = await h.user('customer', { email: 'cy@example.com' })
      const { secret } = await enrol(h, clock, token)
      clock.advance(60_000)
      const a = await challengeOf(h, 'cy@example.com')
      for (let i = 0; i < 5; i++) expectValidation(await post(h, '/auth/session/two-factor', { challenge: a.challenge, code: '000000' }), 'code')
      expectValidation(await post(h, '/auth/session/two-factor', { challenge: a.challenge, code: totp(secret, clock.now().getTime()) }), 'challenge')
      const b = await challengeOf(h, 'cy@example.com')
      for (let i = 0; i < 5; i++) expectValidation(await post(h, '/auth/session/two-factor', { challenge: b.challenge, code: '000001' }), 'code')
      const c = await challengeOf(h, 'cy@example.com')
      const limited = await post(h, '/auth/session/two-factor', { challenge: c.challenge, code: totp(secret, clock.now().getTime()) })
      expectError(limited, 429)
      assert.ok(Number(limited.headers['retry-after']) > 0)
      clock.advance(16 * 60_000)
      const d = await challengeOf(h, 'cy@example.com')
      expectStatus(await post(h, '/auth/session/two-factor', { challenge: d.challenge, code: totp(secret, clock.now().getTime()) }), 200)
    })

    it('makes people of a required role enrol at sign-in; an administrator can reset; turning it off needs a code', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const admin = await h.user('admin')
      const agent = await h.user('agent', { email: 'gus@example.com' })
      const customer = await h.user('customer', { email: 'cy@example.com' })
      expectStatus(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: admin.token, payload: { 'auth.two_factor_required': ['agent'] } }), 200)
      // Customers are not concerned.
      expectStatus(await post(h, '/auth/session', { email: 'cy@example.com', password: PASSWORD }), 200)
      assert.ok(customer.user.id > 0)

      const pending = await challengeOf(h, 'gus@example.com')
      assert.equal(pending.enrol, true)
      const enrolment = expectStatus(await post(h, '/auth/two-factor/enrolment-challenge', { challenge: pending.challenge }), 200).data
      assert.match(enrolment.qr_svg, /^<svg/)
      const done = expectStatus(await post(h, '/auth/session/two-factor', { challenge: pending.challenge, code: totp(enrolment.secret, clock.now().getTime()) }), 200).data
      assert.equal(done.recovery_codes.length, 10)
      // Required: cannot be turned off by its owner.
      clock.advance(30_000)
      expectError(await h.inject({ method: 'DELETE', url: '/api/v1/auth/two-factor', token: agent.token, payload: { code: totp(enrolment.secret, clock.now().getTime()) } }), 403)

      // An administrator resets it: the agent enrols again at the next sign-in.
      expectError(await h.inject({ method: 'DELETE', url: `/api/v1/auth/two-factor/users/${agent.user.id}`, token: agent.token }), 403)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/auth/two-factor/users/${agent.user.id}`, token: admin.token }), 200)
      assert.equal((await challengeOf(h, 'gus@example.com')).enrol, true)

      // Not required any more: the owner turns it off with a code.
      expectStatus(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: admin.token, payload: { 'auth.two_factor_required': [] } }), 200)
      const again = await enrol(h, clock, agent.token)
      clock.advance(30_000)
      expectValidation(await h.inject({ method: 'DELETE', url: '/api/v1/auth/two-factor', token: agent.token, payload: { code: '999999' } }), 'code')
      expectStatus(await h.inject({ method: 'DELETE', url: '/api/v1/auth/two-factor', token: agent.token, payload: { code: totp(again.secret, clock.now().getTime()) } }), 200)
      expectStatus(await post(h, '/auth/session', { email: 'gus@example.com', password: PASSWORD }), 200)
    })
  })
})
