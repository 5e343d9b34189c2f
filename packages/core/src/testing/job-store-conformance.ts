import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { DEFAULT_MAX_ATTEMPTS, jobQuery, type Job, type JobStatus } from '../jobs/job.js'
import type { Store } from '../store.js'
import { eventually } from './eventually.js'
import { assertDistinct, sleep, type WithStore } from './conformance-support.js'

/** Every job (of these statuses and type), newest first: the list's first page, as large as needed. */
async function jobsOf (store: Store, filter: { status?: JobStatus[], type?: string } = {}): Promise<Job[]> {
  return (await store.jobs.list(jobQuery({ ...filter, perPage: 1000 }))).items
}

/** The contract of `JobRepository` (`jobs/job-store.ts`): the outbox table job runners claim from. */
export function jobStoreConformance (withStore: WithStore): void {
  describe('jobs', () => {
    it('enqueue joins the transaction: a rolled-back change leaves no job, a committed one all of them, as enqueued', async () => {
      await withStore(async ({ store, clock }) => {
        await assert.rejects(store.transaction(async (tx) => {
          await tx.jobs.enqueue([{ type: 'test.a' }, { type: 'test.b' }])
          throw new Error('boom')
        }), /boom/)
        assert.deepEqual(await jobsOf(store), [])
        const ids = await store.transaction(async (tx) => await tx.jobs.enqueue([
          { type: 'test.a', payload: { n: 1, nested: { list: [1, 'two'] } } },
          { type: 'test.b', maxAttempts: 3, runAt: clock.at(60_000) }
        ]))
        assert.equal(ids.length, 2)
        const [a, b] = await Promise.all(ids.map(async (id) => await store.jobs.findById(id)))
        assert.deepEqual(pick(a), {
          type: 'test.a', payload: { n: 1, nested: { list: [1, 'two'] } }, status: 'pending', attempts: 0, maxAttempts: DEFAULT_MAX_ATTEMPTS,
          uniqueKey: null, run_at: clock.at(), locked_until: null, last_error: null, created_at: clock.at()
        })
        assert.deepEqual(pick(b), {
          type: 'test.b', payload: {}, status: 'pending', attempts: 0, maxAttempts: 3,
          uniqueKey: null, run_at: clock.at(60_000), locked_until: null, last_error: null, created_at: clock.at()
        })
        assert.deepEqual(await store.jobs.enqueue([]), [])
        assert.equal(await store.jobs.findById(987654), null)
      })
    })

    it('returns the ids in input order; a unique key pending or running yields that job\'s id, a done or failed one does not', async () => {
      await withStore(async ({ store }) => {
        const ids = await store.jobs.enqueue([
          { type: 'test.a', payload: { n: 0 } }, { type: 'test.a', uniqueKey: 'k', payload: { n: 1 } },
          { type: 'test.a', payload: { n: 2 } }, { type: 'test.a', uniqueKey: 'k', payload: { n: 3 } }
        ])
        assert.equal(ids.length, 4)
        assert.equal(ids[3], ids[1], 'the second enqueue of the key in the same call finds the first')
        assertDistinct(ids.slice(0, 3), 'the other jobs')
        assert.deepEqual(await Promise.all(ids.slice(0, 3).map(async (id) => (await store.jobs.findById(id))?.payload)), [{ n: 0 }, { n: 1 }, { n: 2 }])
        const first = ids[1]!
        assert.equal((await store.jobs.findById(first))?.uniqueKey, 'k')
        assert.deepEqual(await store.jobs.enqueue([{ type: 'test.a', uniqueKey: 'k' }]), [first], 'pending')
        await claimAll(store, 'w')
        assert.deepEqual(await store.jobs.enqueue([{ type: 'test.a', uniqueKey: 'k' }]), [first], 'running')
        await store.jobs.complete(first)
        const [second] = await store.jobs.enqueue([{ type: 'test.a', uniqueKey: 'k' }])
        assert.ok(second !== undefined && second !== first, 'done: a new job')
        await claimAll(store, 'w')
        await store.jobs.fail(second, 'gave up', null)
        const [third] = await store.jobs.enqueue([{ type: 'test.a', uniqueKey: 'k' }])
        assert.ok(third !== undefined && third !== second && third !== first, 'failed: a new job')

        // Many at once, more than one statement's worth in some adapters.
        const bulk = await store.jobs.enqueue(Array.from({ length: 450 }, (_, i) => ({ type: 'test.bulk', payload: { i } })))
        const payloadOf = new Map((await jobsOf(store, { type: 'test.bulk' })).map((job) => [job.id, job.payload]))
        assert.ok(bulk.length === 450 && bulk.every((id, i) => payloadOf.get(id)?.i === i), 'each id is its job\'s')
      })
    })

    it('a recurring job: completing it and enqueuing its key again in one transaction leaves one active job; a rollback leaves it running', async () => {
      await withStore(async ({ store, clock }) => {
        const recurring = { type: 'test.tidy', uniqueKey: 'recurring:test.tidy' }
        const [id] = await store.jobs.enqueue([recurring])
        const [claimed] = await store.jobs.claim({ types: ['test.tidy'], limit: 1, leaseMs: 60_000, workerId: 'w' })
        assert.equal(claimed?.id, id)
        await assert.rejects(store.transaction(async (tx) => {
          await tx.jobs.complete(id!)
          await tx.jobs.enqueue([{ ...recurring, runAt: clock.at(3_600_000) }])
          throw new Error('boom')
        }), /boom/)
        assert.deepEqual((await jobsOf(store)).map((job) => [job.id, job.status]), [[id, 'running']])
        const [next] = await store.transaction(async (tx) => {
          await tx.jobs.complete(id!)
          return await tx.jobs.enqueue([{ ...recurring, runAt: clock.at(3_600_000) }])
        })
        assert.ok(next !== undefined && next !== id)
        assert.deepEqual((await jobsOf(store)).map((job) => [job.id, job.status, job.uniqueKey, job.run_at]), [
          [next, 'pending', 'recurring:test.tidy', clock.at(3_600_000)],
          [id, 'done', 'recurring:test.tidy', clock.at()]
        ])
      })
    })

    it('claim takes due pending jobs of the given types, up to the limit: running, one attempt more, leased to the worker', async () => {
      await withStore(async ({ store, clock }) => {
        const [a1, a2, b1, later] = await store.jobs.enqueue([
          { type: 'test.a' }, { type: 'test.a' }, { type: 'test.b' }, { type: 'test.a', runAt: clock.at(60_000) }
        ])
        const claim = async (types: string[], limit: number): Promise<Job[]> =>
          await store.jobs.claim({ types, limit, leaseMs: 300_000, workerId: 'w1' })
        const [first, ...none] = await claim(['test.a'], 1)
        assert.deepEqual(none, [])
        assert.ok(first !== undefined && [a1, a2].includes(first.id))
        assert.deepEqual(pick(first), { ...pick(await store.jobs.findById(first.id)), status: 'running' }, 'the claim returns the job as stored')
        assert.equal(first.status, 'running')
        assert.equal(first.attempts, 1, 'a claim counts as an attempt')
        assert.equal(first.locked_until, clock.at(300_000))
        assert.deepEqual((await claim(['test.a'], 10)).map((job) => job.id), [first.id === a1 ? a2 : a1], 'the other due one; not the one due later')
        assert.deepEqual(await claim(['test.a'], 10), [])
        assert.equal((await store.jobs.findById(b1!))?.status, 'pending', 'a job of another type stays')
        assert.equal((await store.jobs.findById(later!))?.status, 'pending')
        clock.advance(60_000)
        assert.deepEqual((await claim(['test.b', 'test.a'], 10)).map((job) => job.id).sort(), [b1, later].sort(), 'several types at once; due now; not those still leased')
        assert.deepEqual(await claim(['test.a', 'test.b'], 0), [])
      })
    })

    it('claim is exclusive: of concurrent claimers, each job goes to one', async () => {
      await withStore(async ({ store }) => {
        for (let round = 0; round < 2; round++) {
          const ids = await store.jobs.enqueue(Array.from({ length: 30 }, () => ({ type: 'test.race' })))
          const claims = await Promise.all(Array.from({ length: 10 }, async (_, w) =>
            await store.jobs.claim({ types: ['test.race'], limit: 4, leaseMs: 60_000, workerId: `w${w}` })))
          const claimed = claims.flat()
          assertDistinct(claimed.map((job) => job.id), 'claimed jobs')
          assert.deepEqual(claimed.map((job) => job.id).sort((x, y) => x - y), [...ids].sort((x, y) => x - y), 'every job claimed once')
          assert.ok(claimed.every((job) => job.attempts === 1))
        }
      })
    })

    it('a running job whose lease ran out (its worker died) is claimed again, an attempt more; not before; not with reclaimExpired false', async () => {
      await withStore(async ({ store, clock }) => {
        const [id] = await store.jobs.enqueue([{ type: 'test.a' }])
        await store.jobs.claim({ types: ['test.a'], limit: 5, leaseMs: 30_000, workerId: 'dead' })
        clock.advance(30_000)
        assert.deepEqual(await store.jobs.claim({ types: ['test.a'], limit: 5, leaseMs: 30_000, workerId: 'w2' }), [], 'the lease has not run out yet')
        clock.advance(1000)
        assert.deepEqual(await store.jobs.claim({ types: ['test.a'], limit: 5, leaseMs: 30_000, workerId: 'w2', reclaimExpired: false }), [])
        const [again] = await store.jobs.claim({ types: ['test.a'], limit: 5, leaseMs: 30_000, workerId: 'w2' })
        assert.equal(again?.id, id)
        assert.equal(again?.attempts, 2)
        assert.equal(again?.locked_until, clock.at(30_000))
        assert.equal(await store.jobs.extendLease(id!, 'dead', 30_000), false, 'the dead worker lost it')
        assert.equal(await store.jobs.extendLease(id!, 'w2', 30_000), true)
      })
    })

    it('extendLease moves the lease of the worker holding it only; an extended job is not claimed at its old expiry', async () => {
      await withStore(async ({ store, clock }) => {
        const [id] = await store.jobs.enqueue([{ type: 'test.a' }])
        await store.jobs.claim({ types: ['test.a'], limit: 1, leaseMs: 30_000, workerId: 'w1' })
        clock.advance(20_000)
        assert.equal(await store.jobs.extendLease(id!, 'w2', 30_000), false, 'another worker')
        assert.equal(await store.jobs.extendLease(987654, 'w1', 30_000), false, 'an unknown job')
        assert.equal(await store.jobs.extendLease(id!, 'w1', 30_000), true)
        assert.equal((await store.jobs.findById(id!))?.locked_until, clock.at(30_000))
        clock.advance(20_000)
        assert.deepEqual(await store.jobs.claim({ types: ['test.a'], limit: 1, leaseMs: 30_000, workerId: 'w2' }), [])
        await store.jobs.complete(id!)
        assert.equal(await store.jobs.extendLease(id!, 'w1', 30_000), false, 'a finished job')
      })
    })

    it('complete marks the job done; fail with a retry time makes it pending again then, with the error; fail with null gives up', async () => {
      await withStore(async ({ store, clock }) => {
        const [id] = await store.jobs.enqueue([{ type: 'test.a', maxAttempts: 5 }])
        await claimAll(store, 'w')
        await store.jobs.fail(id!, 'boom 1', clock.at(60_000))
        assert.deepEqual(pick(await store.jobs.findById(id!)), {
          ...pick(await store.jobs.findById(id!)), status: 'pending', attempts: 1, run_at: clock.at(60_000), locked_until: null, last_error: 'boom 1'
        })
        assert.deepEqual(await claimAll(store, 'w'), [], 'not before its retry time')
        clock.advance(60_000)
        assert.deepEqual((await claimAll(store, 'w')).map((job) => [job.id, job.attempts]), [[id, 2]])
        await store.jobs.complete(id!)
        const done = await store.jobs.findById(id!)
        assert.equal(done?.status, 'done')
        assert.equal(done?.locked_until, null)
        assert.equal(done?.last_error, null, 'a success clears the error of an earlier attempt')

        const [other] = await store.jobs.enqueue([{ type: 'test.a' }])
        await claimAll(store, 'w')
        await store.jobs.fail(other!, 'permanent', null)
        const failed = await store.jobs.findById(other!)
        assert.equal(failed?.status, 'failed')
        assert.equal(failed?.last_error, 'permanent')
        assert.equal(failed?.locked_until, null)
        clock.advance(3_600_000)
        assert.deepEqual(await claimAll(store, 'w'), [], 'a failed job is never claimed')
      })
    })

    it('retry makes a failed (or pending) job due now with its attempts back; false for an unknown, running or done job', async () => {
      await withStore(async ({ store, clock }) => {
        const [failed, waiting, running, done] = await store.jobs.enqueue([
          { type: 'test.f' }, { type: 'test.w', runAt: clock.at(3_600_000) }, { type: 'test.r' }, { type: 'test.d' }
        ])
        await store.jobs.claim({ types: ['test.f', 'test.r', 'test.d'], limit: 10, leaseMs: 60_000, workerId: 'w' })
        await store.jobs.fail(failed!, 'gave up', null)
        await store.jobs.complete(done!)
        clock.advance(5000)
        assert.equal(await store.jobs.retry(failed!), true)
        assert.equal(await store.jobs.retry(waiting!), true)
        assert.equal(await store.jobs.retry(running!), false)
        assert.equal(await store.jobs.retry(done!), false)
        assert.equal(await store.jobs.retry(987654), false)
        for (const id of [failed!, waiting!]) {
          const job = await store.jobs.findById(id)
          assert.equal(job?.status, 'pending')
          assert.equal(job?.attempts, 0)
          assert.equal(job?.run_at, clock.at())
        }
        assert.deepEqual((await store.jobs.claim({ types: ['test.f', 'test.w'], limit: 10, leaseMs: 60_000, workerId: 'w' })).map((job) => job.id).sort(), [failed, waiting].sort())
      })
    })

    it('list: one page of the jobs list, newest first, by statuses and type, with its total; cursor pages too', async () => {
      await withStore(async ({ store }) => {
        const ids = await store.jobs.enqueue([{ type: 'test.a' }, { type: 'test.b' }, { type: 'test.a' }, { type: 'test.a' }])
        await store.jobs.claim({ types: ['test.b'], limit: 1, leaseMs: 60_000, workerId: 'w' })
        await store.jobs.complete(ids[1]!)
        const idsOf = (jobs: Job[]): number[] => jobs.map((job) => job.id)
        assert.deepEqual(idsOf(await jobsOf(store)), [...ids].reverse())
        assert.deepEqual(idsOf(await jobsOf(store, { type: 'test.a' })), [ids[3], ids[2], ids[0]])
        assert.deepEqual(idsOf(await jobsOf(store, { status: ['done'] })), [ids[1]])
        assert.deepEqual(idsOf(await jobsOf(store, { status: ['pending', 'done'], type: 'test.b' })), [ids[1]])
        const first = await store.jobs.list(jobQuery({ perPage: 2 }))
        assert.deepEqual([idsOf(first.items), first.total, first.page, first.perPage], [[ids[3], ids[2]], 4, 1, 2])
        const second = await store.jobs.list({ ...jobQuery({ perPage: 2 }), page: 2 })
        assert.deepEqual(idsOf(second.items), [ids[1], ids[0]])
        const byCursor = await store.jobs.list({ ...jobQuery({ perPage: 3 }), cursor: { position: null, backward: false } })
        assert.deepEqual(idsOf(byCursor.items), [ids[3], ids[2], ids[1]])
        assert.ok(byCursor.cursors?.next !== null && byCursor.cursors?.next !== undefined)
      })
    })

    it('deleteFinishedBefore removes at most `limit` done or failed jobs last updated before the time, never a pending or running one', async () => {
      await withStore(async ({ store, clock }) => {
        const [done1, done2, failed, running] = await store.jobs.enqueue([{ type: 'test.a' }, { type: 'test.a' }, { type: 'test.a' }, { type: 'test.a' }])
        await claimAll(store, 'w')
        await store.jobs.complete(done1!)
        await store.jobs.complete(done2!)
        await store.jobs.fail(failed!, 'no', null)
        clock.advance(60_000)
        const [pending] = await store.jobs.enqueue([{ type: 'test.later' }])
        const [recent] = await store.jobs.enqueue([{ type: 'test.recent' }])
        await claimAll(store, 'w', ['test.recent'])
        await store.jobs.complete(recent!)
        assert.equal(await store.jobs.deleteFinishedBefore(clock.at(), 2), 2)
        assert.equal(await store.jobs.deleteFinishedBefore(clock.at(), 10), 1)
        assert.equal(await store.jobs.deleteFinishedBefore(clock.at(), 10), 0)
        assert.deepEqual((await jobsOf(store)).map((job) => job.id).sort((x, y) => x - y), [running, pending, recent].sort((x, y) => x! - y!))
      })
    })

    it('onEnqueued hears a committed enqueue and a retry, never a rolled-back enqueue, and nothing once unsubscribed', async () => {
      await withStore(async ({ store }) => {
        const [failed] = await store.jobs.enqueue([{ type: 'test.f' }])
        await claimAll(store, 'w')
        await store.jobs.fail(failed!, 'no', null)
        let heard = 0
        const stop = store.jobs.onEnqueued(() => { heard++ })
        try {
          await sleep(100)
          await assert.rejects(store.transaction(async (tx) => {
            await tx.jobs.enqueue([{ type: 'test.a' }])
            throw new Error('boom')
          }), /boom/)
          await sleep(200)
          assert.equal(heard, 0, 'a rolled-back enqueue wakes nobody')
          await store.transaction(async (tx) => {
            await tx.jobs.enqueue([{ type: 'test.a' }])
            await sleep(50)
            assert.equal(heard, 0, 'not before the commit')
          })
          await eventually('a committed enqueue to be heard', () => heard > 0, { timeoutMs: 5000, intervalMs: 10 })
          await store.jobs.enqueue([{ type: 'test.a' }])
          await sleep(200)
          heard = 0
          await store.jobs.enqueue([{ type: 'test.a' }])
          await eventually('an enqueue outside a transaction to be heard', () => heard > 0, { timeoutMs: 5000, intervalMs: 10 })
          await sleep(200)
          heard = 0
          assert.equal(await store.jobs.retry(failed!), true)
          await eventually('a retry to be heard', () => heard > 0, { timeoutMs: 5000, intervalMs: 10 })
        } finally {
          stop()
        }
        await sleep(200)
        heard = 0
        await store.jobs.enqueue([{ type: 'test.a' }])
        await sleep(200)
        assert.equal(heard, 0, 'unsubscribed')
      })
    })
  })
}

/** Claims every due job (of `types`, default all the suite uses) for `workerId`. */
async function claimAll (store: Store, workerId: string, types = ['test.a', 'test.b', 'test.f', 'test.w', 'test.r', 'test.d', 'test.tidy']): Promise<Job[]> {
  return await store.jobs.claim({ types, limit: 100, leaseMs: 60_000, workerId })
}

/** The fields of a job a test compares (not its id or `updated_at`). */
function pick (job: Job | null | undefined): Record<string, unknown> {
  assert.ok(job !== null && job !== undefined, 'the job exists')
  const { type, payload, status, attempts, maxAttempts, uniqueKey, run_at: runAt, locked_until: lockedUntil, last_error: lastError, created_at: createdAt } = job
  return { type, payload, status, attempts, maxAttempts, uniqueKey, run_at: runAt, locked_until: lockedUntil, last_error: lastError, created_at: createdAt }
}
