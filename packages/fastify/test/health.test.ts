import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { createHelpdesk, createLocalFileStorage, type Helpdesk } from '@helpdesk/core'
import { createKnexStore, createTestDatabase } from '@helpdesk/store-knex'
import helpdeskPlugin, { type HelpdeskPluginCommonOptions } from '../src/index.js'
import { eachDialect, testHasher } from './helpers.js'
import { expectStatus } from './http-assertions.js'

interface LogLine { level: number, msg: string, err?: { message: string }, event?: { type: string, actor_id: number | null, id: number | null }, job?: unknown }

/** The plugin on prebuilt services, with the app's log lines (warn and above) kept for the test. */
async function appWithLog (t: TestContext, dialect: 'sqlite' | 'postgres', options: HelpdeskPluginCommonOptions = {}, prepare: (helpdesk: Helpdesk) => void = () => {}) {
  const db = await createTestDatabase(dialect)
  const store = createKnexStore({ url: db.url })
  await store.migrate()
  const storageDir = mkdtempSync(join(tmpdir(), 'helpdesk-files-'))
  const helpdesk = createHelpdesk({ store, hasher: testHasher, fileStorage: createLocalFileStorage(storageDir) })
  prepare(helpdesk)
  const logs: LogLine[] = []
  const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { logs.push(JSON.parse(line) as LogLine) } } } })
  await app.register(helpdeskPlugin, { helpdesk, rateLimit: false, workers: false, ...options })
  t.after(async () => {
    await app.close()
    await store.close()
    await db.drop()
    rmSync(storageDir, { recursive: true, force: true })
  })
  return { app, store, helpdesk, logs }
}

async function ready (app: { inject: ReturnType<typeof Fastify>['inject'] }) {
  return expectStatus(await app.inject({ method: 'GET', url: '/api/v1/ready' }), 200) as { status: string, database: string, failures: { event_subscribers: number, job_runner: number } }
}

const person = { first_name: 'New', last_name: 'Person', email: 'new@example.com', password: 'secret123', password_confirmation: 'secret123' }

eachDialect((dialect) => {
  describe(`GET /ready and the errors no response reports, on ${dialect}`, () => {
    it('answers with the database and no failures on a fresh app', async (t) => {
      const { app } = await appWithLog(t, dialect)
      assert.deepEqual(await ready(app), { status: 'ok', database: 'ok', failures: { event_subscribers: 0, job_runner: 0 } })
    })

    it('logs a throwing subscriber once, bound to its event, counts it, and leaves the request alone', async (t) => {
      const { app, helpdesk, logs } = await appWithLog(t, dialect, {
        onEvent: (event) => { if (event.type === 'Customers.CustomerCreated') throw new Error('onEvent broke') }
      })
      // A host's own subscriber, rejecting rather than throwing.
      helpdesk.events.subscribe(async (event) => { if (event.type === 'Customers.CustomerCreated') throw new Error('host subscriber broke') })
      const res = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: person })
      const created = expectStatus(res, 201) as { data: { user: { id: number } } }
      for (let i = 0; i < 20 && helpdesk.events.subscriberErrors < 2; i++) await new Promise((resolve) => setImmediate(resolve))

      assert.equal(helpdesk.events.subscriberErrors, 2)
      assert.deepEqual((await ready(app)).failures, { event_subscribers: 2, job_runner: 0 })
      const failed = logs.filter((line) => line.msg === 'an event subscriber failed')
      assert.deepEqual(failed.map((line) => line.err?.message).sort(), ['host subscriber broke', 'onEvent broke'], 'each failure logged once')
      for (const line of failed) {
        assert.equal(line.level, 50)
        assert.equal(line.event?.type, 'Customers.CustomerCreated')
        assert.equal(line.event?.actor_id, created.data.user.id)
        assert.equal(typeof line.event?.id, 'number', 'the event-log id')
      }
    })

    it('logs and counts failures of the job runner itself', async (t) => {
      const { app, helpdesk, store, logs } = await appWithLog(t, dialect, { workers: { pollMs: 60_000 } })
      const claim = store.jobs.claim.bind(store.jobs)
      store.jobs.claim = async () => { throw new Error('claim broke') }
      t.after(() => { store.jobs.claim = claim })
      await app.ready() // starts the runner, whose first claim fails
      for (let i = 0; i < 100 && helpdesk.jobs.errors === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
      store.jobs.claim = claim
      assert.ok(helpdesk.jobs.errors >= 1)
      assert.equal((await ready(app)).failures.job_runner, helpdesk.jobs.errors)
      const failed = logs.filter((line) => line.msg === 'the job runner failed')
      assert.equal(failed.length, helpdesk.jobs.errors)
      assert.equal(failed[0]?.err?.message, 'claim broke')
    })

    it("keeps the host's own error handlers: they run after the log line, and are back once the app closes", async (t) => {
      const seen: string[] = []
      const hostEvents = (error: unknown): void => { seen.push(`event: ${(error as Error).message}`) }
      const hostJobs = (error: unknown): void => { seen.push(`job: ${(error as Error).message}`) }
      const { app, helpdesk, store, logs } = await appWithLog(t, dialect, {
        workers: { pollMs: 60_000 },
        onEvent: (event) => { if (event.type === 'Customers.CustomerCreated') throw new Error('onEvent broke') }
      }, (prebuilt) => {
        prebuilt.events.onError = hostEvents
        prebuilt.jobs.onError = hostJobs
      })
      const claim = store.jobs.claim.bind(store.jobs)
      store.jobs.claim = async () => { throw new Error('claim broke') }
      t.after(() => { store.jobs.claim = claim })
      await app.ready()
      for (let i = 0; i < 100 && helpdesk.jobs.errors === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
      store.jobs.claim = claim
      expectStatus(await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: person }), 201)
      for (let i = 0; i < 20 && helpdesk.events.subscriberErrors < 1; i++) await new Promise((resolve) => setImmediate(resolve))

      assert.ok(seen.includes('job: claim broke'), 'the host handler saw the runner fail')
      assert.ok(seen.includes('event: onEvent broke'), 'the host handler saw the subscriber fail')
      assert.ok(logs.some((line) => line.msg === 'the job runner failed'))
      assert.ok(logs.some((line) => line.msg === 'an event subscriber failed'))
      await app.close()
      assert.equal(helpdesk.events.onError, hostEvents)
      assert.equal(helpdesk.jobs.onError, hostJobs)
    })
  })
})
