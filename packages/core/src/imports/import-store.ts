import type { DateTimeString } from '../time.js'
import type { ImportFormat, ImportJob, ImportSourceType, ImportStatusName } from './import-job.js'

/* The storage port for import jobs and remembered external ids (part of `Store`, same conventions). */

export interface NewImportJob {
  user_id: number | null
  status: ImportStatusName
  format: ImportFormat | null
  file_name: string | null
  /** The file's text, kept until the job ends so whichever instance claims it can read it. */
  source: string | null
}

export type ImportJobPatch = Partial<Pick<ImportJob, 'status' | 'format' | 'total' | 'processed' | 'created' | 'failed' | 'message'>> & {
  /** Null drops the stored file (done when the job ends). */
  source?: null
}

export interface ImportRepository {
  create(job: NewImportJob): Promise<ImportJob>
  findById(id: number): Promise<ImportJob | null>
  /** The stored file of a job, or null (none stored, or dropped when it ended). */
  sourceOf(id: number): Promise<string | null>
  /**
   * Atomically takes the oldest job that is queued, or running with a heartbeat
   * (`updated_at`) before `staleBefore` (its instance died), and marks it
   * running with a fresh heartbeat. Safe when several instances claim at
   * once: each job goes to one of them. Null when there is none.
   */
  claim(staleBefore: DateTimeString): Promise<ImportJob | null>
  /** Applies the patch and moves the heartbeat (`updated_at`). Null when missing. */
  update(id: number, patch: ImportJobPatch): Promise<ImportJob | null>
  /**
   * Local ids of external ids of one kind, in one query. Mappings whose local
   * row was deleted since are left out, so the record is imported again.
   */
  localIds(type: ImportSourceType, externalIds: string[]): Promise<Map<string, number>>
  /** Remembers external id -> local id for one kind (replacing a stale mapping), in batched statements. */
  remember(type: ImportSourceType, importId: number | null, pairs: ReadonlyArray<readonly [string, number]>): Promise<void>
}
