import type { Knex } from 'knex'
import { builderMethodNames, knexClient, reportQuery, transactionClient, type KnexClient } from './knex-internals.js'

/** How a dialect runs a transaction's own statements on one of its connections. */
export interface TransactionControl<C> {
  /** Runs BEGIN, COMMIT, ROLLBACK or a savepoint statement (synchronously where the driver can). */
  run: (connection: C, sql: string) => void | Promise<void>
  /** Whether a failed transaction still needs its ROLLBACK (not once a failed COMMIT ended it). */
  stillOpen: (connection: C) => boolean
  /** A connection whose ROLLBACK failed is in an unknown state: it must not go back to the pool as it is. */
  discard: (connection: C, error: unknown) => void
}

/** Runs one statement of the transaction's own, reported like any query. */
function control<C> (client: KnexClient<C>, how: TransactionControl<C>, connection: C, sql: string): void | Promise<void> {
  reportQuery(client, sql, [])
  return how.run(connection, sql)
}

/**
 * `Dialect.transaction` without knex's transaction object: that object (a
 * new knex instance with its methods, event wiring and promise queue) costs
 * ~70 µs of CPU per transaction, more than the statements of a new comment
 * besides its COMMIT. A connection is taken from the pool for the whole
 * transaction, as knex does, and `fn` gets a knex whose queries run on it
 * (`transactionKnex`). A failure rolls everything back and rethrows `fn`'s
 * own error, also when COMMIT itself failed; a connection whose ROLLBACK
 * failed is discarded, not reused.
 */
export function lightTransaction<C> (how: TransactionControl<C>): <T>(knex: Knex, fn: (trx: Knex) => Promise<T>) => Promise<T> {
  return async <T>(knex: Knex, fn: (trx: Knex) => Promise<T>): Promise<T> => {
    const client = knexClient<C>(knex)
    const connection = await client.acquireConnection()
    const bound = transactionKnex(knex, client, how, connection)
    try {
      await control(client, how, connection, 'begin')
      try {
        const result = await fn(bound.knex)
        await control(client, how, connection, 'commit')
        bound.settle(null)
        return result
      } catch (error) {
        try {
          if (how.stillOpen(connection)) await control(client, how, connection, 'rollback')
        } catch (rollbackError) {
          how.discard(connection, rollbackError)
        } finally {
          bound.settle(error)
        }
        throw error
      }
    } finally {
      bound.close()
      await client.releaseConnection(connection)
    }
  }
}

/**
 * Runs `fn` in `transaction` (a dialect's light one) on the pool, or as a
 * savepoint when `db` is already a transaction.
 */
export async function inTransaction<T> (db: Knex, transaction: <R>(knex: Knex, fn: (trx: Knex) => Promise<R>) => Promise<R>, fn: (trx: Knex) => Promise<T>): Promise<T> {
  return (db as { isTransaction?: boolean }).isTransaction === true ? await db.transaction(fn) : await transaction(db, fn)
}

/**
 * A knex for the open transaction: its builders, raw statements and
 * `Dialect.run` calls use `connection` (its client hands out that
 * connection and never returns it to the pool); `transaction` nests as a
 * savepoint; `executionPromise` settles once the transaction has committed
 * (or rejects once it rolled back), as on a knex transaction. Closed after
 * the transaction, a query on it fails instead of running outside it.
 */
function transactionKnex<C> (knex: Knex, root: KnexClient<C>, how: TransactionControl<C>, connection: C): { knex: Knex, settle: (error: unknown) => void, close: () => void } {
  let open = true
  let depth = 0
  const connectionOf = async (): Promise<C> => {
    if (!open) throw new Error('Transaction query already complete: the transaction this query was built on has ended.')
    return connection
  }
  // Everything else (dialect, config, events: emitted on the pool's client's listeners) as the pool's client has it.
  const client = transactionClient(root, connectionOf)
  let settle: (error: unknown) => void = () => {}
  const executionPromise = new Promise<void>((resolve, reject) => {
    settle = (error) => { if (error === null) resolve(); else reject(error) }
  })
  // A rollback is its caller's error to report; this promise only tells listeners (see the in-process notifier).
  executionPromise.catch(() => {})
  const nested = async <R>(inner: (trx: Knex) => Promise<R>): Promise<R> => {
    if (typeof inner !== 'function') throw new TypeError('transaction() inside a transaction takes a function')
    // Named by depth, not by a running number: every text stays one of a few the connection keeps prepared
    // (a new name per savepoint would push the store's statements out of that cache).
    const name = `helpdesk_savepoint_${++depth}`
    try {
      await control(root, how, connection, `savepoint ${name}`)
      let result: R
      try {
        result = await inner(proxy)
      } catch (error) {
        await control(root, how, connection, `rollback to ${name}`)
        await control(root, how, connection, `release ${name}`)
        throw error
      }
      await control(root, how, connection, `release ${name}`)
      return result
    } finally {
      depth--
    }
  }
  const own: Record<string | symbol, unknown> = {
    client,
    isTransaction: true,
    executionPromise,
    raw: (...args: unknown[]) => client.raw(...args),
    ref: (...args: unknown[]) => client.ref(...args),
    queryBuilder: () => client.queryBuilder(),
    transaction: nested
  }
  const builderMethod = (name: string | symbol): boolean => typeof name === 'string' && builderMethodNames(client).has(name)
  const proxy = new Proxy(knex, {
    // `trx('table')`: a builder on the transaction's client.
    apply: (_target, _this, args: unknown[]) => {
      const builder = client.queryBuilder()
      return args.length > 0 ? builder.table(args[0] as string) : builder
    },
    get: (target, name) => {
      if (name in own) return own[name]
      // `trx.count(...)`, `trx.select(...)`, ...: started on a builder of the transaction's client.
      if (builderMethod(name)) return (...args: unknown[]) => (client.queryBuilder() as unknown as Record<string, (...a: unknown[]) => unknown>)[name as string]?.(...args)
      return Reflect.get(target, name)
    }
  })
  return { knex: proxy, settle: (error) => { settle(error) }, close: () => { open = false } }
}
