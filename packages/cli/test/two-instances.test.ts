import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it, type TestContext } from 'node:test'
import { fileURLToPath } from 'node:url'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect } from 'node:net'
import pg from 'pg'
import { createHelpdesk, Role, SYSTEM } from '@helpdesk/core'
import { eventually } from '@helpdesk/core/testing'
import { createKnexStore } from '@helpdesk/store-knex'
import { openStream } from '../../fastify/test/sse-client.js'
import { adminToken, deployment, killServer, startServer, type ServerProcess } from './server-process.js'

const REDIS_URL = process.env.HELPDESK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const PG_URL = process.env.HELPDESK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const RATE_LIMIT = 40
/** Lets `helpdesk serve` deliver webhooks to the loopback receiver of the test. */
const PRIVATE_TARGETS_ENV = { HELPDESK_WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1' }

/** A Redis answers PING (over a plain socket: the CLI does not depend on a Redis client). */
async function redisAnswers (): Promise<boolean> {
  const url = new URL(REDIS_URL)
  return await new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port === '' ? 6379 : url.port) })
    const done = (ok: boolean): void => { socket.destroy(); resolve(ok) }
    socket.setTimeout(1000, () => { done(false) })
    socket.once('error', () => { done(false) })
    socket.once('connect', () => { socket.write('PING\r\n') })
    socket.once('data', (data) => { done(data.toString().startsWith('+PONG')) })
  })
}

async function postgresAnswers (): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1000 })
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/** Skips without PostgreSQL and Redis, except under CI, where their absence is a failure. */
async function needsServices (t: TestContext): Promise<boolean> {
  const missing = [...(await postgresAnswers() ? [] : [`PostgreSQL at ${PG_URL}`]), ...(await redisAnswers() ? [] : [`Redis at ${REDIS_URL}`])]
  if (missing.length === 0) return true
  assert.notEqual(process.env.CI, 'true', `two-instance test needs ${missing.join(' and ')}`)
  t.skip(`needs ${missing.join(' and ')}`)
  return false
}

interface Pair { a: ServerProcess, b: ServerProcess, admin: string, databaseUrl: string, storage: string, env: Record<string, string> }

/** Two `helpdesk serve` processes on one fresh PostgreSQL database and one Redis (keys under a fresh prefix). */
async function twoInstances (t: TestContext): Promise<Pair> {
  const { databaseUrl, storage } = await deployment(t, 'postgres')
  const config = join(storage, 'helpdesk.config.json')
  writeFileSync(config, JSON.stringify({ rateLimit: { keyPrefix: `helpdesk-two-${randomBytes(6).toString('hex')}:` } }))
  const env = { HELPDESK_CONFIG: config, HELPDESK_REDIS_URL: REDIS_URL, HELPDESK_RATE_LIMIT: String(RATE_LIMIT), ...PRIVATE_TARGETS_ENV }
  const a = await startServer(databaseUrl, storage, env)
  t.after(async () => { await killServer(a) })
  const b = await startServer(databaseUrl, storage, env)
  t.after(async () => { await killServer(b) })
  return { a, b, admin: await adminToken(a), databaseUrl, storage, env }
}

async function call (server: ServerProcess, token: string, method: string, path: string, body?: unknown): Promise<{ status: number, json: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {})
  })
  const text = await res.text()
  return { status: res.status, json: text === '' ? null : JSON.parse(text) }
}

/** A new customer with the password `a long secret`; returns its id. */
async function customer (server: ServerProcess, admin: string, name: string, email = `${name}-${Date.now()}@example.com`): Promise<number> {
  const created = await call(server, admin, 'POST', '/customers', {
    first_name: name, last_name: 'Test', email, password: 'a long secret', password_confirmation: 'a long secret'
  })
  assert.equal(created.status, 201, JSON.stringify(created.json))
  return created.json.data.id
}

/**
 * An administrator of their own, logged in through `server`: rate limits are per user,
 * so calls made with it stay out of the first administrator's budget.
 */
async function anotherAdmin (server: ServerProcess, databaseUrl: string, name: string): Promise<string> {
  const store = createKnexStore({ url: databaseUrl })
  const email = `${name}-${Date.now()}@example.com`
  try {
    await createHelpdesk({ store }).agents.create(SYSTEM, { first_name: name, last_name: 'Admin', email, password: 'a long secret' }, Role.Admin, false)
  } finally {
    await store.close()
  }
  return await login(server, email, 'a long secret')
}

async function login (server: ServerProcess, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
  assert.equal(res.status, 200)
  return ((await res.json()) as { data: { token: string } }).data.token
}

