import { randomUUID } from 'node:crypto'
import type { Store } from '../store.js'
import { formatDateTime, type Clock } from '../time.js'
import { TurnBatch } from '../turn-batch.js'
import type { ListQuery, Page } from '../list/list-query.js'
import { jobQuery, type Job, type NewJob } from './job.js'

export type JobHandler = (job: Job) => Promise<void>

export interface JobTypeOptions {
  /** Jobs of this type run at once in this process. Default 1. */
  concurrency?: number
  /** Milliseconds before retry number `attempt` (1 = after the first failure). Default `exponentialBackoff`. */
  backoff?: (attempt: number) => number
  /** How long a claim holds; renewed while the handler runs. Default 5 minutes. */
  leaseMs?: number
}

export interface JobRunnerStartOptions {
  /** Fallback poll when no wake-up arrives. Default 2000 ms. */
  pollMs?: number
}

/** 5 s, 10 s, 20 s... capped at an hour, each within ±25 % (jitter spreads retries of many jobs). */
export function exponentialBackoff (attempt: number, baseMs = 5000, capMs = 3_600_000): number {
  const delay = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(delay * (0.75 + Math.random() * 0.5))
}

interface Registration { handler: JobHandler, concurrency: number, claimBatch: number, backoff: (attempt: number) => number, leaseMs: number, running: number }

const DEFAULT_LEASE_MS = 5 * 60 * 1000

/**
 * Runs background jobs from the job table: claims due jobs of the registered
 * types, runs their handlers, records the outcome, retries with backoff until
 * `maxAttempts`. Any number of runners (instances) may share one database.
 * Started explicitly (`helpdesk serve`, or a host through the plugin's
 * `workers` option) and stopped on close.
 */
