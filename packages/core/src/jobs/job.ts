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

export type JobStatus = 'pending' | 'running' | 'done' | 'failed'

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

