import type { Knex } from 'knex'
import type { Dialect } from '../dialects/dialect.js'

/** Keeps a row's latest read: a concurrent (or another instance's) older read never moves it back. */
const UPSERT_READ = 'insert into ticket_reads (ticket_id, user_id, read_at) ' +
  'select tickets.id, ?, ? from tickets where tickets.id = ? and exists (select 1 from users where users.id = ?) ' +
  'on conflict (ticket_id, user_id) do update set read_at = excluded.read_at where ticket_reads.read_at < excluded.read_at'

interface Mark { ticketId: number, userId: number, at: string }
interface Batch { marks: Map<string, Mark>, done: Promise<void>, settle: (error?: unknown) => void }

/**
 * Ticket reads (`last_read_by_me`) with group commit: the reads recorded
 * while the event loop is busy are written together, in one transaction, on
 * its next turn, and each caller resolves once its read is committed. So a
 * view still answers only after its read is stored (visible to every
 * instance, never written after the response), but a busy server pays one
 * commit for many views instead of one each. A read of a ticket or user
 * deleted meanwhile is dropped.
 */
export class ReadMarks {
  private batch: Batch | null = null
  private writing: Promise<void> = Promise.resolve()

  constructor (private readonly knex: Knex, private readonly dialect: Dialect) {}

  async add (ticketId: number, userId: number, at: string): Promise<void> {
    const batch = this.batch ?? this.open()
    const key = `${ticketId}:${userId}`
    const current = batch.marks.get(key)
    if (current === undefined || current.at < at) batch.marks.set(key, { ticketId, userId, at })
    await batch.done
  }

  /** Resolves once every read recorded so far is written (or has failed). */
  async settled (): Promise<void> {
    await this.batch?.done.catch(() => {})
    await this.writing
  }

  private open (): Batch {
    let settle: Batch['settle'] = () => {}
    const done = new Promise<void>((resolve, reject) => { settle = (error) => { if (error === undefined) resolve(); else reject(error) } })
    const batch: Batch = { marks: new Map(), done, settle }
    this.batch = batch
    setImmediate(() => {
      if (this.batch === batch) this.batch = null
      // Batches commit one after another; the next one gathers reads while this one is written.
      const written = this.writing.then(async () => { await this.write(batch) })
      this.writing = written.catch(() => {})
      written.then(() => { batch.settle() }, (error: unknown) => { batch.settle(error) })
    })
    return batch
  }

  private async write (batch: Batch): Promise<void> {
    await this.dialect.runAll(this.knex, [...batch.marks.values()].map((mark) => [UPSERT_READ, [mark.userId, mark.at, mark.ticketId, mark.userId]] as const))
  }
}
