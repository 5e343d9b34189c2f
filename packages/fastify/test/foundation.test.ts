import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { formatDateTime, generateToken, hashToken, type AccountTokenPurpose } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { totp } from './totp.js'
import { SYSTEM } from '@helpdesk/core'

/** One request per foundation route: `route` is the registered pattern it exercises. */
interface Step { route: string, url: string, payload?: unknown, token?: string }

/** The foundation's resources; other resources have their own suites. */
/** The single-sign-on redirects (no JSON; walked against a real provider in sso.test.ts) are left out. */
const FOUNDATION_ROUTE = /^[A-Z]+ \/api\/v1\/(auth(?!\/sso\/:slug)|customers|agents|categories)(\/|$)/

function secretKeys (value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => secretKeys(v, `${path}.${i}`))
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, v]) => [
    ...(/password|hash/i.test(key) ? [`${path}.${key}`] : []),
    ...secretKeys(v, `${path}.${key}`)
  ])
}

async function steps (h: TestApp): Promise<Step[]> {
  const admin = await h.user('admin', { email: 'walk-admin@example.com', password: 'secret123' })
  const agent = await h.user('agent')
  const customer = await h.user('customer')
  const victim = await h.user('customer')
  const doomedAgent = await h.user('agent')
  const category = await h.helpdesk.categories.create(SYSTEM, { name: 'Walk' })
  const doomedCategory = await h.helpdesk.categories.create(SYSTEM, { name: 'Doomed' })
  const note = await h.helpdesk.customers.addNote(admin.user, customer.user.id, 'first note')
  const spare = await h.helpdesk.auth.createToken(admin.user, 'spare')
  const spareSession = await h.helpdesk.auth.authenticate((await h.helpdesk.auth.login('walk-admin@example.com', 'secret123')).token)
  const c = customer.user.id
  const a = agent.user.id
  const k = category.id
  const everything = {
    customers: 'include=tickets-count,notes-count',
    agents: 'include=notes-count,assigned-categories-count,unresolved-tickets-count,resolved-tickets-count',
    categories: 'include=agents-count,tickets-count,articles-count,collections-count,fields',
    notes: 'include=creator,user'
  }
  const person = { first_name: 'Walk', last_name: 'Er', password: 'secret123', password_confirmation: 'secret123' }
  const token = admin.token
  // Sign-in without a password and two-factor: links minted as the mail job would, people enrolled through the services.
  const mint = async (userId: number, purpose: AccountTokenPurpose): Promise<string> => {
    const raw = generateToken()
    await h.store.accountTokens.create({ user_id: userId, purpose, token_hash: hashToken(raw), expires_at: formatDateTime(new Date(Date.now() + 3_600_000)) })
    return raw
  }
  const unconfirmed = await h.store.users.create({ role: 3, first_name: 'Un', last_name: 'Confirmed', email: 'walk-unconfirmed@example.com', status: 2, password_hash: null })
  const unconfirmedToken = (await h.helpdesk.auth.createToken(unconfirmed, 'walk')).token
  const enrolled = async () => {
    const who = await h.user('agent')
    const { secret } = await h.helpdesk.twoFactor.begin(who.user)
    const { recovery_codes: codes } = await h.helpdesk.twoFactor.confirm(who.user, totp(secret, Date.now()))
    return { ...who, codes }
  }
  const [regenerating, disabling, cookieSignIn, bearerSignIn] = [await enrolled(), await enrolled(), await enrolled(), await enrolled()]
  const pending = await h.user('agent')
  const pendingSecret = (await h.helpdesk.twoFactor.begin(pending.user)).secret
  const fresh = await h.user('agent')
  const challengeOf = async (email: string): Promise<string> => {
    const result = await h.helpdesk.signIn.password(email, 'secret123', 'session')
    if (result.status !== 'second-factor') throw new Error('expected a second-factor challenge')
    return result.challenge
  }
  const enrolling = await h.user('agent')
  const enrolChallenge = await mint(enrolling.user.id, 'second-factor')
  const accountSteps: Step[] = [
    { route: 'POST /api/v1/auth/password/forgot', url: '/api/v1/auth/password/forgot', payload: { email: customer.user.email } },
    { route: 'POST /api/v1/auth/magic-link', url: '/api/v1/auth/magic-link', payload: { email: customer.user.email } },
    { route: 'POST /api/v1/auth/password/reset', url: '/api/v1/auth/password/reset', payload: { token: await mint(victim.user.id, 'password-reset'), password: 'secret789' } },
    { route: 'POST /api/v1/auth/magic-link/session', url: '/api/v1/auth/magic-link/session', payload: { token: await mint(customer.user.id, 'magic-link') } },
    { route: 'POST /api/v1/auth/email/verification', url: '/api/v1/auth/email/verification', token: unconfirmedToken },
    { route: 'POST /api/v1/auth/email/verify', url: '/api/v1/auth/email/verify', payload: { token: await mint(unconfirmed.id, 'verify-email') } },
    { route: 'GET /api/v1/auth/two-factor', url: '/api/v1/auth/two-factor', token: regenerating.token },
    { route: 'POST /api/v1/auth/two-factor/enrolment', url: '/api/v1/auth/two-factor/enrolment', token: fresh.token },
    // The first code from the app, computed when the request is made.
    { route: 'POST /api/v1/auth/two-factor/confirmation', url: '/api/v1/auth/two-factor/confirmation', payload: { get code () { return totp(pendingSecret, Date.now()) } }, token: pending.token },
    { route: 'POST /api/v1/auth/two-factor/recovery-codes', url: '/api/v1/auth/two-factor/recovery-codes', payload: { code: regenerating.codes[0] }, token: regenerating.token },
    { route: 'DELETE /api/v1/auth/two-factor', url: '/api/v1/auth/two-factor', payload: { code: disabling.codes[0] }, token: disabling.token },
    { route: 'DELETE /api/v1/auth/two-factor/users/:userId', url: `/api/v1/auth/two-factor/users/${pending.user.id}`, token },
    { route: 'POST /api/v1/auth/two-factor/enrolment-challenge', url: '/api/v1/auth/two-factor/enrolment-challenge', payload: { challenge: enrolChallenge } },
    { route: 'POST /api/v1/auth/session/two-factor', url: '/api/v1/auth/session/two-factor', payload: { challenge: await challengeOf(cookieSignIn.user.email), code: cookieSignIn.codes[0] } },
    { route: 'POST /api/v1/auth/login/two-factor', url: '/api/v1/auth/login/two-factor', payload: { challenge: await challengeOf(bearerSignIn.user.email), code: bearerSignIn.codes[0] } },
    { route: 'GET /api/v1/auth/sso/providers', url: '/api/v1/auth/sso/providers' }
  ]
  return [
    ...accountSteps,
    { route: 'POST /api/v1/auth/login', url: '/api/v1/auth/login', payload: { email: 'walk-admin@example.com', password: 'secret123' } },
    { route: 'POST /api/v1/auth/register', url: '/api/v1/auth/register', payload: { ...person, email: 'walk-reg@example.com' } },
    { route: 'GET /api/v1/auth/me', url: '/api/v1/auth/me', token },
    { route: 'GET /api/v1/auth/me/availability', url: '/api/v1/auth/me/availability', token },
    { route: 'PUT /api/v1/auth/me/availability', url: '/api/v1/auth/me/availability', payload: { available: true }, token },
    { route: 'POST /api/v1/auth/session', url: '/api/v1/auth/session', payload: { email: 'walk-admin@example.com', password: 'secret123' } },
    { route: 'GET /api/v1/auth/session', url: '/api/v1/auth/session', token },
    { route: 'DELETE /api/v1/auth/session', url: '/api/v1/auth/session', token },
    { route: 'GET /api/v1/auth/tokens', url: '/api/v1/auth/tokens', token },
    { route: 'POST /api/v1/auth/tokens', url: '/api/v1/auth/tokens', payload: { name: 'walk' }, token },
    { route: 'DELETE /api/v1/auth/tokens/:id', url: `/api/v1/auth/tokens/${spare.id}`, token },
    { route: 'GET /api/v1/auth/sessions', url: '/api/v1/auth/sessions', token },
    { route: 'DELETE /api/v1/auth/sessions/:id', url: `/api/v1/auth/sessions/${spareSession?.tokenId ?? 0}`, token },
    { route: 'DELETE /api/v1/auth/sessions', url: '/api/v1/auth/sessions', token },

    { route: 'GET /api/v1/customers', url: `/api/v1/customers?${everything.customers}`, token },
    { route: 'GET /api/v1/customers/:id', url: `/api/v1/customers/${c}?${everything.customers}`, token },
    { route: 'POST /api/v1/customers', url: '/api/v1/customers', payload: { ...person, email: 'walk-cust@example.com' }, token },
    { route: 'PATCH /api/v1/customers/:id', url: `/api/v1/customers/${c}`, payload: { company: 'Walkers', new_password: 'secret999', new_password_confirmation: 'secret999' }, token },
    { route: 'POST /api/v1/customers/:id', url: `/api/v1/customers/${c}`, payload: { company: 'Walkers 2' }, token },
    { route: 'GET /api/v1/customers/:id/notifications', url: `/api/v1/customers/${c}/notifications`, token },
    { route: 'PATCH /api/v1/customers/:id/notifications', url: `/api/v1/customers/${c}/notifications`, payload: { new_ticket: false }, token },
    { route: 'POST /api/v1/customers/:id/notifications', url: `/api/v1/customers/${c}/notifications`, payload: { new_comment: false }, token },
    { route: 'PUT /api/v1/customers/:id/notifications', url: `/api/v1/customers/${c}/notifications`, payload: { new_ticket: true }, token },
    { route: 'GET /api/v1/customers/:id/notes', url: `/api/v1/customers/${c}/notes?${everything.notes}`, token },
    { route: 'POST /api/v1/customers/:id/notes', url: `/api/v1/customers/${c}/notes`, payload: { note: 'second note' }, token },
    { route: 'DELETE /api/v1/customers/:customer_id/notes/:note_id', url: `/api/v1/customers/${c}/notes/${note.id}`, token },
    { route: 'DELETE /api/v1/customers/:id', url: `/api/v1/customers/${victim.user.id}`, token },

    { route: 'GET /api/v1/agents', url: `/api/v1/agents?${everything.agents}`, token },
    { route: 'GET /api/v1/agents/:id', url: `/api/v1/agents/${a}?${everything.agents}`, token },
    { route: 'POST /api/v1/agents', url: '/api/v1/agents', payload: { ...person, email: 'walk-agent@example.com' }, token },
    { route: 'PATCH /api/v1/agents/:id', url: `/api/v1/agents/${a}`, payload: { timezone: 'Europe/Paris', new_password: 'secret999', new_password_confirmation: 'secret999' }, token },
    { route: 'POST /api/v1/agents/:id', url: `/api/v1/agents/${a}`, payload: { first_name: 'Posted' }, token },
    { route: 'PUT /api/v1/agents/:id', url: `/api/v1/agents/${a}`, payload: { last_name: 'Put' }, token },
    { route: 'GET /api/v1/agents/:id/permissions', url: `/api/v1/agents/${a}/permissions`, token },
    { route: 'PATCH /api/v1/agents/:id/permissions', url: `/api/v1/agents/${a}/permissions`, payload: { manage_customers: true }, token },
    { route: 'POST /api/v1/agents/:id/permissions', url: `/api/v1/agents/${a}/permissions`, payload: { view_all_tickets: true }, token },
    { route: 'PUT /api/v1/agents/:id/permissions', url: `/api/v1/agents/${a}/permissions`, payload: { assign_tickets: true }, token },
    { route: 'GET /api/v1/agents/:id/coverage', url: `/api/v1/agents/${a}/coverage`, token },
    { route: 'PUT /api/v1/agents/:id/coverage', url: `/api/v1/agents/${a}/coverage`, payload: { all_categories: true }, token },
    { route: 'PATCH /api/v1/agents/:id/coverage', url: `/api/v1/agents/${a}/coverage`, payload: { all_categories: false }, token },
    { route: 'GET /api/v1/agents/:id/availability', url: `/api/v1/agents/${a}/availability`, token },
    { route: 'PUT /api/v1/agents/:id/availability', url: `/api/v1/agents/${a}/availability`, payload: { available: true }, token },
    { route: 'GET /api/v1/agents/:id/notifications', url: `/api/v1/agents/${a}/notifications`, token },
    { route: 'PATCH /api/v1/agents/:id/notifications', url: `/api/v1/agents/${a}/notifications`, payload: { new_ticket: false }, token },
    { route: 'POST /api/v1/agents/:id/notifications', url: `/api/v1/agents/${a}/notifications`, payload: { new_comment: false }, token },
    { route: 'PUT /api/v1/agents/:id/notifications', url: `/api/v1/agents/${a}/notifications`, payload: { ticket_reassigned: false }, token },
    { route: 'PUT /api/v1/agents/:id/categories', url: `/api/v1/agents/${a}/categories`, payload: { categories: [k] }, token },
    { route: 'GET /api/v1/agents/:id/categories', url: `/api/v1/agents/${a}/categories`, token },
    { route: 'DELETE /api/v1/agents/:id', url: `/api/v1/agents/${doomedAgent.user.id}`, token },

    { route: 'GET /api/v1/categories', url: `/api/v1/categories?${everything.categories}`, token },
    { route: 'GET /api/v1/categories/:id', url: `/api/v1/categories/${k}?${everything.categories}`, token },
    { route: 'GET /api/v1/categories/:id/assignment', url: `/api/v1/categories/${k}/assignment`, token },
    { route: 'PUT /api/v1/categories/:id/assignment', url: `/api/v1/categories/${k}/assignment`, payload: { mode: 'round_robin' }, token },
    { route: 'POST /api/v1/categories', url: '/api/v1/categories', payload: { name: 'Walk 2' }, token },
    { route: 'POST /api/v1/categories/order', url: '/api/v1/categories/order', payload: { order: [k, doomedCategory.id] }, token },
    { route: 'PATCH /api/v1/categories/:id', url: `/api/v1/categories/${k}`, payload: { name: 'Walked' }, token },
    { route: 'POST /api/v1/categories/:id', url: `/api/v1/categories/${k}`, payload: { thumbnail: 'https://cdn.test/w.png' }, token },
    { route: 'PUT /api/v1/categories/:id', url: `/api/v1/categories/${k}`, payload: { purchase_verification: 1 }, token },
    { route: 'DELETE /api/v1/categories/:id', url: `/api/v1/categories/${doomedCategory.id}`, token },

    // Logging out last: it revokes the admin's token.
    { route: 'POST /api/v1/auth/logout', url: '/api/v1/auth/logout', token }
  ]
}

