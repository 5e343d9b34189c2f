import { DEFAULT_MAX_ATTEMPTS, formatDateTime, jobList, type Job, type JobRepository, type JobStatus, type NewJob } from '@helpdesk/core'
import { listPage, type ListMapping } from '../list/list-mapping.js'
import { parseJson } from '../rows/row-values.js'
import type { JobSignal } from './job-signal.js'
import { JOBS_CHANNEL } from './job-signal.js'
import { now, type RepositoryContext } from './repository-context.js'

interface JobRow {
  id: number | string
  type: string
  payload: string
  status: JobStatus
  attempts: number
  max_attempts: number
  run_at: string
  locked_until: string | null
  unique_key: string | null
  last_error: string | null
  created_at: string
  updated_at: string
}

const columns = ['id', 'type', 'payload', 'status', 'attempts', 'max_attempts', 'run_at', 'locked_until', 'unique_key', 'last_error', 'created_at', 'updated_at']
const columnList = columns.map((c) => `"${c}"`).join(', ')

function jobFromRow (row: JobRow): Job {
  return {
    id: Number(row.id),
    type: row.type,
    payload: parseJson<Record<string, unknown>>(row.payload, {}),
    maxAttempts: Number(row.max_attempts),
    uniqueKey: row.unique_key,
    status: row.status,
    attempts: Number(row.attempts),
    run_at: row.run_at,
    locked_until: row.locked_until,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

/** The jobs list (`jobList`): newest first, by status and type. */
const jobMapping: ListMapping<typeof jobList, JobRow, Job> = {
  spec: jobList,
  sorts: { id: 'jobs.id' },
  partial: {},
  exact: { status: { column: 'jobs.status', type: 'string' }, type: { column: 'jobs.type', type: 'string' } },
  includes: {},
  idColumn: 'jobs.id',
  map: jobFromRow
}

/** How the store tells runners about committed enqueues: at once outside a transaction, after commit inside one. */
export interface JobContext {
  signal: JobSignal
  /** Called after an enqueue: fires now, or marks the open transaction to fire when it commits. */
  enqueued: () => void
}

export function createJobRepository (ctx: RepositoryContext, jobs: JobContext): JobRepository {
  const { db, dialect } = ctx
  const later = (ms: number): string => formatDateTime(new Date(ctx.clock.now().getTime() + ms))
  // The type unindexed where the planner needs telling (SQLite): the claim must walk (status, run_at) in
  // order, not (type, status) and sort every due row.
  const typeColumn = dialect.unindexedColumn.replace('??', '"type"')
  // One statement per kind of due job: of claimers racing, each row goes to one (row locks skipped on
  // PostgreSQL; SQLite writes one at a time). Each walks the (status, run_at) index in order and stops at
  // the limit, so a backlog of due jobs costs a claim no more than a short queue. The list of types is one
  // bound value, so the statements' text is the same whatever the types.
  const typeList = (types: readonly string[]): { sql: string, bindings: unknown[] } => dialect.inTexts(typeColumn, types)
  const claimSql = (due: string, order: string): string => `update "jobs" set "status" = 'running', "attempts" = "attempts" + 1, "locked_until" = ?, "locked_by" = ?, "updated_at" = ?
    where "id" in (select "id" from "jobs" where ${due} and ${typeList([]).sql}
      order by ${order} limit ?${dialect.skipLockedRows})
    returning ${columnList}`
  const claimPending = claimSql('"status" = \'pending\' and "run_at" <= ?', '"run_at"')
  const claimExpired = claimSql('"status" = \'running\' and "locked_until" < ?', '"locked_until"')

  return {
    async enqueue (list: NewJob[]) {
      if (list.length === 0) return []
      const at = now(ctx)
      const rowOf = (job: NewJob): Record<string, unknown> => ({
        type: job.type,
        payload: JSON.stringify(job.payload ?? {}),
        status: 'pending',
        attempts: 0,
        max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        run_at: job.runAt ?? at,
        unique_key: job.uniqueKey ?? null,
        created_at: at,
        updated_at: at
      })
      const ids: number[] = []
      const plain = list.filter((job) => job.uniqueKey === undefined)
      const plainIds: number[] = []
      for (let i = 0; i < plain.length; i += 200) {
        const rows = await db('jobs').insert(plain.slice(i, i + 200).map(rowOf)).returning('id') as Array<{ id: number | string }>
        plainIds.push(...rows.map((r) => Number(r.id)))
      }
      let p = 0
      for (const job of list) {
        if (job.uniqueKey === undefined) {
          ids.push(plainIds[p++]!)
          continue
        }
        // The partial unique index keeps one active job per key: a second enqueue finds the first.
        const rows = await db('jobs').insert(rowOf(job)).onConflict().ignore().returning('id') as Array<{ id: number | string }>
        if (rows[0] !== undefined) {
          ids.push(Number(rows[0].id))
        } else {
          const active = await db('jobs').select('id').where('unique_key', job.uniqueKey).whereIn('status', ['pending', 'running']).first() as { id: number | string } | undefined
          ids.push(Number(active?.id ?? 0))
        }
      }
      await dialect.notify(db, JOBS_CHANNEL)
      jobs.enqueued()
      return ids
    },
    async claim ({ types, limit, leaseMs, workerId, reclaimExpired = true }) {
      if (types.length === 0 || limit <= 0) return []
      const at = now(ctx)
      const lease = [later(leaseMs), workerId, at]
      const { bindings } = typeList(types)
      // Jobs of dead workers first (their lease ran out), then due ones.
      const expired = reclaimExpired ? await dialect.run<JobRow>(db, claimExpired, [...lease, at, ...bindings, limit]) : []
      const pending = expired.length < limit
        ? await dialect.run<JobRow>(db, claimPending, [...lease, at, ...bindings, limit - expired.length])
        : []
      return [...expired, ...pending].map(jobFromRow).sort((a, b) => a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : a.id - b.id)
    },
    async extendLease (id, workerId, leaseMs) {
      const count = await db('jobs').where({ id, status: 'running', locked_by: workerId }).update({ locked_until: later(leaseMs), updated_at: now(ctx) })
      return count > 0
    },
    async complete (ids) {
      const list = typeof ids === 'number' ? [ids] : ids
      if (list.length === 0) return
      const where = dialect.inIds('"id"', list, 'bigint')
      await dialect.run(db, `update "jobs" set "status" = 'done', "locked_until" = null, "locked_by" = null, "last_error" = null, "updated_at" = ? where ${where.sql}`, [now(ctx), ...where.bindings])
    },
    async fail (id, error, retryAt) {
      await db('jobs').where('id', id).update({
        status: retryAt === null ? 'failed' : 'pending',
        run_at: retryAt ?? db.ref('run_at'),
        locked_until: null,
        locked_by: null,
        last_error: error,
        updated_at: now(ctx)
      })
    },
    async list (query) {
      return await listPage(db, dialect, db('jobs').select(columns.map((c) => `jobs.${c}`)), jobMapping, query)
    },
    async findById (id) {
      const row = await db('jobs').select(columns).where('id', id).first() as JobRow | undefined
      return row === undefined ? null : jobFromRow(row)
    },
    async retry (id) {
      const at = now(ctx)
      // A retried job gets its attempts back, so a job that gave up may try as often as a new one.
      const count = await db('jobs').where('id', id).whereIn('status', ['failed', 'pending'])
        .update({ status: 'pending', run_at: at, attempts: 0, locked_until: null, locked_by: null, updated_at: at })
      if (count === 0) return false
      await dialect.notify(db, JOBS_CHANNEL)
      jobs.enqueued()
      return true
    },
    async deleteFinishedBefore (before, limit) {
      return await db('jobs')
        .whereIn('id', db('jobs').select('id').whereIn('status', ['done', 'failed']).where('updated_at', '<', before).orderBy('id').limit(limit))
        .delete()
    },
    onEnqueued (listener) {
      return jobs.signal.subscribe(listener)
    }
  }
}
