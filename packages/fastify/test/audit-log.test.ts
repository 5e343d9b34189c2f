import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { audit, CoreJobType, redactSecrets, REDACTED, SYSTEM } from '@helpdesk/core'
import { buildApp, eachDialect, manualClock, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk } from './ticket-fixtures.js'
import { totp } from './totp.js'

const IP = '203.0.113.7'

async function auditLog (h: TestApp, token: string, query = ''): Promise<any> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/audit-log${query}`, token }), 200)
}

/** Every stored row as the database holds it: what a leak would show. */
async function rawLog (h: TestApp): Promise<string> {
  return JSON.stringify(await h.store.knex('audit_log').select('*').orderBy('id'))
}

describe('audit log: redaction (pure)', () => {
  it('replaces the value of every secret-named key, however deep, and keeps the rest', () => {
    const input = {
      id: 1, name: 'Hook', password: 'p', new_password: 'q', password_hash: '$argon2id$x', token: 't', token_hash: 'h', secret: 'whsec_1',
      client_secret: 'c', totp_secret: 's', recovery_codes: ['a'], nested: { api_key: 'k', deeper: [{ refresh_token: 'r', ok: true }] }, events: ['*'], active: true
    }
    assert.deepEqual(redactSecrets(input), {
      id: 1, name: 'Hook', password: REDACTED, new_password: REDACTED, password_hash: REDACTED, token: REDACTED, token_hash: REDACTED, secret: REDACTED,
      client_secret: REDACTED, totp_secret: REDACTED, recovery_codes: REDACTED, nested: { api_key: REDACTED, deeper: [{ refresh_token: REDACTED, ok: true }] }, events: ['*'], active: true
    })
    assert.equal(redactSecrets(undefined), null)
  })
})

eachDialect((dialect) => {
  describe(`audit log (${dialect})`, () => {
    it('records changes to the help desk with actor, IP, before and after, and never a secret', async (t) => {
      const clock = manualClock(Date.now())
      const h = await buildApp(t, dialect, { clock, webhooks: { allowPrivateTargets: true } })
      const d = await desk(h)
      const admin = d.admin
      const as = (token: string, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
        h.inject({ method, url: `/api/v1${url}`, token, remoteAddress: IP, ...(payload !== undefined ? { payload } : {}) })

      // Categories (desk() created two), custom fields, canned responses.
      expectStatus(await as(admin.token, 'PATCH', `/categories/${d.billing}`, { name: 'Invoices' }), 200)
      const field = expectStatus(await as(admin.token, 'POST', '/fields', { title: 'Plan', type: 'text' }), 201).data
      expectStatus(await as(admin.token, 'DELETE', `/fields/${field.id}`), 200)
      const canned = expectStatus(await as(d.agent.token, 'POST', '/canned-responses', { name: 'Hi', body: 'Hello' }), 201).data
      // Agents: details (with a new password), permissions, categories.
      expectStatus(await as(admin.token, 'PATCH', `/agents/${d.agent.user.id}`, { first_name: 'Gustav', new_password: 'NewPassw0rd!x', new_password_confirmation: 'NewPassw0rd!x' }), 200)
      expectStatus(await as(admin.token, 'PATCH', `/agents/${d.agent.user.id}/permissions`, { manage_customers: true }), 200)
      expectStatus(await as(admin.token, 'PUT', `/agents/${d.agent.user.id}/categories`, { categories: [d.sales] }), 200)
      // Webhooks and their secrets.
      const hook = expectStatus(await as(admin.token, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] }), 201).data
      const rotated = expectStatus(await as(admin.token, 'POST', `/webhooks/${hook.id}/secret`, {}), 200).data
      // API tokens, settings, sign-ins (one failed), sessions, two-factor.
      const personal = expectStatus(await as(admin.token, 'POST', '/auth/tokens', { name: 'CI' }), 201).data
      expectStatus(await as(admin.token, 'DELETE', `/auth/tokens/${personal.id}`), 200)
      expectStatus(await as(admin.token, 'PATCH', '/settings', { 'audit.retention_days': 90 }), 200)
      const wrong = await h.inject({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: IP, payload: { email: d.alice.user.email, password: 'not-her-password' } })
      expectValidation(wrong, 'email')
      const login = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: IP, payload: { email: d.alice.user.email, password: 'secret123' } }), 200).data
      const enrolment = expectStatus(await as(d.alice.token, 'POST', '/auth/two-factor/enrolment'), 200).data
      expectStatus(await as(d.alice.token, 'POST', '/auth/two-factor/confirmation', { code: totp(enrolment.secret, clock.now().getTime()) }), 200)
      clock.advance(60_000)
      expectStatus(await as(d.alice.token, 'DELETE', '/auth/two-factor', { code: totp(enrolment.secret, clock.now().getTime()) }), 200)

      const entries = (await auditLog(h, admin.token, '?sort=id&per_page=100')).data as any[]
      const actions = entries.map((e) => e.action)
      for (const action of [
        'category.created', 'category.updated', 'custom_field.created', 'custom_field.deleted', 'canned_response.created', 'agent.updated',
        'agent.permissions_updated', 'agent.categories_updated', 'webhook.created', 'webhook.secret_rotated', 'token.created', 'token.revoked',
        'settings.updated', 'auth.sign_in_failed', 'auth.sign_in', 'two_factor.enabled', 'two_factor.disabled'
      ]) assert.ok(actions.includes(action), `${action} is recorded (got ${actions.join(', ')})`)

      const one = (action: string) => entries.find((e) => e.action === action)
      const renamed = one('category.updated')
      assert.deepEqual([renamed.actor, renamed.ip, renamed.subject_type, renamed.subject_id, renamed.before.name, renamed.after.name],
        [{ kind: 'person', user_id: admin.user.id, name: null }, IP, 'category', String(d.billing), 'Billing', 'Invoices'])
      assert.equal(one('canned_response.created').actor.user_id, d.agent.user.id)
      assert.deepEqual([one('agent.permissions_updated').before.manage_customers, one('agent.permissions_updated').after.manage_customers], [false, true])
      assert.deepEqual(one('agent.categories_updated').after, { categories: [d.sales] })
      assert.deepEqual(one('agent.updated').after.also_changed, ['password'])
      assert.deepEqual([one('settings.updated').before, one('settings.updated').after], [{ 'audit.retention_days': 365 }, { 'audit.retention_days': 90 }])
      const failed = one('auth.sign_in_failed')
      assert.deepEqual([failed.ip, failed.after], [IP, { email: d.alice.user.email, reason: 'bad_credentials' }])
      assert.equal(entries.filter((e) => e.action === 'auth.sign_in').at(-1).subject_id, String(d.alice.user.id))
      assert.equal(one('webhook.secret_rotated').subject_id, String(hook.id))

      // No secret anywhere in the stored log: passwords, their hashes, tokens, webhook secrets, the TOTP seed.
      const stored = await rawLog(h)
      const hashes = (await h.store.knex('users').select('password_hash')).map((row: { password_hash: string | null }) => row.password_hash).filter((x): x is string => x !== null)
      for (const secret of ['not-her-password', 'secret123', 'NewPassw0rd!x', hook.secret, rotated.secret, personal.token, login.token, enrolment.secret, admin.token, ...hashes]) {
        assert.ok(!stored.includes(secret), `a secret (${String(secret).slice(0, 6)}...) reached the audit log`)
      }
      assert.ok(!stored.includes('$argon2'), 'no password hash')
      // Whatever a caller hands the log, a secret-named value is dropped on the way in.
      await audit(h.store, SYSTEM, { action: 'webhook.updated', subject_type: 'webhook', after: { url: 'http://x', secret: 'whsec_handed_in', nested: { totp_secret: 'JBSWY3DP' } } })
      const last = (await auditLog(h, admin.token, '?per_page=1')).data[0]
      assert.deepEqual(last.after, { url: 'http://x', secret: REDACTED, nested: { totp_secret: REDACTED } })
      assert.ok(!(await rawLog(h)).includes('whsec_handed_in') && !(await rawLog(h)).includes('JBSWY3DP'))
      void canned
    })

    it('is for administrators only, with filters, a time range and an incremental export', async (t) => {
      const clock = manualClock(Date.parse('2030-01-01T00:00:00Z'))
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      clock.advance(3_600_000)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/categories/${d.sales}`, token: d.admin.token, payload: { name: 'Deals' } }), 200)
      clock.advance(3_600_000)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/categories/${d.sales}`, token: d.admin.token }), 200)

      expectError(await h.inject({ method: 'GET', url: '/api/v1/audit-log', token: d.agent.token }), 403)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/audit-log', token: d.alice.token }), 403)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/audit-log' }), 401)

      const newest = await auditLog(h, d.admin.token, '?per_page=1')
      assert.equal(newest.data[0].action, 'category.deleted')
      assert.equal(newest.data[0].before.name, 'Deals')
      assert.ok(newest.links.next !== null)
      const bySubject = await auditLog(h, d.admin.token, `?filter[subject_type]=category&filter[subject_id]=${d.sales}&sort=id`)
      assert.deepEqual(bySubject.data.map((e: any) => e.action), ['category.created', 'category.updated', 'category.deleted'])
      const byAction = await auditLog(h, d.admin.token, '?filter[action]=category.updated,category.deleted&sort=id')
      assert.deepEqual(byAction.data.map((e: any) => e.action), ['category.updated', 'category.deleted'])
      const byActor = await auditLog(h, d.admin.token, `?filter[actor]=${d.admin.user.id}&include=user`)
      assert.ok(byActor.data.length >= 4 && byActor.data.every((e: any) => e.actor.user_id === d.admin.user.id && e.user.id === d.admin.user.id))
      const small = await h.countQueries(async () => await auditLog(h, d.admin.token, '?per_page=1&include=user'))
      const large = await h.countQueries(async () => await auditLog(h, d.admin.token, '?per_page=50&include=user'))
      assert.ok(large.result.data.length > 4)
      assert.equal(large.queries, small.queries, 'a fixed number of queries whatever the page size')
      const range = await auditLog(h, d.admin.token, '?filter[created_since]=2030-01-01 00:30:00&filter[created_before]=2030-01-01 01:30:00')
      assert.deepEqual(range.data.map((e: any) => e.action), ['category.updated'])
      expectValidation(await h.inject({ method: 'GET', url: '/api/v1/audit-log?filter[created_before]=yesterday', token: d.admin.token }), 'filter.created_before')

      // Export: oldest first from a time, page after page by cursor or page links, until links.next is null.
      const seen: string[] = []
      let url: string | null = '/api/v1/audit-log?sort=id&per_page=2&filter[created_since]=2030-01-01 00:00:00'
      while (url !== null) {
        const page = expectStatus(await h.inject({ method: 'GET', url, token: d.admin.token }), 200)
        seen.push(...page.data.map((e: any) => e.action))
        url = page.links.next === null ? null : new URL(page.links.next).pathname + new URL(page.links.next).search
      }
      assert.equal(seen.length, (await auditLog(h, d.admin.token, '?per_page=100')).meta.total)

      // A change that rolls back leaves no entry: a category in use cannot be deleted.
      const before = (await auditLog(h, d.admin.token)).meta.total
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.alice.token, payload: { title: 'T', body: 'B', category: d.billing } }), 201)
      expectValidation(await h.inject({ method: 'DELETE', url: `/api/v1/categories/${d.billing}`, token: d.admin.token }), 'category')
      assert.equal((await auditLog(h, d.admin.token)).meta.total, before)
    })

    it('prunes entries past the retention setting on the daily job', async (t) => {
      const clock = manualClock(Date.parse('2030-06-01T00:00:00Z'))
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      expectStatus(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'audit.retention_days': 30 } }), 200)
      expectValidation(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'audit.retention_days': 0 } }), 'audit.retention_days')
      assert.equal(expectStatus(await h.inject({ method: 'GET', url: '/api/v1/settings', token: d.admin.token }), 200).data['audit.retention_days'], 30)
      const total = (await auditLog(h, d.admin.token)).meta.total
      await h.store.knex('audit_log').insert([
        { actor_kind: 'system', actor_name: 'old', action: 'category.created', subject_type: 'category', created_at: '2030-04-01 00:00:00' },
        { actor_kind: 'system', actor_name: 'old', action: 'category.created', subject_type: 'category', created_at: '2030-05-20 00:00:00' }
      ])
      assert.ok(h.helpdesk.jobs.registered(CoreJobType.AuditPrune), 'the pruning job is registered')
      const removed = await h.helpdesk.auditLog.prune()
      assert.equal(removed, 1)
      assert.equal((await auditLog(h, d.admin.token)).meta.total, total + 1)
      // The system's own changes name it.
      await h.helpdesk.categories.create(SYSTEM, { name: 'Ops' } as never)
      assert.deepEqual((await auditLog(h, d.admin.token, '?per_page=1')).data[0].actor, { kind: 'system', user_id: null, name: 'system' })
    })
  })
})