eachDialect((dialect) => {
  describe(`foundation on ${dialect}`, () => {
    it('logs in and reads me', async (t) => {
      const h = await buildApp(t, dialect)
      const { user } = await h.user('admin', { email: 'Boss@Example.com', password: 'secret123' })
      const login = await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'boss@example.com', password: 'secret123' } })
      assert.equal(login.statusCode, 200, login.body)
      const token = login.json().data.token as string
      const me = await h.inject({ method: 'GET', url: '/api/v1/auth/me', token })
      assert.equal(me.statusCode, 200)
      assert.deepEqual(me.json().data.id, user.id)
      assert.equal(me.json().data.type, 'admin')
    })

    it('never answers with a password hash, a token hash or a token it did not just issue, on any foundation route', async (t) => {
      const h = await buildApp(t, dialect)
      const walk = await steps(h)
      const walked = new Set(walk.map((s) => s.route))
      const missing = h.routes.filter((r) => FOUNDATION_ROUTE.test(r) && !walked.has(r))
      assert.deepEqual(missing, [], 'every foundation route is walked')

      const bodies: string[] = []
      for (const step of walk) {
        const [method] = step.route.split(' ') as ['GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE']
        const res = await h.inject({ method, url: step.url, ...(step.payload !== undefined ? { payload: step.payload as object } : {}), ...(step.token !== undefined ? { token: step.token } : {}) })
        assert.ok(res.statusCode < 300, `${step.route}: ${res.statusCode} ${res.body}`)
        assert.deepEqual(secretKeys(res.json()), [], `${step.route}: ${res.body}`)
        assert.ok(!res.body.includes('$argon2'), `${step.route}: ${res.body}`)
        bodies.push(res.body)
      }
      const users = await h.store.knex('users').select('password_hash') as Array<{ password_hash: string | null }>
      const tokens = await h.store.knex('api_tokens').select('token_hash') as Array<{ token_hash: string }>
      const secrets = [...users.map((u) => u.password_hash), ...tokens.map((k) => k.token_hash)].filter((s): s is string => s !== null)
      assert.ok(secrets.length > 5)
      for (const body of bodies) {
        for (const secret of secrets) assert.ok(!body.includes(secret), 'a stored hash appears in a response')
      }
    })
  })
})
