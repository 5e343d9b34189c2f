import { describe, it } from 'node:test'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import assert from 'node:assert/strict'
import { createHelpdesk, formatDateTime, jobQuery, JobRunner, type Clock, type Job } from '@helpdesk/core'
import { eventually } from '@helpdesk/core/testing'
import { createKnexStore, testDialects } from '../src/index.js'
import { testStore } from './test-store.js'

/** A clock tests move by hand: leases and retry times without waiting. */
function manualClock (start = Date.parse('2026-01-01T00:00:00Z')): Clock & { advance: (ms: number) => void } {
  let now = start
  return { now: () => new Date(now), advance: (ms) => { now += ms } }
}

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

for (const dialect of testDialects()) {
  describe(`jobs and the event log on ${dialect}`, () => {
    it('enqueues with the transaction: a rolled-back change leaves no job', async (t) => {
      const { store } = await testStore(t, dialect)
      await assert.rejects(store.transaction(async (tx) => {
        await tx.jobs.enqueue([{ type: 'test.job', payload: { n: 1 } }])
        throw new Error('rollback')
      }), /rollback/)
      assert.deepEqual((await store.jobs.list(jobQuery({ perPage: 100 }))).items, [])
      const [id] = await store.transaction(async (tx) => await tx.jobs.enqueue([{ type: 'test.job', payload: { n: 2 } }]))
      const job = await store.jobs.findById(id!)
      assert.equal(job?.status, 'pending')
      assert.deepEqual(job?.payload, { n: 2 })
      assert.equal(job?.maxAttempts, 10)
      assert.equal(job?.attempts, 0)
    })

    it('keeps one pending job per unique key, and allows a new one once it is done', async (t) => {
      const { store } = await testStore(t, dialect)
      const [first] = await store.jobs.enqueue([{ type: 'test.job', uniqueKey: 'only-one' }])
      const [again] = await store.jobs.enqueue([{ type: 'test.job', uniqueKey: 'only-one' }])
      assert.equal(again, first)
      assert.equal(((await store.jobs.list(jobQuery({ status: ['pending'], perPage: 100 }))).items).length, 1)
      const [claimed] = await store.jobs.claim({ types: ['test.job'], limit: 5, leaseMs: 60_000, workerId: 'w' })
      assert.equal(claimed?.id, first)
      assert.equal((await store.jobs.enqueue([{ type: 'test.job', uniqueKey: 'only-one' }]))[0], first, 'running counts too')
      await store.jobs.complete(first!)
      const [next] = await store.jobs.enqueue([{ type: 'test.job', uniqueKey: 'only-one' }])
      assert.notEqual(next, first)
    })

    it('claims due jobs of the given types only, each once, and reclaims them when the lease expires (a killed worker)', async (t) => {
      const clock = manualClock()
      const { store } = await testStore(t, dialect, { clock })
      await store.jobs.enqueue([
        { type: 'a' }, { type: 'a' }, { type: 'b' },
        { type: 'a', runAt: formatDateTime(new Date(clock.now().getTime() + 60_000)) }
      ])
      const claims = await Promise.all([1, 2, 3, 4].map(async (n) => await store.jobs.claim({ types: ['a'], limit: 1, leaseMs: 30_000, workerId: `w${n}` })))
      const ids = claims.flat().map((job) => job.id)
      assert.equal(ids.length, 2, 'two due jobs of type a')
      assert.equal(new Set(ids).size, 2, 'each claimed once')
      clock.advance(31_000)
      const reclaimed = await store.jobs.claim({ types: ['a'], limit: 10, leaseMs: 30_000, workerId: 'w5' })
      assert.deepEqual(reclaimed.map((job) => job.id).sort(), [...ids].sort())
      assert.ok(reclaimed.every((job) => job.attempts === 2))
      clock.advance(31_000)
      assert.equal((await store.jobs.claim({ types: ['a'], limit: 10, leaseMs: 1, workerId: 'w6' })).length, 3, 'the delayed one is due now, the others expired again')
    })

    it('retries a throwing handler with backoff until maxAttempts, then marks it failed; jobs.retry runs it again', async (t) => {
      const clock = manualClock()
      const { store } = await testStore(t, dialect, { clock })
      const runner = new JobRunner(store, clock)
      const seen: Job[] = []
      let succeed = false
      runner.register('flaky', async (job) => {
        seen.push(job)
        if (!succeed) throw new Error(`boom ${job.attempts}`)
      }, { backoff: (attempt) => attempt * 10_000 })
      const [id] = await store.jobs.enqueue([{ type: 'flaky', maxAttempts: 3 }])
      assert.equal(await runner.runDue(), 1)
      let job = await store.jobs.findById(id!)
      assert.equal(job?.status, 'pending')
      assert.equal(job?.last_error, 'boom 1')
      assert.equal(job?.run_at, formatDateTime(new Date(clock.now().getTime() + 10_000)))
      assert.equal(await runner.runDue(), 0, 'not due before its backoff')
      clock.advance(10_000)
      assert.equal(await runner.runDue(), 1)
      clock.advance(20_000)
      assert.equal(await runner.runDue(), 1)
      job = await store.jobs.findById(id!)
      assert.equal(job?.status, 'failed')
      assert.equal(job?.attempts, 3)
      assert.deepEqual(((await store.jobs.list(jobQuery({ status: ['failed'], perPage: 100 }))).items).map((j) => j.id), [id])
      succeed = true
      assert.equal(await store.jobs.retry(id!), true)
      assert.equal(await store.jobs.retry(99_999), false)
      assert.equal(await runner.runDue(), 1)
      assert.equal((await store.jobs.findById(id!))?.status, 'done')
      assert.equal(seen.length, 4)
    })

    it('wakes a started runner on a committed enqueue, runs up to `concurrency` at once, and stop waits for jobs under way', async (t) => {
      const { store } = await testStore(t, dialect)
      const runner = new JobRunner(store, { now: () => new Date() })
      let running = 0
      let most = 0
      let done = 0
      runner.register('slow', async () => {
        running++
        most = Math.max(most, running)
        await new Promise((resolve) => setTimeout(resolve, 50))
        running--
        done++
      }, { concurrency: 3 })
      runner.start({ pollMs: 60_000 })
      t.after(async () => { await runner.stop() })
      await store.transaction(async (tx) => await tx.jobs.enqueue(Array.from({ length: 7 }, () => ({ type: 'slow' }))))
      await eventually('every job to run', () => done === 7, { timeoutMs: 5000, intervalMs: 10 })
      assert.equal(most, 3)
      await store.jobs.enqueue([{ type: 'slow' }])
      await eventually('one job to run', () => running === 1, { timeoutMs: 5000, intervalMs: 10 })
      await runner.stop()
      assert.equal(done, 8)
      assert.equal(((await store.jobs.list(jobQuery({ status: ['done'], perPage: 100 }))).items).length, 8)
    })

    it('survives kill -9: a job whose worker process died is claimed again once its lease expires', async (t) => {
      const { store, url } = await testStore(t, dialect)
      const [id] = await store.jobs.enqueue([{ type: 'crash.test' }])
      const worker = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./job-worker-process.ts', import.meta.url)), url], { stdio: ['ignore', 'pipe', 'inherit'] })
      t.after(() => { worker.kill('SIGKILL') })
      const [line] = await once(worker.stdout, 'data') as [Buffer]
      assert.equal(line.toString().trim(), `claimed ${id}`)
      worker.kill('SIGKILL')
      await once(worker, 'exit')
      assert.equal((await store.jobs.findById(id!))?.status, 'running', 'left running by the dead worker')

      const runner = new JobRunner(store, { now: () => new Date() })
      const ran: number[] = []
      runner.register('crash.test', async (job) => { ran.push(job.attempts) }, { leaseMs: 1500 })
      runner.start({ pollMs: 100 })
      t.after(async () => { await runner.stop() })
      await eventually('the job to be claimed again', () => ran.length === 1, { timeoutMs: 10_000, intervalMs: 10 })
      assert.deepEqual(ran, [2], 'the second claim of the job')
      await sleep(100)
      assert.equal((await store.jobs.findById(id!))?.status, 'done')
    })

    it('keeps one recurring job pending between instances, and schedules the next run after each', async (t) => {
      const clock = manualClock()
      const { store } = await testStore(t, dialect, { clock })
      let runs = 0
      const runners = [0, 1].map(() => {
        const runner = new JobRunner(store, clock)
        runner.register('tidy', async () => { runs++ })
        runner.every('tidy', 3_600_000)
        return runner
      })
      for (const runner of runners) runner.start({ pollMs: 60_000 })
      await eventually('the recurring job to run', () => runs === 1, { timeoutMs: 5000, intervalMs: 10 })
      await sleep(200)
      await Promise.all(runners.map(async (r) => { await r.stop() }))
      assert.equal(runs, 1)
      const jobs = (await store.jobs.list(jobQuery({ type: 'tidy', perPage: 100 }))).items
      assert.deepEqual(jobs.map((j) => [j.status, j.uniqueKey, j.run_at]), [
        ['pending', 'recurring:tidy', formatDateTime(new Date(clock.now().getTime() + 3_600_000))],
        ['done', 'recurring:tidy', formatDateTime(clock.now())]
      ])
    })

    it('registers the core jobs on a help desk: imports, upload pruning, retention, expired tokens the audit log\'s retention the reports\' rollups and time-based automations', async (t) => {
      const { store } = await testStore(t, dialect)
      const helpdesk = createHelpdesk({ store })
      for (const type of ['import.run', 'uploads.prune', 'events.prune', 'webhooks.prune', 'tokens.prune', 'account-tokens.prune', 'audit.prune', 'sla.escalate', 'sla.recalculate', 'reports.update', 'automations.run', 'presence.prune']) assert.ok(helpdesk.jobs.registered(type), type)
      helpdesk.jobs.start({ pollMs: 60_000 })
      await sleep(300)
      await helpdesk.jobs.stop()
      const recurring = ((await store.jobs.list(jobQuery({ perPage: 100 }))).items).filter((j) => j.uniqueKey !== null).map((j) => `${j.type}:${j.status}`).sort()
      assert.deepEqual(recurring, [
        'account-tokens.prune:done', 'account-tokens.prune:pending', 'audit.prune:done', 'audit.prune:pending', 'automations.run:done', 'automations.run:pending', 'events.prune:done', 'events.prune:pending', 'presence.prune:done', 'presence.prune:pending', 'reports.update:done', 'reports.update:pending', 'sla.escalate:done', 'sla.escalate:pending', 'tokens.prune:done', 'tokens.prune:pending', 'uploads.prune:done', 'uploads.prune:pending',
        'webhooks.prune:done', 'webhooks.prune:pending'
      ])
    })

    if (dialect === 'postgres') {
      it('shares jobs between instances: NOTIFY wakes the other one, and each job runs once', async (t) => {
        const { store: first, url } = await testStore(t, dialect)
        const second = createKnexStore({ url })
        t.after(async () => { await second.close() })
        const ran: Array<[string, number]> = []
        const runners = [first, second].map((store, i) => {
          const runner = new JobRunner(store, { now: () => new Date() })
          runner.register('shared', async (job) => {
            ran.push([`r${i}`, job.id])
            await new Promise((resolve) => setTimeout(resolve, 5))
          }, { concurrency: 4 })
          runner.start({ pollMs: 60_000 })
          return runner
        })
        t.after(async () => { await Promise.all(runners.map(async (r) => { await r.stop() })) })
        await new Promise((resolve) => setTimeout(resolve, 200)) // the LISTEN connections open
        await second.jobs.enqueue(Array.from({ length: 40 }, () => ({ type: 'shared' })))
        await eventually('40 jobs to run', () => ran.length >= 40, { timeoutMs: 5000, intervalMs: 10 })
        await new Promise((resolve) => setTimeout(resolve, 100))
        assert.equal(ran.length, 40)
        assert.equal(new Set(ran.map(([, id]) => id)).size, 40)
        // Only the first instance's runner hears of the next job through NOTIFY (pollMs is a minute).
        await runners[1]!.stop()
        await second.jobs.enqueue([{ type: 'shared' }])
        await eventually('the 41st job to run', () => ran.length === 41, { timeoutMs: 5000, intervalMs: 10 })
        assert.equal(ran[40]![0], 'r0')
      })
    }

    it('logs every domain event in the emitting transaction, in order, and never a rolled-back one', async (t) => {
      const { store } = await testStore(t, dialect)
      const helpdesk = createHelpdesk({ store })
      assert.equal(await store.eventLog.latestId(), 0)
      await helpdesk.events.transaction(store, async (tx) => {
        await helpdesk.events.emit(tx, { type: 'Test.First', actor_id: null, ticket: { id: 7, title: 'T' } })
        await helpdesk.events.emit(tx, { type: 'Test.Second', actor_id: null, note: { id: 1 } })
      })
      await assert.rejects(helpdesk.events.transaction(store, async (tx) => {
        await helpdesk.events.emit(tx, { type: 'Test.RolledBack', actor_id: null })
        throw new Error('rollback')
      }))
      const events = await store.eventLog.after(0, 10)
      assert.deepEqual(events.map((e) => [e.type, e.ticket_id, e.payload]), [
        ['Test.First', 7, { ticket: { id: 7, title: 'T' } }],
        ['Test.Second', null, { note: { id: 1 } }]
      ])
      assert.ok(events[0]!.id < events[1]!.id)
      assert.equal(await store.eventLog.latestId(), events[1]!.id)
      assert.deepEqual((await store.eventLog.after(events[0]!.id, 10)).map((e) => e.type), ['Test.Second'])
      assert.deepEqual((await store.eventLog.findByIds([events[1]!.id])).map((e) => e.type), ['Test.Second'])
      assert.equal(await store.eventLog.deleteBefore('2999-01-01 00:00:00', 1), 1)
      assert.deepEqual((await store.eventLog.after(0, 10)).map((e) => e.type), ['Test.Second'])
    })
  })
}
