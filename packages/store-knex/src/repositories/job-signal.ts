import type { Knex } from 'knex'
import type { Dialect } from '../dialects/dialect.js'

/** The channel a committed enqueue notifies (`Dialect.notify`: every instance listening wakes). */
export const JOBS_CHANNEL = 'helpdesk_jobs'

/**
 * Wakes job runners when jobs were enqueued: in this process after the
 * enqueuing transaction committed, and where the dialect notifies across
 * instances (PostgreSQL: `NOTIFY` inside the transaction is delivered at
 * commit) in every instance, through one dedicated listening connection
 * (`Dialect.listen`), opened while somebody listens.
 */
export class JobSignal {
  private readonly listeners = new Set<() => void>()
  /** Stops listening and closes the dedicated connection, while it is open. */
  private stopListening: (() => Promise<void>) | null = null
  private connecting: Promise<void> | null = null
  private closed = false
  private retry: NodeJS.Timeout | null = null

  constructor (private readonly knex: Knex, private readonly dialect: Dialect) {}

  subscribe (listener: () => void): () => void {
    this.listeners.add(listener)
    this.listen()
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0) void this.unlisten()
    }
  }

  fire (): void {
    for (const listener of this.listeners) {
      try { listener() } catch { /* a listener's failure is its own */ }
    }
  }

  async close (): Promise<void> {
    this.closed = true
    this.listeners.clear()
    await this.unlisten()
  }

  private listen (): void {
    if (this.stopListening !== null || this.connecting !== null || this.closed) return
    const opening = this.dialect.listen(this.knex, JOBS_CHANNEL, { notification: () => { this.fire() }, lost: () => { void this.reconnect() } })
    // Notifications never leave this process (SQLite): `fire` after each commit is all there is.
    if (opening === null) return
    this.connecting = (async () => {
      try {
        const close = await opening
        if (this.listeners.size === 0 || this.closed) await close()
        else this.stopListening = close
      } catch {
        // The runners' poll covers the gap; try again shortly.
        this.scheduleRetry()
      } finally {
        this.connecting = null
      }
    })()
  }

  private async reconnect (): Promise<void> {
    await this.unlisten()
    this.scheduleRetry()
  }

  private scheduleRetry (): void {
    if (this.closed || this.listeners.size === 0 || this.retry !== null) return
    this.retry = setTimeout(() => { this.retry = null; this.listen() }, 5000)
    this.retry.unref()
  }

  private async unlisten (): Promise<void> {
    await this.connecting
    if (this.retry !== null) clearTimeout(this.retry)
    this.retry = null
    const close = this.stopListening
    this.stopListening = null
    if (close !== null) await close()
  }
}
