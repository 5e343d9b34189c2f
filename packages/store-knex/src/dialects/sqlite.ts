import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { UnavailableError, ValidationError, type HelpdeskError } from '@helpdesk/core'
import { runAllWith, type Dialect } from './dialect.js'
import { sqliteFullText } from './sqlite-full-text.js'
import { sqliteCountTriggers } from './sqlite-counts.js'
import { checkpointInBackground } from './sqlite-checkpointer.js'
import { connectionHolders, keepPreparedStatements, sqliteRun, sqliteRunAll, sqliteTransaction, type ConnectionHolder, type SqliteConnection } from './sqlite-statements.js'
import { fieldForIndex, uniqueMessage } from './unique-fields.js'
import { createInProcessNotifier } from '../notifiers/in-process-notifier.js'

/** `sqlite:PATH` or `sqlite::memory:`. */
export function sqlitePath (url: string): string {
  const path = url.replace(/^sqlite:(\/\/)?/, '')
  return path === '' ? './helpdesk.sqlite' : path
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  fullText: sqliteFullText,
  countTriggers: sqliteCountTriggers,
  knexConfig (url) {
    const filename = sqlitePath(url)
    if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true })
    const holder: ConnectionHolder = { current: null }
    const pool = {
      min: 1,
      max: 1,
      afterCreate (conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        try {
          const journal = conn.pragma('journal_mode = WAL', { simple: true })
          conn.pragma('foreign_keys = ON')
          conn.pragma('synchronous = NORMAL')
          conn.pragma('busy_timeout = 5000')
          if (journal === 'wal') checkpointInBackground(conn, filename)
          keepPreparedStatements(conn)
          holder.current = conn
          done(null, conn)
        } catch (error) {
          done(error as Error, conn)
        }
      }
    }
    connectionHolders.set(pool, holder)
    return { client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true, pool }
  },
  run: sqliteRun,
  transaction: sqliteTransaction,
  runAll: runAllWith(sqliteRun, sqliteRunAll),
  unindexedColumn: '+??',
  plansFromStatistics: false,
  statementsAreRoundTrips: false,
  rowsTable (columns, rows) {
    const names = columns.map((c, i) => `column${i + 1} as "${c.name}"`).join(', ')
    const values = rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')
    return { sql: `(select ${names} from (values ${values})) as v`, bindings: rows.flat() }
  },
  inIds (column, ids) {
    return { sql: `${column} in (select value from json_each(?))`, bindings: [JSON.stringify(ids)] }
  },
  whereIdIn (qb, column, ids) {
    qb.whereRaw('?? in (select value from json_each(?))', [column, JSON.stringify(ids)])
  },
  inTexts (column, values) {
    return { sql: `${column} in (select value from json_each(?))`, bindings: [JSON.stringify(values)] }
  },
  skipLockedRows: '',
  notify: async () => {},
  listen: () => null,
  eventNotifier: () => createInProcessNotifier(),
  // SQLite's built-in lower() folds ASCII only.
  asciiLower: (expr) => `lower(${expr})`,
  jsonText: (column, path) => `(case when json_valid(${column}) then json_extract(${column}, '$${path.map((key) => `."${key}"`).join('')}') end)`,
  whereContains (qb, column, pattern) {
    // SQLite's LIKE is case-insensitive for ASCII; lower() extends it to the rest.
    qb.whereRaw('lower(??) like lower(?) escape \'\\\'', [column, pattern])
  },
  translateError (error): HelpdeskError | null {
    const e = error as { code?: string, message?: string }
    if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      const index = /index '([^']+)'/.exec(e.message ?? '')?.[1]
      const column = /UNIQUE constraint failed: \w+\.(\w+)/.exec(e.message ?? '')?.[1]
      const field = fieldForIndex(index) ?? column ?? 'id'
      return ValidationError.field(field, uniqueMessage(field))
    }
    if (e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      return new ValidationError({ id: ['A related record does not exist or is still in use.'] })
    }
    if (e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_CANTOPEN' || e.code === 'SQLITE_IOERR') {
      return new UnavailableError()
    }
    return null
  }
}