export class JobRunner {
  readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`
  private readonly types = new Map<string, Registration>()
  private readonly recurring = new Map<string, number>()
  private readonly underWay = new Set<Promise<void>>()
  private timer: NodeJS.Timeout | null = null
  private started = false
  private ticking: Promise<void> | null = null
  private wanted: 'all' | Set<string> = new Set()
  private pollMs = 2000
  private unsubscribe: (() => void) | null = null

  private failures = 0
  /** Jobs that succeeded, marked done together: under load one statement for many. */
  private readonly completions: TurnBatch<number, void>

  /** Hears of failures of the runner itself (the database), not of handlers (those are kept on the job). */
  onError: (error: unknown, job?: Job) => void = () => {}

  /** How many times the runner itself failed (see `onError`) since it was made (`/ready` shows it). */
  get errors (): number {
    return this.failures
  }

  constructor (private readonly store: Store, private readonly clock: Clock) {
    this.completions = new TurnBatch(async (ids) => {
      await this.store.jobs.complete(ids)
      return []
    })
  }

  register (type: string, handler: JobHandler, options: JobTypeOptions = {}): void {
    const concurrency = Math.max(1, options.concurrency ?? 1)
    this.types.set(type, {
      handler,
      concurrency,
      claimBatch: Math.max(1, Math.min(32, Math.floor(concurrency / 4))),
      backoff: options.backoff ?? exponentialBackoff,
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      running: 0
    })
    if (this.started) this.wake()
  }

  /**
   * Makes a registered type recurring: one job of it is kept pending (a unique
   * key), enqueued when the runner starts and again `intervalMs` after each run.
   */
  every (type: string, intervalMs: number): void {
    this.recurring.set(type, intervalMs)
    if (this.started) void this.enqueueRecurring(type, 0)
  }

  registered (type: string): boolean {
    return this.types.has(type)
  }

  get isRunning (): boolean {
    return this.started
  }

  start (options: JobRunnerStartOptions = {}): void {
    if (this.started) return
    this.started = true
    this.pollMs = options.pollMs ?? 2000
    this.unsubscribe = this.store.jobs.onEnqueued(() => { this.wake() })
    for (const type of this.recurring.keys()) void this.enqueueRecurring(type, 0)
    this.wake()
  }

  private async enqueueRecurring (type: string, delayMs: number): Promise<void> {
    try {
      await this.store.jobs.enqueue([this.recurringJob(type, delayMs)])
    } catch (error) {
      this.failed(error)
    }
  }

  /** The one active job a recurring type keeps (its unique key), due in `delayMs`. */
  private recurringJob (type: string, delayMs: number): NewJob {
    return { type, uniqueKey: `recurring:${type}`, runAt: formatDateTime(new Date(this.clock.now().getTime() + delayMs)) }
  }

  /** Stops claiming and waits for the jobs under way. */
  async stop (): Promise<void> {
    this.started = false
    this.unsubscribe?.()
    this.unsubscribe = null
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    await this.ticking
    while (this.underWay.size > 0) await Promise.allSettled([...this.underWay])
  }

  /**
   * One page of the jobs list (`jobList`, newest first; `jobQuery` builds a query by status and
   * type): for operators (`helpdesk jobs`), a trusted caller only.
   */
  async list (query: ListQuery = jobQuery()): Promise<Page<Job>> {
    return await this.store.jobs.list(query)
  }

  /** Makes a failed (or waiting) job run again now, its attempts reset; false when no such job is failed or pending. */
  async retry (id: number): Promise<boolean> {
    return await this.store.jobs.retry(id)
  }

  /** Looks for due jobs now (called on new jobs; harmless at any time). */
  wake (): void {
    this.schedule('all')
  }

  /**
   * Claims now: `all` types with expired leases too (start, poll, new jobs),
   * or one type's pending jobs (after one of its jobs finished).
   */
  private schedule (what: 'all' | string): void {
    if (!this.started) return
    if (what === 'all') this.wanted = 'all'
    else if (this.wanted !== 'all') this.wanted.add(what)
    if (this.ticking !== null) return
    this.ticking = (async () => {
      while (this.started && (this.wanted === 'all' || this.wanted.size > 0)) {
        const wanted = this.wanted
        this.wanted = new Set()
        try {
          await this.claimAndStart(wanted)
        } catch (error) {
          this.failed(error)
        }
      }
    })().finally(() => {
      this.ticking = null
      this.schedulePoll()
    })
  }

  /**
   * Runs the jobs due now in this call (tests, the CLI), and those that become
   * due while it runs (a retry without delay), until none is due; returns how
   * many runs it made.
   */
  async runDue (): Promise<number> {
    let ran = 0
    for (;;) {
      const jobs = await this.claim(this.types.keys(), 50)
      if (jobs.length === 0) return ran
      await Promise.all(jobs.map(async (job) => { await this.execute(job) }))
      ran += jobs.length
    }
  }

  private schedulePoll (): void {
    if (!this.started) return
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = setTimeout(() => { this.timer = null; this.wake() }, this.pollMs)
    this.timer.unref()
  }

  private async claimAndStart (wanted: 'all' | Set<string>): Promise<void> {
    for (const [type, registration] of this.types) {
      if (wanted !== 'all' && !wanted.has(type)) continue
      for (;;) {
        if (!this.started) return
        const free = registration.concurrency - registration.running
        // Under load, claim in batches (a quarter of the concurrency, up to 32) rather than one statement per finished job.
        if (free <= 0 || (registration.running > 0 && free < registration.claimBatch)) break
        const jobs = await this.claim([type], free, wanted === 'all')
        for (const job of jobs) this.track(job)
        if (jobs.length < free) break
      }
    }
  }

  private async claim (types: Iterable<string>, limit: number, reclaimExpired = true): Promise<Job[]> {
    const list = [...types]
    if (list.length === 0) return []
    const leaseMs = Math.max(...list.map((type) => this.types.get(type)?.leaseMs ?? DEFAULT_LEASE_MS))
    return await this.store.jobs.claim({ types: list, limit, leaseMs, workerId: this.workerId, reclaimExpired })
  }

  private track (job: Job): void {
    const registration = this.types.get(job.type)
    if (registration === undefined) return
    registration.running++
    const run = this.execute(job).finally(() => {
      registration.running--
      this.underWay.delete(run)
      this.schedule(job.type)
    })
    this.underWay.add(run)
  }

  private async execute (job: Job): Promise<void> {
    const registration = this.types.get(job.type)
    if (registration === undefined) return
    const beat = setInterval(() => {
      this.store.jobs.extendLease(job.id, this.workerId, registration.leaseMs).catch((error: unknown) => { this.failed(error, job) })
    }, Math.max(1000, registration.leaseMs / 3))
    beat.unref()
    let failure: unknown = null
    try {
      await registration.handler(job)
    } catch (error) {
      failure = error ?? new Error('failed')
    } finally {
      clearInterval(beat)
    }
    try {
      const interval = this.recurring.get(job.type)
      const finish = async (tx: Store): Promise<void> => {
        let finished = true
        if (failure === null) {
          // With the other jobs finishing in this turn, unless a transaction holds it (a recurring job's next run).
          await (tx === this.store ? this.completions.add(job.id) : tx.jobs.complete(job.id))
        } else {
          const delay = failure instanceof RetryJobError ? failure.retryAfterMs : registration.backoff(job.attempts)
          const retryAt = job.attempts >= job.maxAttempts || isPermanent(failure)
            ? null
            : formatDateTime(new Date(this.clock.now().getTime() + delay))
          await tx.jobs.fail(job.id, messageOf(failure), retryAt)
          finished = retryAt === null
        }
        if (finished && interval !== undefined) await tx.jobs.enqueue([this.recurringJob(job.type, interval)])
      }
      // A recurring job's next run is enqueued in the transaction that finishes this one: its key is
      // never without an active job, which another instance starting now would fill with a run of its own.
      // Any other job finishes with its one write, no transaction around it.
      await (interval === undefined ? finish(this.store) : this.store.transaction(finish))
    } catch (error) {
      // The lease expires and another claim runs the job again.
      this.failed(error, job)
    }
  }

  private failed (error: unknown, job?: Job): void {
    this.failures++
    try {
      this.onError(error, job)
    } catch {
      // Counted; a failing error handler must not stop the runner.
    }
  }
}

/** A handler throws this to give up at once (no retry will help). */
export class PermanentJobError extends Error {}

/** A handler throws this to be retried after its own delay (e.g. one it already told somebody about). */
export class RetryJobError extends Error {
  constructor (message: string, readonly retryAfterMs: number) {
    super(message)
  }
}

function isPermanent (error: unknown): boolean {
  return error instanceof PermanentJobError
}

function messageOf (error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.slice(0, 2000)
}
