import type { Readable } from 'node:stream'
import type { ServiceContext } from '../context.js'
import { HelpdeskError, NotFoundError, UnavailableError } from '../errors.js'
import { formatDateTime } from '../time.js'
import { ensure } from '../users/user-policy.js'
import { actorIdOf, actsAsAdmin, personActor, SYSTEM, toActor, type Actor, type ActorInput } from '../users/actor.js'
import { ImportEventType, ImportStatus, type ImportFinishedEvent, type ImportFormat, type ImportJob } from './import-job.js'
import { importItem, type ImportItem } from './import-records.js'
import { countRecords, detectFormat, ImportRecordError, readRecords, type ImportInput } from './import-source.js'
import { ImportBatchWriter } from './import-writer.js'
import { SlaConfigCache } from '../sla/sla-evaluation.js'
import { SLA_CONFIG_TTL_MS } from '../sla/sla-recalculation.js'

/** `(done, total)`: records committed so far, and the records in the file (null when reading a stream). */
export type ImportProgress = (done: number, total: number | null) => void

export interface ImportRunOptions {
  /** Default: from the file name's extension, else from the content (docs/import-format.md). */
  format?: ImportFormat
  /** Shown on the job; also used to pick the format. */
  fileName?: string
  onProgress?: ImportProgress
  /** Who starts it (a person gets its notification); default `SYSTEM` (the CLI). */
  actor?: ActorInput
  /** Records per transaction. Default 500. */
  batchSize?: number
}

export interface ImportUpload {
  fileName: string | null
  /** The file's text (UTF-8). */
  content: string
  format?: ImportFormat
}

/** Imports write people, categories and tickets wholesale: administrators only. */
export function canImport (actor: ActorInput): boolean {
  return actsAsAdmin(actor)
}

export function ensureCanImport (actor: ActorInput): void {
  ensure(canImport(actor))
}

/** Records per transaction. */
export const IMPORT_BATCH_SIZE = 500
/** A running job whose heartbeat is older than this is taken over by another instance. */
export const IMPORT_STALE_AFTER_MS = 5 * 60 * 1000

/**
 * Imports customers, agents, categories, tickets and comments (docs/import-format.md):
 * in batches, each in one transaction; idempotently (external ids are
 * remembered, a re-run creates nothing twice); jobs and progress live in the
 * database, so any instance can report, run or resume them.
 */
export class ImportService {
  /** `sla`: the SLA configuration cache the batches read (the SLA service's, so a change through it is seen at once). */
  constructor (private readonly ctx: ServiceContext, private readonly sla = new SlaConfigCache(SLA_CONFIG_TTL_MS)) {}

  /** Administrators upload a file; it waits, queued, until an `import.run` job (on any instance) runs it. */
  async enqueue (actor: ActorInput, upload: ImportUpload): Promise<ImportJob> {
    ensureCanImport(actor)
    const format = upload.format ?? await detectFormat({ text: upload.content }, upload.fileName)
    // The job commits with the import row: whichever instance's runner claims it runs the import.
    return await this.ctx.store.transaction(async (tx) => {
      const job = await tx.imports.create({
        user_id: actorIdOf(actor), status: ImportStatus.Queued, format, file_name: upload.fileName, source: upload.content
      })
      await tx.jobs.enqueue([{ type: 'import.run', payload: { import_id: job.id }, maxAttempts: 5 }])
      return job
    })
  }

  /** Those who may import see every job; others see none. */
  async view (actor: ActorInput, id: number): Promise<ImportJob> {
    const job = canImport(actor) ? await this.ctx.store.imports.findById(id) : null
    if (job === null) throw new NotFoundError('Import')
    return job
  }

  /**
   * Runs queued jobs, and running ones whose instance stopped beating, until
   * none is left; returns how many it ran. Several instances may call this at
   * once: each job is claimed by one. A resumed job skips the records its
   * committed batches already counted.
   */
  async runPending (options: Pick<ImportRunOptions, 'batchSize'> = {}): Promise<number> {
    let ran = 0
    for (;;) {
      const staleBefore = formatDateTime(new Date(this.ctx.clock.now().getTime() - IMPORT_STALE_AFTER_MS))
      const job = await this.ctx.store.imports.claim(staleBefore)
      if (job === null) return ran
      const source = await this.ctx.store.imports.sourceOf(job.id)
      if (source === null) {
        await this.finish(job, { failed: 0, message: 'The uploaded file is no longer available.' })
      } else {
        await this.run(job, { text: source }, job.format ?? 'jsonl', { ...options, actor: await this.starterOf(job) })
      }
      ran++
    }
  }

