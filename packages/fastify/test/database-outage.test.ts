import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { createHelpdesk, createLocalFileStorage, Role, SYSTEM } from '@helpdesk/core'
import { createKnexStore } from '@helpdesk/store-knex'
import helpdeskPlugin, { frameworkErrors } from '../src/index.js'
import { testHasher } from './helpers.js'
import { postgresBinaries, startPrivatePostgres } from './security/private-postgres.js'

/** Requests in parallel while the database goes away and comes back. */
const CLIENTS = 6
/** A request must be answered within this, database or not: failing fast, never hanging. */
const FAIL_FAST_MS = 3000

interface Outcome { status: number, body: string, ms: number, at: number }

describe('database outage on PostgreSQL', () => {
  it('answers 503 fast while PostgreSQL is down, reports it on /ready, and recovers on its own', async (t) => {
    const bin = postgresBinaries()
    if (bin === null) {
      // CI installs PostgreSQL (.ci/run): there missing binaries are a failure, not a skip.
      assert.notEqual(process.env.CI, 'true', 'PostgreSQL server binaries (initdb, pg_ctl) are not installed')
      t.skip('PostgreSQL server binaries (initdb, pg_ctl) are not installed')
      return
    }
    const pg = await startPrivatePostgres(bin)
    t.after(() => { pg.remove() })
    const store = createKnexStore({ url: pg.url })
    await store.migrate()
    const storage = mkdtempSync(join(tmpdir(), 'helpdesk-outage-'))
    const helpdesk = createHelpdesk({ store, hasher: testHasher, fileStorage: createLocalFileStorage(storage) })
    const app = Fastify({ logger: false, frameworkErrors })
    await app.register(helpdeskPlugin, { helpdesk, rateLimit: false })
    await app.ready()
    t.after(async () => {
      await app.close()
      await store.close()
      rmSync(storage, { recursive: true, force: true })
    })
    const admin = await helpdesk.agents.create(SYSTEM, { first_name: 'Ada', last_name: 'Admin', email: 'ada@example.com', password: 'secret123' }, Role.Admin, false)
    const { token } = await helpdesk.auth.createToken(admin, 'outage')
    const category = await helpdesk.categories.create(admin, { name: 'Outage' })
    const customer = await helpdesk.customers.create(admin, { first_name: 'Cy', last_name: 'Customer', email: 'cy@example.com', password: 'secret123', password_confirmation: 'secret123' })

    // Readers and writers, each request timed, until told to stop.
    const outcomes: Outcome[] = []
    let running = true
    const client = async (n: number): Promise<void> => {
      for (let i = 0; running; i++) {
        const started = Date.now()
        const res = i % 2 === 0
          ? await app.inject({ method: 'GET', url: '/api/v1/tickets?include=user,replies-count', headers: { authorization: `Bearer ${token}` } })
          : await app.inject({ method: 'POST', url: '/api/v1/tickets', headers: { authorization: `Bearer ${token}` }, payload: { category: category.id, customer_id: customer.id, title: `Load ${n}-${i}`, body: 'Body.' } })
        outcomes.push({ status: res.statusCode, body: res.body, ms: Date.now() - started, at: started })
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
    const clients = Array.from({ length: CLIENTS }, async (_, n) => { await client(n) })
    const phase = async (ms: number): Promise<Outcome[]> => {
      const from = outcomes.length
      await new Promise((resolve) => setTimeout(resolve, ms))
      return outcomes.slice(from)
    }

    const before = await phase(500)
    assert.ok(before.length > 0 && before.every((o) => o.status < 300), `before the outage: ${JSON.stringify(before.find((o) => o.status >= 300))}`)

    pg.stop()
    const stoppedAt = Date.now()
    const during = (await phase(2000)).filter((o) => o.at >= stoppedAt + 100)
    const health = await app.inject({ method: 'GET', url: '/api/v1/health' })
    const ready = await app.inject({ method: 'GET', url: '/api/v1/ready' })
    assert.ok(during.length >= CLIENTS, `requests kept being answered during the outage (${during.length})`)
    const unexpected = during.filter((o) => o.status !== 503 || JSON.stringify(JSON.parse(o.body)) !== JSON.stringify({ message: 'The service is temporarily unavailable. Please try again shortly.' }))
    assert.deepEqual(unexpected.slice(0, 3), [], 'every request fails with the contract\'s 503 while the database is down')
    const slowest = Math.max(...during.map((o) => o.ms))
    assert.ok(slowest < FAIL_FAST_MS, `the slowest failure took ${slowest} ms`)
    assert.equal(health.statusCode, 200, 'liveness: the process is up')
    assert.equal(ready.statusCode, 503, 'readiness: the database is not')
    assert.ok(typeof ready.json().message === 'string')

    const restartAt = Date.now()
    pg.start()
    const backAt = Date.now()
    let recoveredAt: number | null = null
    while (Date.now() - backAt < 15_000) {
      const probe = await app.inject({ method: 'GET', url: '/api/v1/ready' })
      if (probe.statusCode === 200) { recoveredAt = Date.now(); break }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    assert.ok(recoveredAt !== null, '/ready did not come back within 15 s of PostgreSQL')
    const after = (await phase(1000)).filter((o) => o.at >= recoveredAt!)
    running = false
    await Promise.all(clients)
    assert.ok(after.length > 0 && after.every((o) => o.status < 300), `after recovery: ${JSON.stringify(after.find((o) => o.status >= 300))}`)
    const created = Number((await store.knex('tickets').count({ n: '*' }).first() as { n: number | string }).n)
    const acknowledged = outcomes.filter((o) => o.status === 201).length
    // Every 201 is a ticket; a write whose commit raced the stop may exist unacknowledged (at most one per client).
    assert.ok(created >= acknowledged && created - acknowledged <= CLIENTS, `${created} tickets stored, ${acknowledged} acknowledged`)
    t.diagnostic(`outage: ${during.length} requests during the outage, all 503, slowest ${slowest} ms; ` +
      `PostgreSQL restarted in ${backAt - restartAt} ms, service back ${recoveredAt - backAt} ms after it accepted connections again ` +
      `(${recoveredAt - restartAt} ms after the restart began)`)
  })
})
