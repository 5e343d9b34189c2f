import type { Knex } from 'knex'
import type pg from 'pg'
import type { EventNotifierListener } from '@helpdesk/core'
import { connectionSettings } from '../dialects/knex-internals.js'
import type { StoreEventNotifier } from './store-event-notifier.js'

/** The one channel every instance listens on; payloads are comma-separated event-log ids. */
export const EVENT_CHANNEL = 'helpdesk_events'
/** Presence changes (collision detection): payloads are comma-separated ticket ids; never in the event log. */
export const PRESENCE_CHANNEL = 'helpdesk_presence'
const RECONNECT_MIN_MS = 200
const RECONNECT_MAX_MS = 5000

/**
 * PostgreSQL `LISTEN/NOTIFY`: a trigger on the event log (migration
 * `0017-postgres-event-announce`) issues `pg_notify` with the ids of each
 * insert, inside the writing transaction, so PostgreSQL delivers it on commit
 * (and drops it on rollback) to every instance; `announce` has nothing left
 * to send. Listening takes one dedicated connection per
 * process (outside the pool), opened on first use and reopened with backoff
 * when lost; listeners are then told to resync from the log.
 */
export function createPostgresNotifier (connection: pg.ClientConfig): StoreEventNotifier {
  const listeners = new Set<EventNotifierListener>()
  let client: pg.Client | null = null
  let connecting: Promise<void> | null = null
  let retry: NodeJS.Timeout | null = null
  let delay = RECONNECT_MIN_MS

  const dispatch = (payload: string | undefined, presence: boolean): void => {
    const ids = (payload ?? '').split(',').map(Number).filter((id) => Number.isSafeInteger(id) && id > 0)
    if (ids.length === 0) return
    for (const listener of listeners) {
      if (presence) listener.presence?.(ids)
      else listener.ids(ids)
    }
  }

  const scheduleReconnect = (): void => {
    if (listeners.size === 0 || retry !== null) return
    retry = setTimeout(() => {
      retry = null
      connect().then(() => {
        for (const listener of listeners) listener.resync()
      }, () => { scheduleReconnect() })
    }, delay)
    retry.unref()
    delay = Math.min(delay * 2, RECONNECT_MAX_MS)
  }

  const connect = async (): Promise<void> => {
    if (client !== null) return
    if (connecting !== null) return await connecting
    connecting = (async () => {
      // pg loads here, not with the store: a SQLite server never needs it.
      const { default: { Client } } = await import('pg')
      const next = new Client(connection)
      const lost = (): void => {
        if (client !== next) return
        client = null
        next.removeAllListeners('notification')
        next.end().catch(() => {})
        scheduleReconnect()
      }
      next.on('error', lost)
      next.on('end', lost)
      next.on('notification', (message) => {
        if (message.channel === EVENT_CHANNEL) dispatch(message.payload, false)
        else if (message.channel === PRESENCE_CHANNEL) dispatch(message.payload, true)
      })
      try {
        await next.connect()
        // Both channels in one round trip (a simple query may hold several statements).
        await next.query(`LISTEN ${EVENT_CHANNEL}; LISTEN ${PRESENCE_CHANNEL}`)
      } catch (error) {
        next.removeAllListeners('end')
        await next.end().catch(() => {})
        throw error
      }
      client = next
      delay = RECONNECT_MIN_MS
    })()
    try {
      await connecting
    } finally {
      connecting = null
    }
  }

  const disconnect = async (): Promise<void> => {
    if (retry !== null) clearTimeout(retry)
    retry = null
    await connecting?.catch(() => {})
    const current = client
    client = null
    if (current !== null) await current.end().catch(() => {})
  }

  return {
    async listen (listener) {
      listeners.add(listener)
      try {
        if (client === null) await connect()
      } catch (error) {
        listeners.delete(listener)
        throw error
      }
      return async () => {
        listeners.delete(listener)
        if (listeners.size === 0) await disconnect()
      }
    },
    async announce () {
      // The event log's trigger has announced them, in the same transaction.
    },
    async announcePresence (db, ticketIds) {
      // On `db`: inside a transaction PostgreSQL delivers it on commit, to every instance (this one too).
      if (ticketIds.length > 0) await db.raw('select pg_notify(?, ?)', [PRESENCE_CHANNEL, ticketIds.join(',')])
    }
  }
}

/** The pg connection settings of a knex instance, for a dedicated listening connection. */
export function listenConnectionOf (knex: Knex): pg.ClientConfig {
  const connection = connectionSettings(knex)
  if (typeof connection === 'string') return { connectionString: connection }
  return { ...(connection as pg.ClientConfig) }
}
