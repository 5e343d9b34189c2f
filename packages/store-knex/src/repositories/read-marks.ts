import type { Knex } from 'knex'
import type { Dialect } from '../dialects/dialect.js'

const READ_COLUMNS = [{ name: 'ticket_id', type: 'integer' }, { name: 'user_id', type: 'integer' }, { name: 'read_at', type: 'timestamp' }] as const

/**
 * The reads of `rows` as one statement: those of tickets and users that
 * still exist, each keeping its latest read (a concurrent, or another
 * instance's, older read never moves it back). It takes no row locks: on
 * PostgreSQL a delete of a ticket or user locks `ticket_reads` against this
 * statement instead (migration 0018).
 */
function upsertReads (rows: { sql: string, bindings: unknown[] }): [string, unknown[]] {
  return ['insert into ticket_reads (ticket_id, user_id, read_at) select v.ticket_id, v.user_id, v.read_at ' +
    `from ${rows.sql} join tickets on tickets.id = v.ticket_id join users on users.id = v.user_id where true ` +
    'on conflict (ticket_id, user_id) do update set read_at = excluded.read_at where ticket_reads.read_at < excluded.read_at', rows.bindings]
}

/** Well under SQLite's bound-parameter limit (three per read there). */
const READS_PER_STATEMENT = 1000

interface Mark { ticketId: number, userId: number, at: string }
interface Batch { marks: Map<string, Mark>, done: Promise<void>, settle: (error?: unknown) => void }

/**
 * Ticket reads (`last_read_by_me`) with group commit: reads are written in
 * one transaction at a time, and the reads recorded while one is being
 * written are written together by the next; each caller resolves once its
 * read is committed. So a view still answers only after its read is stored
 * (visible to every instance, never written after the response), but a busy
 * server pays one commit for many views instead of one each. A read of a
 * ticket or user deleted meanwhile is dropped.
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

  /** A batch that gathers reads until the write before it has finished (and this turn of the event loop has ended). */
  private open (): Batch {
    let settle: Batch['settle'] = () => {}
    const done = new Promise<void>((resolve, reject) => { settle = (error) => { if (error === undefined) resolve(); else reject(error) } })
    const batch: Batch = { marks: new Map(), done, settle }
    this.batch = batch
    const written = this.writing.then(async () => {
      await new Promise((resolve) => setImmediate(resolve))
      if (this.batch === batch) this.batch = null
      await this.write(batch)
    })
    this.writing = written.catch(() => {})
    written.then(() => { batch.settle() }, (error: unknown) => { batch.settle(error) })
    return batch
  }

  private async write (batch: Batch): Promise<void> {
    // In key order, so concurrent writers (other instances) lock rows in the same order.
    const marks = [...batch.marks.values()].sort((a, b) => a.ticketId - b.ticketId || a.userId - b.userId)
    const statements: Array<[string, unknown[]]> = []
    for (let i = 0; i < marks.length; i += READS_PER_STATEMENT) {
      const rows = marks.slice(i, i + READS_PER_STATEMENT).map((mark) => [mark.ticketId, mark.userId, mark.at])
      statements.push(upsertReads(this.dialect.rowsTable(READ_COLUMNS, rows)))
    }
    await this.dialect.runAll(this.knex, statements)
  }
}
