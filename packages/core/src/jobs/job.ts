import type { ListQuery } from '../list/list-query.js'
import { defineList, PAGE_DEFAULT_SIZE } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

export interface NewJob {
  /** E.g. 'webhook.deliver', 'mail.send', 'import.run', 'uploads.prune'. */
  type: string
  payload?: Record<string, unknown>
  /** Default now. */
  runAt?: DateTimeString
  /** At most one job with this key is pending/running at a time: enqueueing it again is a no-op. */
  uniqueKey?: string
  /** Default `DEFAULT_MAX_ATTEMPTS`. */
  maxAttempts?: number
}

export const JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const
export type JobStatus = typeof JOB_STATUSES[number]

/** Background jobs (`helpdesk jobs`), newest first: `filter[status]` (comma separated) and `filter[type]`. */
export const jobList = defineList({
  resource: 'jobs',
  includes: [],
  sorts: ['id'],
  defaultSort: '-id',
  keyTypes: { id: 'int' },
  partialFilters: [],
  exactFilters: ['status', 'type']
})

/**
 * The jobs list's query for callers that name no page (the CLI, tests): the
 * newest `perPage` jobs of these statuses (any, when none) and this type.
 */
export function jobQuery (filter: { status?: readonly JobStatus[], type?: string, perPage?: number } = {}): ListQuery {
  const exact: Record<string, string[]> = {}
  if (filter.status !== undefined && filter.status.length > 0) exact.status = [...filter.status]
  if (filter.type !== undefined) exact.type = [filter.type]
  return { include: [], sort: [{ field: 'id', desc: true }], partial: {}, exact, page: 1, perPage: filter.perPage ?? PAGE_DEFAULT_SIZE }
}

export interface Job extends Required<Omit<NewJob, 'uniqueKey' | 'runAt'>> {
  id: number
  uniqueKey: string | null
  status: JobStatus
  /** Claims so far (a claim counts as an attempt, so a worker killed mid-job uses one up). */
  attempts: number
  run_at: DateTimeString
  locked_until: DateTimeString | null
  last_error: string | null
  created_at: DateTimeString
  updated_at: DateTimeString
}

export const DEFAULT_MAX_ATTEMPTS = 10

