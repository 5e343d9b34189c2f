import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { Role } from '@helpdesk/core'
import { buildApp, eachDialect, manualClock, type ManualClock, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectUnauthenticated, expectValidation } from './http-assertions.js'
import { CLIENT, OTHER_CLIENT, startIdentityProvider, type TestAccount, type TestIdentityProvider } from './oidc-provider-fixture.js'

const PUBLIC_URL = 'http://helpdesk.test/api/v1'
const CALLBACK = `${PUBLIC_URL}/auth/sso/idp/callback`
const MINUTE = 60_000

interface World { h: TestApp, idp: TestIdentityProvider, clock: ManualClock, admin: string, providerId: number }

const ACCOUNTS: Record<string, TestAccount> = {
  'ann-sub': { email: 'ann@example.com', email_verified: true, given_name: 'Ann', family_name: 'Agent', groups: ['helpdesk-agents', 'billing-team'] },
  'ada-sub': { email: 'ada@example.com', email_verified: true, given_name: 'Ada', family_name: 'Admin', groups: ['helpdesk-admins'] },
  'old-sub': { email: 'existing@example.com', email_verified: true, groups: ['helpdesk-agents'] },
  'liar-sub': { email: 'existing@example.com', email_verified: false, groups: ['helpdesk-agents'] },
  'nobody-sub': { email: 'nobody@example.com', email_verified: true, groups: [] }
}

async function world (t: TestContext, dialect: 'sqlite' | 'postgres', provider: Record<string, unknown> = {}): Promise<World> {
  // The help desk's clock starts at the real time (the provider signs with the real one); tests move it on.
  const clock = manualClock(Date.now())
  const h = await buildApp(t, dialect, { clock, signIn: { publicUrl: PUBLIC_URL, secretKey: 'sso-test-key' } })
  const idp = await startIdentityProvider(t, CALLBACK, structuredClone(ACCOUNTS))
  const admin = await h.user('admin', { email: 'root@example.com' })
  const billing = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories', token: admin.token, payload: { name: 'Billing' } }), 201).data.id
  const created = expectStatus(await h.inject({
    method: 'POST', url: '/api/v1/sso/providers', token: admin.token,
    payload: {
      slug: 'idp', name: 'Test IdP', issuer: idp.issuer, client_id: CLIENT.id, client_secret: CLIENT.secret, scopes: 'openid email profile groups',
      staff: true, customers: false, create_users: true, link_by_email: true,
      mapping: { claim: 'groups', admin: ['helpdesk-admins'], agent: ['helpdesk-agents'], permissions: { view_all_tickets: ['billing-team'] }, categories: { 'billing-team': [billing] } },
      ...provider
    }
  }), 201).data
  return { h, idp, clock, admin: admin.token, providerId: created.id }
}

/** Starts a sign-in in a "browser": the provider's URL and the state cookie. */
async function start (w: World, returnTo?: string): Promise<{ location: string, cookie: string }> {
  const res = await w.h.inject({ method: 'GET', url: `/api/v1/auth/sso/idp/start${returnTo !== undefined ? `?return_to=${encodeURIComponent(returnTo)}` : ''}` })
  assert.equal(res.statusCode, 302, res.body)
  const cookie = /^helpdesk_sso_state=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1]
  assert.ok(cookie !== undefined)
  return { location: String(res.headers.location), cookie: `helpdesk_sso_state=${cookie}` }
}

async function callback (w: World, url: URL, cookie: string | null) {
  const res = await w.h.inject({ method: 'GET', url: `/api/v1/auth/sso/idp/callback${url.search}`, headers: cookie === null ? {} : { cookie } })
  assert.equal(res.statusCode, 302, res.body)
  const session = /helpdesk_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1]
  return { location: String(res.headers.location), session: session === undefined || session === '' ? null : `helpdesk_session=${session}` }
}

/** A whole sign-in as `accountId`; answers where it landed and the session cookie (null when refused). */
async function signIn (w: World, accountId: string, returnTo?: string) {
  const begun = await start(w, returnTo)
  const back = await w.idp.signIn(begun.location, accountId)
  return { ...await callback(w, back, begun.cookie), back, cookie: begun.cookie }
}

const me = async (w: World, cookie: string) => await w.h.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } })

function refused (location: string, pattern: RegExp): void {
  assert.match(location, /^http:\/\/helpdesk\.test\/login\?sso_error=/)
  assert.match(decodeURIComponent(location.slice(location.indexOf('=') + 1)), pattern)
}

