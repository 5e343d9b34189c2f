import type { DomainEvent } from '../events.js'
import type { DateTimeString } from '../time.js'

export const ImportStatus = { Queued: 'queued', Running: 'running', Completed: 'completed', Failed: 'failed' } as const
export type ImportStatusName = typeof ImportStatus[keyof typeof ImportStatus]

/** `jsonl`: one record per line with a `type`; `json`: one document of sections; `csv`: customers (docs/import-format.md). */
export type ImportFormat = 'jsonl' | 'json' | 'csv'

/** An import job and its progress, kept in the database so any instance can report (and resume) it. */
export interface ImportJob {
  id: number
  /** Who started it (the recipient of its notification); null from the CLI or once deleted. */
  user_id: number | null
  status: ImportStatusName
  format: ImportFormat | null
  file_name: string | null
  /** Records in the file (top-level lines, rows or items); 0 until counted. */
  total: number
  /** Records read and committed. */
  processed: number
  /** Rows created: categories, agents, customers, tickets and comments (nested comments count one each). */
  created: number
  /** Records of the batch that failed and was rolled back. */
  failed: number
  /** Why it failed, naming the record (`Line 57: ...`, `tickets[3].comments[0]: ...`). */
  message: string | null
  created_at: DateTimeString
  /** Moves with every committed batch: a running job whose heartbeat stops is picked up again. */
  updated_at: DateTimeString
}

export const ImportEventType = {
  Completed: 'Import.ImportCompletedSuccessfully',
  Failed: 'Import.ImportFailed'
} as const

/** Raised when a job ends; a system event (no actor), for the user who started it. */
export interface ImportFinishedEvent extends DomainEvent {
  type: typeof ImportEventType[keyof typeof ImportEventType]
  actor_id: null
  user_id: number | null
  import: { id: number, created: number, failed: number, message: string | null }
}

/** The kinds of records an import brings in; external ids are remembered per kind. */
export type ImportSourceType = 'category' | 'agent' | 'customer' | 'ticket' | 'comment'
