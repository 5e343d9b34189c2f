import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { jobQuery, UserStatus, type MailTransport, type OutgoingMail } from '@helpdesk/core'
import { buildApp, eachDialect, manualClock, type BuildAppOptions, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectUnauthenticated, expectValidation } from './http-assertions.js'
import { desk } from './ticket-fixtures.js'
import type { TestContext } from 'node:test'

const MINUTE = 60_000

/** A transport that keeps what it is given (the SMTP adapter has its own tests; the e2e test uses a real SMTP server). */
function recordingTransport (): MailTransport & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = []
  return { sent, send: async (mail) => { sent.push(mail); return { response: '250 ok' } } }
}

async function appWithMail (t: TestContext, dialect: 'sqlite' | 'postgres', options: BuildAppOptions = {}): Promise<TestApp & { sent: OutgoingMail[] }> {
  const transport = recordingTransport()
  const h = await buildApp(t, dialect, { mail: { from: 'Support <support@example.com>', consoleUrl: 'https://help.example.com', transport }, ...options })
  return Object.assign(h, { sent: transport.sent })
}

/** The token of the last mail's link (`...#token=<token>`). */
function linkToken (mail: OutgoingMail | undefined, path: string): string {
  assert.ok(mail !== undefined, 'a mail was sent')
  const match = new RegExp(`https://help\\.example\\.com${path.replace(/\//g, '\\/')}#token=([\\w-]+)`).exec(mail.text)
  assert.ok(match?.[1] !== undefined, mail.text)
  assert.ok(mail.html.includes(match[0]))
  return match[1]
}

const post = async (h: TestApp, url: string, payload: Record<string, unknown>, token?: string) =>
  await h.inject({ method: 'POST', url: `/api/v1${url}`, payload, ...(token !== undefined ? { token } : {}) })