  /**
   * Imports a file now, in this process (the CLI's `helpdesk import FILE`):
   * `source` is a path or a stream. Resolves with the finished job, completed
   * or failed (its `message` names the bad record); it rejects only when the
   * database fails.
   */
  async importFile (source: string | Readable, options: ImportRunOptions = {}): Promise<ImportJob> {
    const input: ImportInput = typeof source === 'string' ? { path: source } : { stream: source }
    const fileName = options.fileName ?? (typeof source === 'string' ? source : null)
    const format = options.format ?? await detectFormat(input, fileName)
    const job = await this.ctx.store.imports.create({
      user_id: actorIdOf(options.actor ?? SYSTEM), status: ImportStatus.Running, format, file_name: fileName, source: null
    })
    return await this.run(job, input, format, options)
  }

  /** Who a queued job runs as: the person who uploaded it, through the import door (the system when they are gone). */
  private async starterOf (job: ImportJob): Promise<Actor> {
    const user = job.user_id === null ? null : await this.ctx.store.users.findById(job.user_id)
    return user === null ? SYSTEM : personActor(user, 'import')
  }

  private async run (job: ImportJob, input: ImportInput, format: ImportFormat, options: ImportRunOptions): Promise<ImportJob> {
    const batchSize = options.batchSize ?? IMPORT_BATCH_SIZE
    const given = toActor(options.actor ?? SYSTEM)
    // What the import writes (customers' `CustomerCreated`) is by this actor, through the import door.
    const by = given.kind === 'person' ? personActor(given, 'import', given.ip) : given
    let total: number | null = null
    let progress = job
    const report = (): void => { options.onProgress?.(progress.processed, total) }
    let batch: ImportItem[] = []
    let index = 0
    const commit = async (): Promise<void> => {
      const items = batch
      progress = await this.ctx.events.transaction(this.ctx.store, async (tx) => {
        const created = await ImportBatchWriter.write(this.ctx, tx, job.id, items, by, this.sla)
        const next = { processed: progress.processed + items.length, created: progress.created + created }
        return await tx.imports.update(job.id, total === null ? { ...next, total: next.processed } : next) ?? progress
      })
      batch = []
      report()
    }
    let reading = true
    try {
      total = await countRecords(input, format)
      progress = await this.ctx.store.imports.update(job.id, { format, total: total ?? 0 }) ?? job
      report()
      for await (const record of readRecords(input, format)) {
        // A resumed job: these records were committed by the run that stopped.
        if (++index <= job.processed) continue
        batch.push(importItem(record))
        if (batch.length >= batchSize) {
          reading = false
          await commit()
          reading = true
        }
      }
      reading = false
      if (batch.length > 0) await commit()
    } catch (error) {
      // Nothing of the current batch was written: its records, and a bad one being read, failed.
      const failed = batch.length + (reading ? 1 : 0)
      if (error instanceof ImportRecordError) return await this.finish(progress, { failed, message: error.message })
      if (error instanceof HelpdeskError && !(error instanceof UnavailableError)) {
        return await this.finish(progress, { failed, message: `${batchRange(batch)}: ${error.message}` })
      }
      await this.finish(progress, { failed, message: `The import stopped: ${(error as Error).message}` }).catch(() => {})
      throw error
    }
    return await this.finish(progress, null)
  }

  /** Marks the job completed (no failure) or failed, and tells whoever started it, in one transaction. */
  private async finish (job: ImportJob, failure: { failed: number, message: string } | null): Promise<ImportJob> {
    const { events, store } = this.ctx
    return await events.transaction(store, async (tx) => {
      const finished = await tx.imports.update(job.id, {
        status: failure === null ? ImportStatus.Completed : ImportStatus.Failed,
        failed: failure?.failed ?? 0,
        message: failure?.message ?? null,
        source: null
      }) ?? job
      const event: ImportFinishedEvent = {
        type: failure === null ? ImportEventType.Completed : ImportEventType.Failed,
        actor_id: null,
        user_id: finished.user_id,
        import: { id: finished.id, created: finished.created, failed: finished.failed, message: finished.message }
      }
      await events.emit(tx, event)
      return finished
    })
  }
}

/** Where a batch stands in the file, for a failure no single record caused. */
function batchRange (batch: ImportItem[]): string {
  const first = batch[0]?.location
  const last = batch.at(-1)?.location
  if (first === undefined || last === undefined) return 'The file'
  return first === last ? first : `${first} to ${last}`
}
