import type { Knex } from 'knex'
import type { Statements } from './dialect.js'
import { dispose, isDisposed, knexClient, poolOption, reportQuery, type KnexClient } from './knex-internals.js'
import { inTransaction, lightTransaction, type TransactionControl } from './light-transaction.js'

/** The slice of a better-sqlite3 connection used here. */
interface Statement {
  readonly reader: boolean
  all: (...params: unknown[]) => unknown[]
  run: (...params: unknown[]) => unknown
}
export interface SqliteConnection {
  prepare: (sql: string) => Statement
  pragma: (source: string, options?: { simple: boolean }) => unknown
  close: () => unknown
  /** better-sqlite3's flag: a transaction is open (also after a failed COMMIT). */
  readonly inTransaction: boolean
}

/** Compiled statements kept per connection: enough for every query text the store issues, with room for IN lists. */
const STATEMENT_CACHE_SIZE = 1000

/**
 * Makes `connection.prepare` remember its statements (least recently used
 * out first). knex prepares every query anew, which costs more than running
 * a simple one; SQLite recompiles a kept statement by itself after a schema
 * change, so nothing here can go stale.
 */
export function keepPreparedStatements (connection: SqliteConnection): void {
  const prepare = connection.prepare.bind(connection)
  const cache = new Map<string, Statement>()
  connection.prepare = (sql: string): Statement => {
    let statement = cache.get(sql)
    if (statement !== undefined) {
      cache.delete(sql)
    } else {
      statement = prepare(sql)
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string)
    }
    cache.set(sql, statement)
    return statement
  }
}

/** The pool's one connection, kept by `afterCreate`, so an idle pool can be used without an asynchronous acquire. */
export interface ConnectionHolder { current: SqliteConnection | null }

/** Holders by the knex `pool` option object they were created with (knex keeps that object: `poolOption`). */
export const connectionHolders = new WeakMap<object, ConnectionHolder>()

/** The connection `afterCreate` kept for the pool of `knex` (null before the first one opened). */
export function heldConnection (knex: Knex): SqliteConnection | null {
  return heldBy(knexClient(knex))
}

function heldBy (client: KnexClient<SqliteConnection>): SqliteConnection | null {
  const option = poolOption(client)
  return option === undefined ? null : connectionHolders.get(option)?.current ?? null
}

function execute<Row> (connection: SqliteConnection, sql: string, bindings: unknown[]): Row[] {
  const statement = connection.prepare(sql)
  if (statement.reader) return statement.all(...bindings) as Row[]
  statement.run(...bindings)
  return []
}

/** The pool's connection when nobody holds it (no transaction or query in flight), to use synchronously. */
function idleConnection (client: KnexClient<SqliteConnection>): SqliteConnection | null {
  const pool = client.pool
  if (pool === undefined) return null
  const held = heldBy(client)
  const idle = pool.numUsed() === 0 && pool.numFree() === 1 && pool.numPendingAcquires() === 0 && pool.numPendingCreates() === 0
  return idle && held !== null && !isDisposed(held) ? held : null
}

/**
 * Runs `sql` as a kept prepared statement. better-sqlite3 is synchronous and
 * the pool holds one connection: when nobody holds it (no transaction or
 * query in flight) the statement runs at once on it; otherwise it waits for
 * the connection like any knex query, and inside a transaction it uses the
 * transaction's connection.
 */
export async function sqliteRun<Row> (db: Knex, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  const client = knexClient<SqliteConnection>(db)
  const values = bindings.map((value) => typeof value === 'boolean' ? Number(value) : value)
  reportQuery(client, sql, values)
  const idle = idleConnection(client)
  if (idle !== null) return execute<Row>(idle, sql, values)
  const connection = await client.acquireConnection()
  try {
    return execute<Row>(connection, sql, values)
  } finally {
    await client.releaseConnection(connection)
  }
}

/**
 * `Dialect.transaction` on SQLite: the pool's only connection, held for the
 * whole transaction, with its statements run synchronously. A connection
 * whose ROLLBACK failed would still be inside that transaction: the pool
 * drops it (and opens a new one) instead of handing it out again.
 */
export const sqliteTransactionControl: TransactionControl<SqliteConnection> = {
  run: (connection, sql) => { connection.prepare(sql).run() },
  stillOpen: (connection) => connection.inTransaction,
  discard: (connection, error) => { dispose(connection, error) }
}
export const sqliteTransaction = lightTransaction(sqliteTransactionControl)

/**
 * Runs the statements in one transaction: on an idle pool all at once,
 * synchronously (nothing can interleave), else in a light transaction (or the
 * open one, as a savepoint).
 */
export async function sqliteRunAll (db: Knex, statements: Statements): Promise<void> {
  const client = knexClient<SqliteConnection>(db)
  const idle = idleConnection(client)
  if (idle === null) {
    await inTransaction(db, sqliteTransaction, async (trx) => { for (const [sql, bindings] of statements) await sqliteRun(trx, sql, bindings) })
    return
  }
  reportQuery(client, 'begin', [])
  execute(idle, 'begin immediate', [])
  try {
    for (const [sql, bindings] of statements) {
      reportQuery(client, sql, bindings)
      execute(idle, sql, bindings.map((value) => typeof value === 'boolean' ? Number(value) : value))
    }
    execute(idle, 'commit', [])
  } catch (error) {
    execute(idle, 'rollback', [])
    throw error
  }
}
