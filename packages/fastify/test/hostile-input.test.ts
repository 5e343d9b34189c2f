import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { noPermissions, PERMISSION_KEYS } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectValidation } from './http-assertions.js'
import { buildAccessWorld, type AccessWorld } from './security/access-world.js'
import { describeRequest, requestsFor, type Caller, type FuzzRequest } from './security/hostile-requests.js'
import { snapshotCounter } from './security/row-counts.js'
import type { Person } from './ticket-fixtures.js'

/**
 * Property-based hostile input: for every route, requests generated from its
 * own schemas and then bent (wrong types, huge and unicode strings, nulls,
 * edge numbers, SQL and HTML payloads, unknown and duplicated query keys,
 * malformed ids, bodies and tokens). `HELPDESK_FUZZ_SEED` replays a run,
 * `HELPDESK_FUZZ_REQUESTS` sets the requests per dialect (spread evenly over the routes).
 */
const SEED = process.env.HELPDESK_FUZZ_SEED !== undefined ? Number(process.env.HELPDESK_FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31)
/** Per dialect: both dialects together make at least 10,000 requests per CI run. */
const REQUESTS_PER_DIALECT = Number(process.env.HELPDESK_FUZZ_REQUESTS ?? 5000)

/** What is wrong with a response in the contract's terms, or null. */
function contractProblem (res: LightMyRequestResponse): string | null {
  if (res.statusCode >= 500) return `a ${res.statusCode}: ${res.body.slice(0, 200)}`
  const json = /^application\/json; charset=utf-8$/.test(String(res.headers['content-type']))
  if (res.statusCode < 400) return null
  if (!json) return `a ${res.statusCode} of type ${String(res.headers['content-type'])}`
  const body = res.json() as { message?: unknown, errors?: unknown }
  if (typeof body.message !== 'string' || body.message === '') return `a ${res.statusCode} without a message`
  const extra = Object.keys(body).filter((key) => key !== 'message' && key !== 'errors')
  if (extra.length > 0) return `a ${res.statusCode} with keys ${extra.join(', ')}`
  if (res.statusCode === 401 && body.message !== 'Unauthenticated.') return `a 401 saying "${body.message}"`
  if (res.statusCode === 422) {
    const errors = body.errors as Record<string, unknown> | undefined
    if (typeof errors !== 'object' || errors === null || Object.keys(errors).length === 0) return 'a 422 without errors'
    for (const [key, messages] of Object.entries(errors)) {
      if (!Array.isArray(messages) || messages.length === 0 || !messages.every((m) => typeof m === 'string' && m !== '')) return `a 422 whose errors.${key} is not a list of sentences`
    }
  } else if (body.errors !== undefined) {
    return `a ${res.statusCode} with errors`
  }
  return null
}

/** The callers of the run; one whose token stopped working (logout, ban, deletion, new password) is replaced. */
class Callers {
  constructor (private readonly h: TestApp, private readonly people: Record<Exclude<Caller, 'anonymous' | 'forged'>, Person>) {}

  async restore (world: AccessWorld): Promise<void> {
    for (const role of ['admin', 'agent', 'customer'] as const) {
      if (await this.h.helpdesk.auth.authenticate(this.people[role].token) !== null) continue
      const person = await this.h.user(role)
      if (role === 'agent') {
        const permissions = { ...noPermissions(), ...Object.fromEntries(PERMISSION_KEYS.map((k) => [k, true])) }
        person.user = await this.h.store.users.update(person.user.id, { permissions }) ?? person.user
        await this.h.store.users.setCategories(person.user.id, [world.category]).catch(() => {})
      }
      this.people[role] = person
    }
  }

  authorization (request: FuzzRequest): Record<string, string> {
    if (request.caller === 'anonymous') return {}
    if (request.caller === 'forged') return { authorization: request.forgedAuthorization ?? '' }
    return { authorization: `Bearer ${this.people[request.caller].token}` }
  }
}

