import type { ListQuery, Page } from '../list/list-query.js'
import type { DateTimeString } from '../time.js'
import type { Job, NewJob } from './job.js'

/** The storage port of background jobs (part of `Store`, same conventions): an outbox table. */
export interface JobRepository {
  /**
   * Joins the caller's transaction (use `tx.jobs.enqueue` inside
   * `events.transaction`/`store.transaction`), so a job exists exactly when
   * the change that asked for it committed. Returns the ids in order; a job
   * whose `uniqueKey` is already pending or running yields that job's id.
   */
  enqueue(jobs: NewJob[]): Promise<number[]>
  /**
   * Claims up to `limit` due jobs of `types` for `leaseMs`: pending ones whose
   * `run_at` has come, and running ones whose lease expired (their worker
   * died). Each job goes to one claimer (FOR UPDATE SKIP LOCKED on
   * PostgreSQL). A claim counts as an attempt.
   */
  claim(options: { types: string[], limit: number, leaseMs: number, workerId: string, /** Default true; false looks at pending jobs only (cheaper). */ reclaimExpired?: boolean }): Promise<Job[]>
  /** Moves the lease of a job this worker holds (long jobs beat while they run); false when it lost it. */
  extendLease(id: number, workerId: string, leaseMs: number): Promise<boolean>
  /** Marks the jobs done (their leases and any earlier error cleared): one statement whatever their number. */
  complete(ids: number | readonly number[]): Promise<void>
  /**
   * Records the error and frees the lease; the job is pending again, due at
   * `retryAt` (its attempts kept), or with `retryAt` null given up (status
   * failed, never claimed again unless retried).
   */
  fail(id: number, error: string, retryAt: DateTimeString | null): Promise<void>
  /** One page of the jobs list (`jobList`: newest first, filtered by status and type), like every list. */
  list(query: ListQuery): Promise<Page<Job>>
  findById(id: number): Promise<Job | null>
  /**
   * A failed (or pending) job is due now with its attempts back to 0, and
   * runners are woken as by an enqueue (`onEnqueued`); false when unknown,
   * running or done.
   */
  retry(id: number): Promise<boolean>
  /** Deletes up to `limit` done or failed jobs last updated before `before`; returns how many. */
  deleteFinishedBefore(before: DateTimeString, limit: number): Promise<number>
  /**
   * Calls `listener` after a transaction that enqueued jobs committed (never
   * for one that rolled back), in this process and (on PostgreSQL, through
   * LISTEN/NOTIFY) in every instance. Returns the unsubscribe function.
   */
  onEnqueued(listener: () => void): () => void
}