interface Received { eventId: string, attempt: string, at: number }

/**
 * A webhook receiver on loopback: records every POST; `stall(match)` makes it
 * hold the matching request open (never answer) instead of answering 200.
 */
async function receiver (t: TestContext) {
  const received: Received[] = []
  let stallWhen: ((request: IncomingMessage, body: any) => boolean) | null = null
  const stalled: Array<{ eventId: string, deliveryId: string, response: ServerResponse }> = []
  const server = createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk: Buffer) => { raw += chunk.toString() })
    request.on('end', () => {
      const eventId = String(request.headers['helpdesk-event-id'])
      const attempt = String(request.headers['helpdesk-delivery-attempt'])
      if (stallWhen?.(request, JSON.parse(raw))) {
        stallWhen = null
        stalled.push({ eventId, deliveryId: String(request.headers['helpdesk-delivery-id']), response })
        return
      }
      received.push({ eventId, attempt, at: Date.now() })
      response.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(async () => {
    for (const { response } of stalled) response.destroy()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('receiver not listening')
  return {
    url: `http://127.0.0.1:${address.port}/hook`,
    received,
    stalled,
    stall: (match: (request: IncomingMessage, body: any) => boolean) => { stallWhen = match }
  }
}

/** A webhook receiver on loopback that answers every POST 503 and counts them. */
async function failingReceiver (t: TestContext): Promise<{ url: string, received: () => number }> {
  let received = 0
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => { received++; response.writeHead(503).end() })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('receiver not listening')
  return { url: `http://127.0.0.1:${address.port}/hook`, received: () => received }
}

describe('two helpdesk serve instances on one PostgreSQL and one Redis', () => {
  it('share live events, revocations, rate limits and background work', async (t) => {
    if (!await needsServices(t)) return
    const { a, b, admin, databaseUrl } = await twoInstances(t)

    await t.test('a change made through A reaches an event-stream client of B within a second', async () => {
      const category = await call(a, admin, 'POST', '/categories', { name: 'Billing' })
      assert.equal(category.status, 201)
      const stream = await openStream(`${b.url}/events`, { authorization: `Bearer ${admin}` })
      try {
        assert.equal(stream.status, 200)
        await stream.next((e) => e.event === 'unread_count')
        const started = Date.now()
        const ticket = await call(a, admin, 'POST', '/tickets', { title: 'From A', body: 'Seen on B?', category: category.json.data.id, customer_id: await customer(a, admin, 'carla') })
        assert.equal(ticket.status, 201, JSON.stringify(ticket.json))
        const seen = await stream.next((e) => e.event === 'ticket' && e.data.ticket.id === ticket.json.data.id, 1000)
        t.diagnostic(`A -> B stream delay: ${Date.now() - started} ms (including the write)`)
        assert.equal(seen.data.type, 'Tickets.TicketCreated')
      } finally {
        stream.close()
      }
    })

    await t.test('a token revoked on A fails on B at once', async () => {
      const email = `revoke-${Date.now()}@example.com`
      await customer(a, admin, 'revoke', email)
      const token = await login(a, email, 'a long secret')
      assert.equal((await call(b, token, 'GET', '/auth/me')).status, 200, 'B knows the token (and caches it)')
      assert.equal((await call(a, token, 'POST', '/auth/logout')).status, 200)
      assert.equal((await call(b, token, 'GET', '/auth/me')).status, 401)
    })

    await t.test('rate limits are shared through Redis', async () => {
      const email = `limited-${Date.now()}@example.com`
      await customer(a, admin, 'limited', email)
      const token = await login(b, email, 'a long secret')
      const statuses: number[] = []
      for (let i = 0; i < RATE_LIMIT + 2; i++) statuses.push((await call(i % 2 === 0 ? a : b, token, 'GET', '/auth/me')).status)
      const ok = statuses.filter((s) => s === 200).length
      assert.equal(ok, RATE_LIMIT, `one limit of ${RATE_LIMIT} across both instances: ${statuses.join(',')}`)
      assert.deepEqual(statuses.slice(RATE_LIMIT), [429, 429])
    })

    await t.test('an import started on A runs once', async () => {
      const csv = readFileSync(fileURLToPath(new URL('../../../examples/import/customers.csv', import.meta.url)))
      const form = new FormData()
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'customers.csv')
      const res = await fetch(`${a.url}/imports`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form })
      assert.equal(res.status, 202, await res.clone().text())
      const job = ((await res.json()) as { data: { id: number } }).data
      const done = await eventually('the import to finish', async () => {
        const view = await call(b, admin, 'GET', `/imports/${job.id}`)
        return ['completed', 'failed'].includes(view.json.data.status) ? view.json.data : undefined
      }, { timeoutMs: 15_000, intervalMs: 100 })
      assert.equal(done.status, 'completed', JSON.stringify(done))
      const rows = csv.toString().trim().split('\n').length - 1
      assert.equal(done.created, rows)
      const customers = await call(b, admin, 'GET', '/customers?per_page=100&filter[email]=@example.com')
      const imported = customers.json.data.filter((c: { email: string }) => !/^(carla|revoke|limited)-/.test(c.email))
      assert.equal(imported.length, rows, 'each customer once')
      const notifications = await call(a, admin, 'GET', '/notifications?filter[type]=Import.ImportCompletedSuccessfully')
      assert.equal(notifications.json.data.length, 1, 'one completion notification: the import ran once')
    })

    const hooks = await receiver(t)
    const db = new pg.Client({ connectionString: databaseUrl })
    // The database is dropped (connections terminated) by the deployment's own cleanup.
    db.on('error', () => {})
    await db.connect()
    t.after(async () => { await db.end() })
    const endpoint = await call(a, admin, 'POST', '/webhooks', { url: hooks.url, events: ['*'], description: 'two-instance test' })
    assert.equal(endpoint.status, 201, `creating a loopback endpoint needs private targets allowed: ${JSON.stringify(endpoint.json)}`)
    const startId = Number((await db.query('select coalesce(max(id), 0) as id from event_log')).rows[0].id)

    await t.test('each webhook event is delivered once per event id with both instances dispatching', async () => {
      const customerId = await customer(b, admin, 'hooked')
      const category = (await call(a, admin, 'POST', '/categories', { name: 'Hooks' })).json.data.id
      for (let i = 0; i < 10; i++) {
        const ticket = await call(i % 2 === 0 ? a : b, admin, 'POST', '/tickets', { title: `Hook ${i}`, body: 'x', category, customer_id: customerId })
        assert.equal(ticket.status, 201)
        assert.equal((await call(i % 2 === 0 ? b : a, admin, 'POST', `/tickets/${ticket.json.data.id}/comments`, { body: 'Reply', type: 1, private: false })).status, 201)
      }
      const expected = (await db.query('select id from event_log where id > $1 order by id', [startId])).rows.map((row) => String(row.id))
      assert.ok(expected.length >= 30, `events logged: ${expected.length}`)
      await eventually('every event delivered', async () => {
        const got = new Set(hooks.received.map((r) => r.eventId))
        return expected.every((id) => got.has(id))
      }, { timeoutMs: 30_000, intervalMs: 100 })
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const ids = hooks.received.map((r) => r.eventId)
      const duplicates = ids.length - new Set(ids).size
      t.diagnostic(`webhook deliveries: ${ids.length} for ${expected.length} events, ${duplicates} duplicates`)
      assert.equal(duplicates, 0)
    })

    await t.test('an endpoint failing on both instances is switched off at exactly 100 failures, its pending deliveries dropped', async () => {
      // An administrator of their own: the calls below stay out of the first one's rate limit (kept per user).
      const admin2 = await anotherAdmin(a, databaseUrl, 'webhooks')
      const failing = await failingReceiver(t)
      const created = await call(a, admin2, 'POST', '/webhooks', { url: failing.url, events: ['Tickets.TicketUpdated'], description: 'always 503' })
      assert.equal(created.status, 201, JSON.stringify(created.json))
      const id = created.json.data.id as number
      // 130 events in one transaction (as a bulk change raises them): 130 deliveries due at once, taken by both
      // instances (woken by NOTIFY), all failing (503, retried in about 30 s).
      const store = createKnexStore({ url: databaseUrl })
      try {
        const local = createHelpdesk({ store })
        const at = '2026-01-31 14:05:00'
        await local.events.transaction(store, async (tx) => {
          for (let i = 1; i <= 130; i++) {
            await local.events.emit(tx, {
              type: 'Tickets.TicketUpdated',
              actor_id: null,
              ticket: { id: i, user_id: 1, creator_id: 1, title: `Failing ${i}`, body: 'x', status: 1, private: true, additional: { fields: {} }, category_id: 1, assigned_agent_id: null, agent_assigned_at: null, created_at: at, updated_at: at },
              category: { id: 1, name: 'Failing' },
              changes: ['title']
            })
          }
        })
      } finally {
        await store.close()
      }
      await eventually('the endpoint to be switched off', async () => (
        (await db.query('select active from webhook_endpoints where id = $1', [id])).rows[0].active === false
      ), { timeoutMs: 30_000, intervalMs: 100 })
      // The attempts under way when it was switched off finish (their outcomes are recorded) before it is looked at.
      await eventually('no delivery under way', async () => (
        Number((await db.query(`select count(*) as n from jobs where type = 'webhook.deliver' and status = 'running'`)).rows[0].n) === 0
      ), { timeoutMs: 15_000, intervalMs: 100 })
      const off = (await call(b, admin2, 'GET', `/webhooks/${id}`)).json.data
      t.diagnostic(`switched off after ${off.consecutive_failures} failures in a row; the receiver had ${failing.received()} requests`)
      assert.equal(off.consecutive_failures, 100, 'switched off at 100 failures in a row')
      assert.ok(off.failing_since !== null && off.disabled_at !== null)
      const counts = (await db.query('select status, count(*) as n, sum(attempts) as attempts from webhook_deliveries where endpoint_id = $1 group by status', [id])).rows
      assert.deepEqual(counts.map((row) => row.status), ['cancelled'], 'every retry and unsent delivery dropped')
      assert.equal(Number(counts[0].n), 130)
      assert.equal(Number(counts[0].attempts), failing.received(), 'every attempt recorded')
      const disabled = (await db.query(`select count(*) as n from event_log where type = 'Webhooks.EndpointDisabled'`)).rows[0]
      assert.equal(Number(disabled.n), 1, 'switched off once')
      // Switched back on before the retries come due: none of the dropped deliveries is sent, whoever runs the jobs.
      assert.equal((await call(a, admin2, 'PATCH', `/webhooks/${id}`, { active: true })).status, 200)
      const before = failing.received()
      await db.query(`update jobs set run_at = '2000-01-01 00:00:00' where type = 'webhook.deliver' and status = 'pending'`)
      await db.query(`select pg_notify('helpdesk_jobs', '')`)
      await eventually('the jobs to run', async () => (
        Number((await db.query(`select count(*) as n from jobs where type = 'webhook.deliver' and status = 'pending'`)).rows[0].n) === 0
      ), { timeoutMs: 10_000, intervalMs: 100 })
      assert.equal(failing.received(), before)
      assert.equal((await call(a, admin2, 'DELETE', `/webhooks/${id}`)).status, 200)
    })

    await t.test('kill -9 of the instance holding a delivery loses nothing', async () => {
      const admin3 = await anotherAdmin(a, databaseUrl, 'stalls')
      const customerId = await customer(a, admin3, 'stalled')
      hooks.stall((_request, body) => body.type === 'Tickets.TicketCreated' && body.data?.ticket?.title === 'Stalled')
      const category = (await call(a, admin3, 'POST', '/categories', { name: 'Stalls' })).json.data.id
      const ticket = await call(a, admin3, 'POST', '/tickets', { title: 'Stalled', body: 'x', category, customer_id: customerId })
      assert.equal(ticket.status, 201)
      const stalled = await eventually('the first attempt to reach the receiver', async () => hooks.stalled[0], { timeoutMs: 15_000, intervalMs: 100 })
      // Which instance holds it: its job is leased by a worker id starting with that process's pid.
      const job = (await db.query(`select id, locked_by from jobs where type = 'webhook.deliver' and status = 'running'
        and payload::jsonb ->> 'delivery_id' = $1`, [stalled.deliveryId])).rows[0] as { id: string, locked_by: string } | undefined
      assert.ok(job !== undefined, 'the delivery job is running')
      const holder = [a, b].find((server) => job.locked_by.startsWith(`${server.child.pid}-`))
      assert.ok(holder !== undefined, `a serve process holds the job (${job.locked_by})`)
      holder.child.kill('SIGKILL')
      await holder.exited
      // Rather than wait out the lease (minutes), let it expire now: the other instance must claim and finish the job.
      await db.query(`update jobs set locked_until = '2000-01-01 00:00:00' where id = $1`, [job.id])
      await eventually('the delivery to be completed by the other instance', async () => (
        hooks.received.find((r) => r.eventId === stalled.eventId)
      ), { timeoutMs: 45_000, intervalMs: 100 })
      const state = (await db.query('select status from jobs where id = $1', [job.id])).rows[0] as { status: string }
      await eventually('the job to be done', async () => {
        const row = (await db.query('select status from jobs where id = $1', [job.id])).rows[0] as { status: string }
        return row.status === 'done'
      }, { timeoutMs: 15_000, intervalMs: 100 })
      t.diagnostic(`stalled event ${stalled.eventId} delivered after the kill; job ${job.id} was ${state.status}`)
      assert.equal(hooks.received.filter((r) => r.eventId === stalled.eventId).length, 1, 'completed once')
    })
  })
})
