import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** How often the background connection checkpoints the write-ahead log. */
const CHECKPOINT_INTERVAL_MS = 100
/** How long a connection must stay open before it gets a background checkpointer (a short-lived one, a CLI command or a test, never needs one). */
const START_DELAY_MS = 1000
/** SQLite's own default: the connection checkpoints when the log reaches this many pages. */
const DEFAULT_AUTOCHECKPOINT = 1000
/** The connection's own checkpoint while the background one runs: a fallback, should that one fall behind or fail. */
const FALLBACK_AUTOCHECKPOINT = 10_000
/** A log grown past this is cut back to it once checkpointed (bytes). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024

/** The worker: its own connection to the file, a PASSIVE checkpoint per interval (it never waits for, nor blocks, readers and the writer). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.filename, { fileMustExist: true })
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch (error) {
    clearInterval(timer)
    throw error
  }
}, workerData.intervalMs)
parentPort.once('message', () => {
  clearInterval(timer)
  db.close()
  parentPort.close()
})
parentPort.postMessage('ready')
`

/** The slice of a better-sqlite3 connection used here. */
export interface CheckpointedConnection {
  pragma: (source: string) => unknown
  close: () => unknown
}

/** A running background checkpointer per connection, for tests. */
export const backgroundCheckpointers = new WeakMap<CheckpointedConnection, { ready: Promise<boolean> }>()

const driver = createRequire(import.meta.url).resolve('better-sqlite3')

/**
 * Moves the write-ahead log's checkpoints off the connection that serves
 * requests. SQLite checkpoints on the connection whose commit filled the log
 * to 1,000 pages: it copies them into the database file and syncs it there
 * and then, inside that commit, on the event loop. With a read mark written
 * per ticket view (a random page of `ticket_reads` at a million tickets) that
 * was a tenth of a ticket view's CPU. Here a worker thread with its own
 * connection checkpoints every 100 ms instead, and the connection's own
 * checkpoint stays as a fallback at 10,000 pages (back to SQLite's 1,000 if
 * the worker stops). `close` stops the worker first, so the last connection
 * to close is still the request path's, which removes the log.
 */
export function checkpointInBackground (
  connection: CheckpointedConnection, filename: string, timing: { startDelayMs?: number, intervalMs?: number } = {}
): void {
  connection.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`)
  let open = true
  let stop: () => Promise<void> = async () => {}
  const start = (): void => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { filename, driver, intervalMs: timing.intervalMs ?? CHECKPOINT_INTERVAL_MS } })
    worker.unref()
    const exited = new Promise<void>((resolve) => { worker.once('exit', () => { resolve() }) })
    const ready = new Promise<boolean>((resolve) => {
      worker.once('message', () => {
        if (open) connection.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT}`)
        resolve(true)
      })
      void exited.then(() => { resolve(false) })
    })
    // A worker that could not open the file, or failed later, leaves the checkpoints to the connection, as SQLite does by itself.
    worker.on('error', () => {})
    void exited.then(() => { if (open) connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`) })
    backgroundCheckpointers.set(connection, { ready })
    stop = async () => {
      // Held until the worker has closed its connection, so a process with nothing else to do waits for it.
      worker.ref()
      worker.postMessage('close')
      await exited
    }
  }
  const timer = setTimeout(start, timing.startDelayMs ?? START_DELAY_MS)
  timer.unref()
  const close = connection.close.bind(connection)
  connection.close = async () => {
    open = false
    clearTimeout(timer)
    await stop()
    return close()
  }
}