/** Imports run in the background after a 202: run them now, so their writes are not blamed on a later request. */
async function importsSettled (h: TestApp): Promise<void> {
  await h.helpdesk.imports.runPending()
  for (let i = 0; i < 400; i++) {
    const row = await h.store.knex('imports').whereIn('status', ['queued', 'running']).count({ n: '*' }).first() as { n: number | string }
    if (Number(row.n) === 0) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('an import did not finish')
}

eachDialect((dialect) => {
  describe(`hostile input on ${dialect}`, () => {
    it('never answers 5xx, always in the contract\'s error shape, and writes nothing when it refuses', async (t) => {
      const h = await buildApp(t, dialect)
      const world = await buildAccessWorld(h)
      await importsSettled(h)
      const counts = await snapshotCounter(h)
      const callers = new Callers(h, { admin: world.admin, agent: world.privileged.all, customer: world.owner })
      const knownIds = {
        integers: [world.ticket, world.reply, world.category, world.spareCategory, world.collection, world.draft, world.field,
          world.cannedResponse, world.importJob, world.owner.user.id, world.staffTarget.user.id],
        strings: [world.attachment, world.notification]
      }
      let sent = 0
      const statuses = new Map<number, number>()
      // Deletions last, so the rows the other routes' well-formed ids name are still there.
      // Event streams stay open (an inject would never end): event-stream.test.ts drives them over real HTTP.
      const routes = [...h.routeOptions]
        .filter((route) => !((route.schema.produces as string[] | undefined) ?? []).includes('text/event-stream'))
        .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
      // Spread over the routes that are driven (the streams are not), so the total reaches the target.
      const runsPerRoute = Math.ceil(REQUESTS_PER_DIALECT / routes.length)
      t.diagnostic(`fuzz seed ${SEED} (HELPDESK_FUZZ_SEED=${SEED} to replay), ${runsPerRoute} requests per route`)
      for (const [index, route] of routes.entries()) {
        await t.test(`${route.method} ${route.url}`, async () => {
          await callers.restore(world)
          // The counts after each request are the next one's "before": one count per request.
          let current = await counts()
          await fc.assert(fc.asyncProperty(requestsFor(route, knownIds), async (request) => {
            const res = await h.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: { ...request.headers, ...callers.authorization(request) },
              ...(request.payload !== undefined ? { payload: request.payload } : {})
            })
            sent++
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
            const problem = contractProblem(res)
            assert.equal(problem, null, `${describeRequest(request)}: ${problem ?? ''}`)
            if (res.statusCode < 400 && route.url.endsWith('/imports')) await importsSettled(h)
            const before = current
            current = await counts()
            if (res.statusCode >= 400) assert.deepEqual(current, before, `${describeRequest(request)} was refused with ${res.statusCode} but changed rows or files`)
          }), { seed: SEED + index, numRuns: runsPerRoute, includeErrorInReport: true })
        })
      }
      const histogram = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(', ')
      t.diagnostic(`hostile input on ${dialect}: ${sent} generated requests over ${h.routeOptions.length} routes (${histogram})`)
      assert.ok(sent >= REQUESTS_PER_DIALECT, `${sent} requests sent`)
    })

    it('refuses what the fuzzer once got a 5xx or a foreign error shape with (regressions)', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const counts = await snapshotCounter(h)
      const before = await counts()
      // NUL characters: PostgreSQL cannot store them (500 before); refused per field on both databases.
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/categories', token, payload: { name: 'a\u0000b' } }), 'name')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/canned-responses', token, payload: { name: 'n', body: 'x\u0000', global: true } }), 'body')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a\u0000@example.com', password: 'x' } }), 'email')
      expectValidation(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[search]=%00abc', token }), 'filter.search')
      expectValidation(await h.inject({ method: 'GET', url: '/api/v1/customers?filter[email]=a%00', token }), 'filter.email')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token, payload: { category: 1, title: 't', body: 'b', attachments: ['\u0000'] } }), 'attachments.0')
      // An order map with a non-numeric key or a non-id value (500 on PostgreSQL before), or empty.
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/categories/order', token, payload: { order: { '': [] } } }), 'order.')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/categories/order', token, payload: { order: { 1: 'x', 2: [] } } }), 'order.1', 'order.2')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/article-collections/order', token, payload: { order: {} } }), 'order')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/articles/order', token, payload: { order: { 0: 1 } } }), 'order.0')
      // URLs Fastify refuses before routing: its own body (echoing the URL) before, the contract's now.
      assert.deepEqual(expectError(await h.inject({ method: 'GET', url: `/api/v1/tickets/${'x'.repeat(2000)}`, token }), 404), { message: 'Not found.' })
      assert.deepEqual(expectError(await h.inject({ method: 'DELETE', url: '/api/v1/tickets/%E0%A4%A', token }), 400), { message: 'The URL is malformed.' })
      assert.deepEqual(await counts(), before)
    })
  })
})
