import type { Knex } from 'knex'
import type { Dialect } from '../dialects/dialect.js'

/** The PostgreSQL channel a committed enqueue notifies (every instance listening wakes). */
export const JOBS_CHANNEL = 'helpdesk_jobs'

interface ListeningConnection {
  query: (sql: string) => Promise<unknown>
  on: (event: string, listener: (...args: unknown[]) => void) => void
  removeAllListeners: (event?: string) => void
}
interface RawClient {
  acquireRawConnection: () => Promise<ListeningConnection>
  destroyRawConnection: (connection: ListeningConnection) => Promise<void>
}

/**
 * Wakes job runners when jobs were enqueued: in this process after the
 * enqueuing transaction committed, and on PostgreSQL in every instance
 * (`NOTIFY` inside the transaction is delivered at commit) through one
 * dedicated `LISTEN` connection, opened while somebody listens.
 */
export class JobSignal {
  private readonly listeners = new Set<() => void>()
  private connection: ListeningConnection | null = null
  private connecting: Promise<void> | null = null
  private closed = false
  private retry: NodeJS.Timeout | null = null

  constructor (private readonly knex: Knex, private readonly dialect: Dialect) {}

  subscribe (listener: () => void): () => void {
    this.listeners.add(listener)
    if (this.dialect.name === 'postgres') this.listen()
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
    if (this.connection !== null || this.connecting !== null || this.closed) return
    const client = this.knex.client as unknown as RawClient
    this.connecting = (async () => {
      try {
        const connection = await client.acquireRawConnection()
        connection.on('notification', () => { this.fire() })
        connection.on('error', () => { void this.reconnect() })
        await connection.query(`LISTEN ${JOBS_CHANNEL}`)
        if (this.listeners.size === 0 || this.closed) await client.destroyRawConnection(connection).catch(() => {})
        else this.connection = connection
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
    const connection = this.connection
    this.connection = null
    if (connection === null) return
    connection.removeAllListeners('notification')
    connection.on('error', () => {})
    await (this.knex.client as unknown as RawClient).destroyRawConnection(connection).catch(() => {})
  }
}