eachDialect((dialect) => {
  describe(`single sign-on with OpenID Connect on ${dialect}`, () => {
    it('signs a new agent in with PKCE, state and nonce, maps groups to role, permissions and categories, and lands on return_to', async (t) => {
      const w = await world(t, dialect)
      const begun = await start(w, '/tickets?mine=1')
      const auth = new URL(begun.location)
      assert.equal(auth.searchParams.get('code_challenge_method'), 'S256')
      assert.ok((auth.searchParams.get('code_challenge') ?? '').length >= 43)
      assert.ok(auth.searchParams.get('state') !== null && auth.searchParams.get('nonce') !== null)
      assert.equal(auth.searchParams.get('redirect_uri'), CALLBACK)
      const back = await w.idp.signIn(begun.location, 'ann-sub')
      const done = await callback(w, back, begun.cookie)
      assert.equal(done.location, 'http://helpdesk.test/tickets?mine=1')
      assert.ok(done.session !== null)
      const session = expectStatus(await me(w, done.session), 200).data
      assert.equal(session.user.email, 'ann@example.com')
      assert.equal(session.user.type, 'agent')
      assert.equal(session.permissions.view_all_tickets, true)
      const ann = await w.h.store.users.findByEmail('ann@example.com')
      const billing = (await w.h.store.knex('categories').where('name', 'Billing').first()).id
      assert.deepEqual(await w.h.store.users.categoryIds(ann?.id ?? 0), [billing])
      // The admin group makes an administrator.
      const ada = await signIn(w, 'ada-sub')
      assert.equal(expectStatus(await me(w, ada.session ?? ''), 200).data.user.type, 'admin')
      assert.equal((await w.h.store.users.findByEmail('ada@example.com'))?.role, Role.Admin)
    })

    it('refuses a bad state, a state from another browser and a replayed code', async (t) => {
      const w = await world(t, dialect)
      const begun = await start(w)
      const back = await w.idp.signIn(begun.location, 'ann-sub')
      // No cookie (another browser), then a forged state.
      refused((await callback(w, back, null)).location, /not started in this browser/)
      const forged = new URL(back)
      forged.searchParams.set('state', 'forged-state')
      refused((await callback(w, forged, begun.cookie)).location, /not started in this browser/)
      // The genuine one still works once...
      const done = await callback(w, back, begun.cookie)
      assert.ok(done.session !== null)
      // ...and never again, not even with the code under a new state.
      const replay = await callback(w, back, begun.cookie)
      assert.equal(replay.session, null)
      refused(replay.location, /used already or expired/)
      const again = await start(w)
      const state = new URL(again.location).searchParams.get('state') ?? ''
      const reused = new URL(back)
      reused.searchParams.set('state', state)
      const second = await callback(w, reused, again.cookie)
      assert.equal(second.session, null)
      refused(second.location, /could not be verified/)
    })

    it('refuses a code issued to another client (wrong audience) and an expired ID token', async (t) => {
      const w = await world(t, dialect)
      const begun = await start(w)
      const ours = new URL(begun.location)
      const theirs = new URL(begun.location)
      theirs.searchParams.set('client_id', OTHER_CLIENT.id)
      const back = await w.idp.signIn(theirs.href, 'ann-sub')
      assert.equal(back.searchParams.get('state'), ours.searchParams.get('state'))
      const wrong = await callback(w, back, begun.cookie)
      assert.equal(wrong.session, null)
      refused(wrong.location, /could not be verified/)

      // The help desk's clock is two hours ahead of the provider's one-hour ID token.
      w.clock.advance(120 * MINUTE)
      const late = await signIn(w, 'ann-sub')
      assert.equal(late.session, null)
      refused(late.location, /could not be verified/)
      assert.equal(await w.h.store.users.findByEmail('ann@example.com'), null)
    })

    it('links by email only when verified and allowed, and afterwards matches by sub alone', async (t) => {
      const w = await world(t, dialect)
      const existing = await w.h.user('agent', { email: 'existing@example.com' })
      const liar = await signIn(w, 'liar-sub')
      assert.equal(liar.session, null)
      refused(liar.location, /did not confirm your email/)
      assert.equal((await w.h.store.knex('sso_identities').count({ n: '*' }))[0].n, 0)

      expectStatus(await w.h.inject({ method: 'PATCH', url: `/api/v1/sso/providers/${w.providerId}`, token: w.admin, payload: { link_by_email: false } }), 200)
      refused((await signIn(w, 'old-sub')).location, /already exists here/)
      expectStatus(await w.h.inject({ method: 'PATCH', url: `/api/v1/sso/providers/${w.providerId}`, token: w.admin, payload: { link_by_email: true } }), 200)
      const linked = await signIn(w, 'old-sub')
      assert.equal(expectStatus(await me(w, linked.session ?? ''), 200).data.user.id, existing.user.id)

      // The provider now says this sub has Ann's address (and Ann has an account): the sub still decides.
      await signIn(w, 'ann-sub')
      const account = w.idp.accounts.get('old-sub')
      if (account !== undefined) account.email = 'ann@example.com'
      const again = await signIn(w, 'old-sub')
      assert.equal(expectStatus(await me(w, again.session ?? ''), 200).data.user.id, existing.user.id)

      // Someone unknown without a mapped group and a staff-only provider: refused, nobody created.
      refused((await signIn(w, 'nobody-sub')).location, /not allowed to sign in/)
      assert.equal(await w.h.store.users.findByEmail('nobody@example.com'), null)
    })

    it('ends the session of a person disabled at the provider at their first request after the re-check interval', async (t) => {
      const w = await world(t, dialect)
      const done = await signIn(w, 'ann-sub')
      const cookie = done.session ?? ''
      expectStatus(await me(w, cookie), 200)
      // Still enabled: re-checked after 15 minutes with the refresh token, and kept.
      w.clock.advance(16 * MINUTE)
      expectStatus(await me(w, cookie), 200)
      const account = w.idp.accounts.get('ann-sub')
      if (account !== undefined) account.disabled = true
      // Within the interval the session goes on; past it, the provider refuses the refresh and the session ends.
      w.clock.advance(5 * MINUTE)
      expectStatus(await me(w, cookie), 200)
      w.clock.advance(11 * MINUTE)
      expectUnauthenticated(await me(w, cookie))
      assert.equal((await w.h.store.knex('sso_sessions').count({ n: '*' }))[0].n, 0)
      // And a new sign-in is refused by the provider itself (it no longer knows the account).
      await assert.rejects(signIn(w, 'ann-sub'))
    })

    it('keeps the client secret write-only and sealed, validates providers, and refuses staff passwords when SSO-only', async (t) => {
      const w = await world(t, dialect)
      const listed = expectStatus(await w.h.inject({ method: 'GET', url: '/api/v1/sso/providers', token: w.admin }), 200)
      assert.ok(!JSON.stringify(listed).includes(CLIENT.secret))
      assert.equal(listed.data[0].has_client_secret, true)
      assert.equal(listed.meta.total, 1, 'paged like every list')
      assert.deepEqual(expectStatus(await w.h.inject({ method: 'GET', url: '/api/v1/sso/providers?filter[enabled]=0', token: w.admin }), 200).data, [])
      expectError(await w.h.inject({ method: 'GET', url: '/api/v1/sso/providers?sort=client_secret', token: w.admin }), 400)
      const row = await w.h.store.knex('sso_providers').first()
      assert.match(row.client_secret, /^v1:/)
      expectValidation(await w.h.inject({
        method: 'POST', url: '/api/v1/sso/providers', token: w.admin, payload: { slug: 'idp', name: 'Again', issuer: 'https://sso.example.com', client_id: 'x' }
      }), 'slug')
      expectValidation(await w.h.inject({
        method: 'POST', url: '/api/v1/sso/providers', token: w.admin, payload: { slug: 'plain', name: 'Plain', issuer: 'http://sso.example.com', client_id: 'x' }
      }), 'issuer')
      const buttons = expectStatus(await w.h.inject({ method: 'GET', url: '/api/v1/auth/sso/providers' }), 200).data
      assert.deepEqual(buttons, [{ slug: 'idp', name: 'Test IdP', staff: true, customers: false }])

      const agent = await w.h.user('agent', { email: 'pw-agent@example.com' })
      await w.h.user('customer', { email: 'pw-customer@example.com' })
      expectStatus(await w.h.inject({ method: 'PATCH', url: '/api/v1/settings', token: w.admin, payload: { 'auth.sso_only_staff': true } }), 200)
      expectError(await w.h.inject({ method: 'POST', url: '/api/v1/auth/session', payload: { email: 'pw-agent@example.com', password: 'secret123' } }), 403)
      expectStatus(await w.h.inject({ method: 'POST', url: '/api/v1/auth/session', payload: { email: 'pw-customer@example.com', password: 'secret123' } }), 200)
      // Personal API tokens still work (they are not password sign-ins).
      expectStatus(await w.h.inject({ method: 'GET', url: '/api/v1/auth/me', token: agent.token }), 200)

      // Removing the provider ends its sessions.
      const done = await signIn(w, 'ann-sub')
      expectStatus(await w.h.inject({ method: 'DELETE', url: `/api/v1/sso/providers/${w.providerId}`, token: w.admin }), 200)
      expectUnauthenticated(await me(w, done.session ?? ''))
    })
  })
})
