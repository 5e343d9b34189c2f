import { createRequire } from 'node:module'
import { UnavailableError, ValidationError, type HelpdeskError } from '@helpdesk/core'
import { runAllWith, type Dialect } from './dialect.js'
import { postgresFullText } from './postgres-full-text.js'
import { postgresCountTriggers } from './postgres-counts.js'
import { postgresRun, postgresRunAll, postgresTransaction } from './postgres-statements.js'
import { postgresListen, postgresNotify } from './postgres-notifications.js'
import { createPostgresNotifier, listenConnectionOf } from '../notifiers/postgres-notifier.js'
import { fieldForIndex, uniqueMessage } from './unique-fields.js'

const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184
const INT8 = 20
const NUMERIC = 1700

/** The pg driver, loaded on first use: a SQLite deployment never pays for it at startup. */
const require = createRequire(import.meta.url)
let driver: typeof import('pg') | undefined
const pg = (): typeof import('pg') => { driver ??= require('pg') as typeof import('pg'); return driver }

/** Timestamps stay `YYYY-MM-DD HH:MM:SS` strings and counts stay numbers, as on SQLite. */
const types = {
  getTypeParser (oid: number, format?: string): (value: string) => unknown {
    if (oid === TIMESTAMP || oid === TIMESTAMPTZ) return (v) => v.slice(0, 19)
    if (oid === INT8 || oid === NUMERIC) return (v) => Number(v)
    return pg().types.getTypeParser(oid, format as 'text')
  }
}

const unavailableCodes = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006', '53300',
  // A deadlock or serialization failure rolled the transaction back: the client may simply retry.
  '40P01', '40001'
])

export const postgresDialect: Dialect = {
  name: 'postgres',
  fullText: postgresFullText,
  countTriggers: postgresCountTriggers,
  knexConfig (url) {
    return {
      client: 'pg',
      connection: { connectionString: url, types, connectionTimeoutMillis: 5000 } as never,
      pool: { min: 0, max: Number(process.env.HELPDESK_DB_POOL ?? 10), acquireTimeoutMillis: 10000 },
      acquireConnectionTimeout: 10000
    }
  },
  // translate, not lower(): lower() follows the database's locale.
  asciiLower: (expr) => `translate(${expr}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`,
  // The text column cast to jsonb fails the statement on one row that is not JSON (no safe cast before 16).
  jsonText: () => null,
  whereContains (qb, column, pattern) {
    qb.whereRaw('?? ilike ?', [column, pattern])
  },
  run: postgresRun,
  transaction: postgresTransaction,
  runAll: runAllWith(postgresRun, postgresRunAll),
  unindexedColumn: '??',
  plansFromStatistics: true,
  statementsAreRoundTrips: true,
  rowsTable (columns, rows) {
    const arrays = columns.map((c) => `?::${c.type}[]`).join(', ')
    return { sql: `unnest(${arrays}) as v(${columns.map((c) => `"${c.name}"`).join(', ')})`, bindings: columns.map((_, i) => rows.map((row) => row[i])) }
  },
  inIds (column, ids, type = 'integer') {
    return { sql: `${column} = any(?::${type}[])`, bindings: [[...ids]] }
  },
  whereIdIn (qb, column, ids) {
    qb.whereRaw('?? = any(?::integer[])', [column, [...ids]])
  },
  inTexts (column, values) {
    return { sql: `${column} = any(?::text[])`, bindings: [[...values]] }
  },
  skipLockedRows: ' for update skip locked',
  notify: postgresNotify,
  listen: postgresListen,
  eventNotifier: (knex) => createPostgresNotifier(listenConnectionOf(knex)),
  translateError (error): HelpdeskError | null {
    const e = error as { code?: string, constraint?: string, message?: string, name?: string }
    if (e.code === '23505') {
      const field = fieldForIndex(e.constraint) ?? e.constraint?.replace(/^\w+?_(\w+)_(unique|key|pkey)$/, '$1') ?? 'id'
      return ValidationError.field(field, uniqueMessage(field))
    }
    if (e.code === '23503') return new ValidationError({ id: ['A related record does not exist or is still in use.'] })
    if (e.code === '22P02' || e.code === '22003') return new ValidationError({ id: ['A value is out of range or malformed.'] })
    // Text PostgreSQL cannot store (a NUL character) from a door that did not refuse it first (the HTTP API does, per field).
    if (e.code === '22021' || e.code === '22P05') return new ValidationError({ text: ['A value holds a character that cannot be stored.'] })
    // Any other data exception (class 22: a malformed datetime, a division by zero, a string too long...) is the input's fault.
    if (e.code?.startsWith('22') === true) return new ValidationError({ value: ['A value is malformed or out of range for its field.'] })
    if ((e.code !== undefined && unavailableCodes.has(e.code)) || e.name === 'KnexTimeoutError' ||
      /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(e.message ?? '')) {
      return new UnavailableError()
    }
    return null
  }
}