eachDialect((dialect) => {
  describe(`password reset on ${dialect}`, () => {
    it('answers the same for known and unknown addresses, mails a single-use link and ends every session on reset', async (t) => {
      const h = await appWithMail(t, dialect)
      const { token: personal } = await h.user('agent', { email: 'ann@example.com' })
      const login = expectStatus(await post(h, '/auth/login', { email: 'ann@example.com', password: 'secret123' }), 200).data.token as string

      const known = await post(h, '/auth/password/forgot', { email: 'ann@example.com' })
      const unknown = await post(h, '/auth/password/forgot', { email: 'nobody@example.com' })
      assert.equal(known.statusCode, 202)
      assert.equal(unknown.statusCode, 202)
      assert.equal(known.body, unknown.body)
      // The request wrote a job either way; only the job looks the person up.
      const jobs = (await h.store.jobs.list(jobQuery({ type: 'account.mail', perPage: 100 }))).items
      assert.equal(jobs.length, 2)
      await h.helpdesk.jobs.runDue()
      assert.equal(h.sent.length, 1)
      assert.equal(h.sent[0]?.to, 'ann@example.com')
      assert.equal(h.sent[0]?.subject, 'Reset your password')
      const token = linkToken(h.sent[0], '/reset-password')
      // Only the digest is stored: the raw token is nowhere in the database.
      const rows = await h.store.knex('account_tokens').select('token_hash')
      assert.equal(rows.length, 1)
      assert.notEqual(rows[0].token_hash, token)
      const dump = JSON.stringify(await h.store.knex('jobs').select('*'))
      assert.ok(!dump.includes(token))

      expectStatus(await post(h, '/auth/password/reset', { token, password: 'new-password', password_confirmation: 'new-password' }), 200)
      expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: login }))
      // Personal API tokens are credentials of their own: kept.
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: personal }), 200)
      expectValidation(await post(h, '/auth/login', { email: 'ann@example.com', password: 'secret123' }), 'email')
      expectStatus(await post(h, '/auth/login', { email: 'ann@example.com', password: 'new-password' }), 200)
      // Used once.
      expectValidation(await post(h, '/auth/password/reset', { token, password: 'another-one' }), 'token')
    })

    it('refuses an expired link and a bad confirmation, and lets one of two concurrent uses win', async (t) => {
      const clock = manualClock()
      const h = await appWithMail(t, dialect, { clock })
      await h.user('customer', { email: 'cy@example.com' })
      await post(h, '/auth/password/forgot', { email: 'cy@example.com' })
      await h.helpdesk.jobs.runDue()
      const first = linkToken(h.sent[0], '/reset-password')
      clock.advance(61 * MINUTE)
      expectValidation(await post(h, '/auth/password/reset', { token: first, password: 'new-password' }), 'token')

      await post(h, '/auth/password/forgot', { email: 'cy@example.com' })
      await h.helpdesk.jobs.runDue()
      const second = linkToken(h.sent[1], '/reset-password')
      expectValidation(await post(h, '/auth/password/reset', { token: second, password: 'new-password', password_confirmation: 'other' }), 'password')
      const results = await Promise.all([1, 2, 3].map(async (n) => await post(h, '/auth/password/reset', { token: second, password: `password-${n}` })))
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 422, 422])
    })

    it('answers the same without a mail transport, and queues nothing', async (t) => {
      const h = await buildApp(t, dialect)
      await h.user('agent', { email: 'ann@example.com' })
      const res = await post(h, '/auth/password/forgot', { email: 'ann@example.com' })
      assert.equal(res.statusCode, 202)
      assert.deepEqual(res.json(), { success: true })
      assert.equal((await h.store.jobs.list(jobQuery({ type: 'account.mail' }))).items.length, 0)
    })
  })

  describe(`magic sign-in links on ${dialect}`, () => {
    it('signs in a customer created from mail (Unconfirmed, no password) once, and confirms the address', async (t) => {
      const clock = manualClock()
      const h = await appWithMail(t, dialect, { clock })
      const customer = await h.store.users.create({ role: 3, first_name: 'Mae', last_name: 'Mail', email: 'mae@example.com', status: UserStatus.Unconfirmed, password_hash: null })
      const staff = await h.user('agent', { email: 'staff@example.com' })
      assert.equal((await post(h, '/auth/magic-link', { email: 'mae@example.com' })).statusCode, 202)
      assert.equal((await post(h, '/auth/magic-link', { email: 'staff@example.com' })).statusCode, 202)
      await h.helpdesk.jobs.runDue()
      // Staff get no magic link.
      assert.deepEqual(h.sent.map((m) => m.to), ['mae@example.com'])
      const token = linkToken(h.sent[0], '/sign-in/link')
      const res = await post(h, '/auth/magic-link/session', { token })
      const body = expectStatus(res, 200)
      assert.equal(body.data.user.id, customer.id)
      assert.match(String(res.headers['set-cookie']), /^helpdesk_session=/)
      assert.equal((await h.store.users.findById(customer.id))?.status, UserStatus.Active)
      expectValidation(await post(h, '/auth/magic-link/session', { token }), 'token')
      assert.ok(staff.user.id > 0)

      await post(h, '/auth/magic-link', { email: 'mae@example.com' })
      await h.helpdesk.jobs.runDue()
      const late = linkToken(h.sent[1], '/sign-in/link')
      clock.advance(16 * MINUTE)
      expectValidation(await post(h, '/auth/magic-link/session', { token: late }), 'token')
    })
  })

  describe(`email verification and settings on ${dialect}`, () => {
    it('keeps a self-registered customer Unconfirmed, without tickets, until the mailed link is opened (when required)', async (t) => {
      const h = await appWithMail(t, dialect)
      const d = await desk(h)
      expectError(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.agent.token, payload: { 'auth.email_verification': 'required' } }), 403)
      expectValidation(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'auth.email_verification': 'sometimes' } }), 'auth.email_verification')
      const settings = expectStatus(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'auth.email_verification': 'required' } }), 200)
      const auth = Object.fromEntries(Object.entries(settings.data as Record<string, unknown>).filter(([key]) => key.startsWith('auth.')))
      assert.deepEqual(auth, { 'auth.email_verification': 'required', 'auth.two_factor_required': [], 'auth.sso_only_staff': false })

      const reg = expectStatus(await post(h, '/auth/register', { first_name: 'Reg', last_name: 'Istered', email: 'reg@example.com', password: 'secret123', password_confirmation: 'secret123' }), 201)
      assert.equal((await h.store.users.findById(reg.data.user.id))?.status, UserStatus.Unconfirmed)
      const token = reg.data.token as string
      const ticket = { title: 'Help', body: 'Please help.', category: d.billing }
      expectError(await post(h, '/tickets', ticket, token), 403)
      await h.helpdesk.jobs.runDue()
      const link = linkToken(h.sent.find((m) => m.to === 'reg@example.com'), '/verify-email')
      expectStatus(await post(h, '/auth/email/verify', { token: link }), 200)
      expectValidation(await post(h, '/auth/email/verify', { token: link }), 'token')
      expectStatus(await post(h, '/tickets', ticket, token), 201)
      expectValidation(await post(h, '/auth/email/verification', {}, token), 'email')
    })

    it('registers Active customers when verification is off (the default)', async (t) => {
      const h = await appWithMail(t, dialect)
      const reg = expectStatus(await post(h, '/auth/register', { first_name: 'Reg', last_name: 'Istered', email: 'reg@example.com', password: 'secret123', password_confirmation: 'secret123' }), 201)
      assert.equal((await h.store.users.findById(reg.data.user.id))?.status, UserStatus.Active)
      await h.helpdesk.jobs.runDue()
      assert.equal(h.sent.length, 0)
    })
  })
})
