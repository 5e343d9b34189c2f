import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { Role } from '../users/user.js'
import { person, type WithStore } from './conformance-support.js'

/** The contracts of `AccountTokenRepository`, `TwoFactorRepository`, `SettingsRepository` and the single-use parts of `SsoRepository`. */
export function signInConformance (withStore: WithStore): void {
  describe('sign-in', () => {
    it('account tokens: found while alive, used once (of concurrent consumers exactly one wins), replaced by a newer one, attempts counted', async () => {
      await withStore(async ({ store }) => {
        const user = await store.users.create(person(Role.Customer, 'ann@example.com'))
        const later = '2099-01-01 00:00:00'
        await store.accountTokens.create({ user_id: user.id, purpose: 'password-reset', token_hash: 'a'.repeat(64), expires_at: later })
        assert.equal((await store.accountTokens.find('password-reset', 'a'.repeat(64), '2030-01-01 00:00:00'))?.user_id, user.id)
        assert.equal(await store.accountTokens.find('magic-link', 'a'.repeat(64), '2030-01-01 00:00:00'), null, 'another purpose')
        assert.equal(await store.accountTokens.find('password-reset', 'a'.repeat(64), later), null, 'expired at its expiry')
        const wins = await Promise.all([1, 2, 3, 4].map(async () => await store.accountTokens.consume('password-reset', 'a'.repeat(64), '2030-01-01 00:00:00')))
        assert.deepEqual(wins.filter((w) => w !== null), [user.id])

        await store.accountTokens.create({ user_id: user.id, purpose: 'magic-link', token_hash: 'b'.repeat(64), expires_at: later })
        await store.accountTokens.create({ user_id: user.id, purpose: 'magic-link', token_hash: 'c'.repeat(64), expires_at: later })
        assert.equal(await store.accountTokens.consume('magic-link', 'b'.repeat(64), '2030-01-01 00:00:00'), null, 'only the newest works')
        await store.accountTokens.create({ user_id: user.id, purpose: 'second-factor', token_hash: 'd'.repeat(64), expires_at: later })
        const challenge = await store.accountTokens.find('second-factor', 'd'.repeat(64), '2030-01-01 00:00:00')
        assert.ok(challenge !== null)
        assert.equal(await store.accountTokens.recordAttempt(challenge.id, 2), true)
        assert.equal(await store.accountTokens.recordAttempt(challenge.id, 2), false, 'gone at the maximum')
        assert.equal(await store.accountTokens.find('second-factor', 'd'.repeat(64), '2030-01-01 00:00:00'), null)
        assert.equal(await store.accountTokens.deleteExpired(later, 10), 1, 'the newest magic link, expired by then')
      })
    })

    it('two-factor: a pending enrolment is confirmed by a step, a step is accepted once (concurrently too), recovery codes used once', async () => {
      await withStore(async ({ store }) => {
        const user = await store.users.create(person(Role.Agent, 'gus@example.com'))
        assert.equal(await store.twoFactor.begin(user.id, 'plain:SECRET'), true)
        assert.equal(await store.twoFactor.useStep(user.id, 100, false), false, 'not confirmed yet: no sign-in step')
        assert.equal(await store.twoFactor.useStep(user.id, 100, true), true)
        assert.equal(await store.twoFactor.begin(user.id, 'plain:OTHER'), false, 'confirmed: no new enrolment')
        const record = await store.twoFactor.find(user.id)
        assert.equal(record?.last_step, 100)
        assert.ok(record?.confirmed_at !== null)
        assert.deepEqual(await store.twoFactor.enabledAmong([user.id, 987654]), [user.id])
        const steps = await Promise.all([1, 2, 3].map(async () => await store.twoFactor.useStep(user.id, 101, false)))
        assert.deepEqual(steps.filter(Boolean).length, 1)
        assert.equal(await store.twoFactor.useStep(user.id, 100, false), false, 'an earlier step')

        await store.twoFactor.replaceRecoveryCodes(user.id, ['h1', 'h2'])
        assert.equal(await store.twoFactor.countRecoveryCodes(user.id), 2)
        const used = await Promise.all([1, 2].map(async () => await store.twoFactor.useRecoveryCode(user.id, 'h1')))
        assert.deepEqual(used.filter(Boolean).length, 1)
        assert.equal(await store.twoFactor.recordFailure(user.id, '2030-01-01 00:00:00', '2029-12-31 23:45:00'), 1)
        assert.equal(await store.twoFactor.recordFailure(user.id, '2030-01-01 00:01:00', '2029-12-31 23:46:00'), 2)
        assert.equal(await store.twoFactor.recordFailure(user.id, '2030-01-01 00:20:00', '2030-01-01 00:05:00'), 1, 'a new window')
        assert.equal(await store.twoFactor.remove(user.id), true)
        assert.equal(await store.twoFactor.find(user.id), null)
        assert.equal(await store.twoFactor.countRecoveryCodes(user.id), 0)
      })
    })

    it('settings: stored values read back as JSON; a put replaces a key', async () => {
      await withStore(async ({ store }) => {
        assert.deepEqual(await store.settings.all(), [])
        await store.settings.put({ 'auth.two_factor_required': ['admin'], 'auth.sso_only_staff': false })
        await store.settings.put({ 'auth.sso_only_staff': true })
        const all = await store.settings.all()
        assert.deepEqual(all.map((s) => [s.key, s.value]), [['auth.sso_only_staff', true], ['auth.two_factor_required', ['admin']]])
      })
    })

    it('sso: a sign-in flow is used once, and a session\'s re-check is claimed by one caller', async () => {
      await withStore(async ({ store }) => {
        const user = await store.users.create(person(Role.Agent, 'sso@example.com'))
        const provider = await store.sso.createProvider({
          slug: 'idp', name: 'IdP', issuer: 'https://sso.example.com', client_id: 'c', client_secret: null, scopes: 'openid', enabled: true,
          staff: true, customers: false, create_users: false, link_by_email: false, mapping: { claim: null, admin: [], agent: [], permissions: {}, categories: {} }
        })
        await store.sso.createFlow('f'.repeat(64), { provider_id: provider.id, nonce: 'n', code_verifier: 'v', return_to: null }, '2099-01-01 00:00:00')
        const flows = await Promise.all([1, 2, 3].map(async () => await store.sso.consumeFlow('f'.repeat(64), '2030-01-01 00:00:00')))
        assert.equal(flows.filter((f) => f !== null).length, 1)
        const identity = await store.sso.createIdentity({ provider_id: provider.id, sub: 'sub-1', user_id: user.id, email: null })
        const token = await store.tokens.create({ user_id: user.id, name: 'sso', token_hash: 'e'.repeat(64), session: true })
        await store.sso.linkSession(token.id, identity.id, null, '2030-01-01 00:00:00')
        assert.equal((await store.sso.findSession(token.id))?.sub, 'sub-1')
        const claims = await Promise.all([1, 2, 3].map(async () => await store.sso.claimCheck(token.id, '2030-01-01 00:00:00', '2030-01-01 00:20:00')))
        assert.equal(claims.filter(Boolean).length, 1)
      })
    })
  })
}
