import type { Knex } from 'knex'
import { knexClient } from './knex-internals.js'

/** The slice of a pg connection a listener uses. */
interface ListeningConnection {
  query: (sql: string) => Promise<unknown>
  on: (event: string, listener: (...args: unknown[]) => void) => void
  removeAllListeners: (event?: string) => void
}

/** `Dialect.notify` on PostgreSQL: `NOTIFY` inside a transaction is delivered when it commits, and dropped if it rolls back. */
export async function postgresNotify (db: Knex, channel: string): Promise<void> {
  await db.raw(`select pg_notify('${channel}', '')`)
}

/** `Dialect.listen` on PostgreSQL: `LISTEN` on a connection knex opens with the pool's settings, outside the pool. */
export async function postgresListen (knex: Knex, channel: string, on: { notification: () => void, lost: () => void }): Promise<() => Promise<void>> {
  const client = knexClient<ListeningConnection>(knex)
  const connection = await client.acquireRawConnection()
  connection.on('notification', () => { on.notification() })
  connection.on('error', () => { on.lost() })
  try {
    await connection.query(`LISTEN ${channel}`)
  } catch (error) {
    connection.removeAllListeners('notification')
    await client.destroyRawConnection(connection).catch(() => {})
    throw error
  }
  return async () => {
    connection.removeAllListeners('notification')
    // An error of the closing connection is nobody's to hear.
    connection.on('error', () => {})
    await client.destroyRawConnection(connection).catch(() => {})
  }
}
