import type { Knex } from 'knex'
import type { Statements } from './dialect.js'
import { dispose, knexClient, reportQuery } from './knex-internals.js'
import { inTransaction, lightTransaction, type TransactionControl } from './light-transaction.js'

interface PgConnection {
  query: ((config: { name: string, text: string, values: unknown[] }) => Promise<{ rows: unknown[] }>) & ((text: string) => Promise<unknown>)
}

/** `?` -> `$n`, and a statement name per text: PostgreSQL parses and plans each once per connection. */
const statements = new Map<string, { name: string, text: string }>()

function named (sql: string): { name: string, text: string } {
  let statement = statements.get(sql)
  if (statement === undefined) {
    let n = 0
    statement = { name: `helpdesk_${statements.size + 1}`, text: sql.replace(/\?/g, () => `$${++n}`) }
    statements.set(sql, statement)
  }
  return statement
}

/**
 * Runs `sql` as a named prepared statement on a pooled connection (or the
 * transaction's). Only for the store's fixed hot statements: every distinct
 * text stays prepared on each connection for its lifetime.
 */
export async function postgresRun<Row> (db: Knex, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  const client = knexClient<PgConnection>(db)
  const values = [...bindings]
  reportQuery(client, sql, values)
  const connection = await client.acquireConnection()
  try {
    const result = await connection.query({ ...named(sql), values })
    return result.rows as Row[]
  } finally {
    await client.releaseConnection(connection)
  }
}

/**
 * `Dialect.transaction` on PostgreSQL: a pooled connection held for the
 * whole transaction. ROLLBACK is always sent after a failure (outside a
 * transaction PostgreSQL only warns); a connection on which it failed (the
 * server gone, the link broken) is dropped by the pool, not reused.
 */
export const postgresTransactionControl: TransactionControl<PgConnection> = {
  run: async (connection, sql) => { await connection.query(sql) },
  stillOpen: () => true,
  discard: (connection, error) => { dispose(connection, error) }
}
export const postgresTransaction = lightTransaction(postgresTransactionControl)

/** Runs the statements in one transaction (or the open one, as a savepoint). */
export async function postgresRunAll (db: Knex, statements: Statements): Promise<void> {
  await inTransaction(db, postgresTransaction, async (trx) => { for (const [sql, bindings] of statements) await postgresRun(trx, sql, bindings) })
}
