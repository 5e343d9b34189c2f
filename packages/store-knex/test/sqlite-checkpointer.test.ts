import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { eventually } from '@helpdesk/core/testing'
import { backgroundCheckpointers, checkpointInBackground } from '../src/dialects/sqlite-checkpointer.js'
import { heldConnection } from '../src/dialects/sqlite-statements.js'
import { createKnexStore } from '../src/index.js'

/**
 * SQLite only: the write-ahead log's checkpoints run on a worker thread's
 * connection, off the connection that serves requests (PostgreSQL has no
 * such thing to move).
 */

function tempDir (t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-checkpoint-'))
  t.after(() => { rmSync(dir, { recursive: true, force: true }) })
  return dir
}

let copies = 0

/**
 * Rows of `notes` in the database file alone: a copy without its log holds
 * only what a checkpoint moved there (-1 when the copy caught a checkpoint
 * halfway and cannot be read).
 */
function rowsInFileAlone (dir: string, file: string): number {
  const copy = join(dir, `copy-${++copies}.sqlite`)
  copyFileSync(file, copy)
  try {
    const db = new Database(copy)
    try {
      return (db.prepare('select count(*) as n from notes').get() as { n: number }).n
    } finally {
      db.close()
    }
  } catch {
    return -1
  }
}

/** Whether the connection's checkpointer started and its worker opened the file. */
async function started (connection: object): Promise<boolean | undefined> {
  await eventually('the checkpointer to start', () => backgroundCheckpointers.has(connection as never), { timeoutMs: 5000 })
  // Polled: the worker does not keep the event loop alive by itself.
  let result: boolean | undefined
  void backgroundCheckpointers.get(connection as never)?.ready.then((value) => { result = value })
  await eventually('the worker to open the file', () => result !== undefined, { timeoutMs: 5000 })
  return result
}

/** A WAL-mode database with an empty `notes` table, all of it checkpointed into the file; closed after the test. */
function notesDatabase (t: { after: (fn: () => void | Promise<void>) => void }): { dir: string, file: string, db: Database.Database } {
  const dir = tempDir(t)
  const file = join(dir, 'db.sqlite')
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.exec('create table notes (id integer primary key, body text)')
  db.pragma('wal_checkpoint(TRUNCATE)')
  t.after(async () => { if (db.open) await db.close() })
  return { dir, file, db }
}

describe('background WAL checkpoints (SQLite)', () => {
  it('moves committed pages into the database file without the writing connection checkpointing', async (t) => {
    const { dir, file, db } = notesDatabase(t)
    // A handful of pages, far below any automatic checkpoint: without the worker they stay in the log.
    const insert = db.prepare('insert into notes (body) values (?)')
    db.transaction(() => { for (let i = 0; i < 50; i++) insert.run(`note ${i}`) })()
    assert.equal(rowsInFileAlone(dir, file), 0, 'just committed: the rows are in the log only')

    checkpointInBackground(db, file, { startDelayMs: 0, intervalMs: 20 })
    assert.equal(await started(db), true)
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 10_000, 'the connection keeps its own checkpoint only as a fallback')
    await eventually('the rows to reach the file itself', () => rowsInFileAlone(dir, file) === 50, { timeoutMs: 5000 })
  })

  it('stops the worker before closing, so the last connection removes the log', async (t) => {
    const { file, db } = notesDatabase(t)
    db.exec('insert into notes (body) values (\'one\')')
    checkpointInBackground(db, file, { startDelayMs: 0, intervalMs: 20 })
    assert.equal(await started(db), true)
    assert.equal(existsSync(`${file}-wal`), true)
    await db.close()
    assert.equal(db.open, false)
    assert.equal(existsSync(`${file}-wal`), false, 'no other connection was left holding the database')
  })

  it('starts for a store that stays open, and the store still closes cleanly', async (t) => {
    const dir = tempDir(t)
    const file = join(dir, 'store.sqlite')
    const store = createKnexStore({ url: `sqlite:${file}` })
    await store.migrate()
    const connection = heldConnection(store.knex)
    assert.ok(connection)
    assert.equal(await started(connection), true)
    await store.close()
    assert.equal(existsSync(`${file}-wal`), false)
  })

  it('leaves an in-memory database alone (it has no log)', async () => {
    const store = createKnexStore({ url: 'sqlite::memory:' })
    await store.migrate()
    const connection = heldConnection(store.knex)
    assert.ok(connection)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    assert.equal(backgroundCheckpointers.has(connection), false)
    await store.close()
  })
})
