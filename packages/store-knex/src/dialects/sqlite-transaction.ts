import type { Knex } from 'knex'
import type { SqliteConnection } from './sqlite-statements.js'

/** The slice of knex's client used here. */
interface Client {
  acquireConnection: () => Promise<SqliteConnection>
  releaseConnection: (connection: SqliteConnection) => Promise<unknown>
  queryBuilder: () => Knex.QueryBuilder
  raw: (...args: unknown[]) => Knex.Raw
  ref: (...args: unknown[]) => Knex.Ref<string, Record<string, string>>
  emit: (event: string, data: unknown) => boolean
}

/** better-sqlite3's flag: a transaction is open on the connection (also after a failed COMMIT). */
type Connection = SqliteConnection & { readonly inTransaction: boolean }

/** Runs one statement of the transaction's own (BEGIN, COMMIT, savepoints), reported like any query. */
function control (client: Client, connection: Connection, sql: string): void {
  client.emit('query', { sql, bindings: [], method: 'raw' })
  connection.prepare(sql).run()
}

let builderMethods: Set<string> | undefined

/** The names of a query builder's methods (`select`, `count`, `insert`, ...), read once. */
function builderMethodsOf (client: Client): Set<string> {
  if (builderMethods === undefined) {
    const names = new Set<string>()
    for (let proto: object | null = Object.getPrototypeOf(client.queryBuilder()); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function') names.add(name)
      }
    }
    builderMethods = names
  }
  return builderMethods
}

/**
 * Runs `fn` in one transaction on the pool's only connection, as knex's
 * `transaction` does, without building knex's transaction object: that
 * object (a new knex instance with its methods, event wiring and promise
 * queue) cost ~70 µs of CPU per transaction, more than the statements of a
 * new comment besides its COMMIT. The connection is taken from the pool for
 * the whole transaction, so every other query waits for it as it would for
 * a knex transaction; `fn` gets a knex whose queries run on that connection
 * (`transactionKnex`). A failure rolls everything back and rethrows, also
 * when COMMIT itself fails.
 */
export async function sqliteTransaction<T> (knex: Knex, fn: (trx: Knex) => Promise<T>): Promise<T> {
  const client = knex.client as unknown as Client
  const connection = await client.acquireConnection() as Connection
  const bound = transactionKnex(knex, client, connection)
  try {
    control(client, connection, 'begin')
    try {
      const result = await fn(bound.knex)
      control(client, connection, 'commit')
      bound.settle(null)
      return result
    } catch (error) {
      try {
        if (connection.inTransaction) control(client, connection, 'rollback')
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

/**
 * A knex for the open transaction: its builders, raw statements and
 * `Dialect.run` calls use `connection` (its client hands out that
 * connection and never returns it to the pool); `transaction` nests as a
 * savepoint; `executionPromise` settles once the transaction has committed
 * (or rejects once it rolled back), as on a knex transaction. Closed after
 * the transaction, a query on it fails instead of running outside it.
 */
function transactionKnex (knex: Knex, root: Client, connection: Connection): { knex: Knex, settle: (error: unknown) => void, close: () => void } {
  let open = true
  let depth = 0
  const connectionOf = async (): Promise<SqliteConnection> => {
    if (!open) throw new Error('Transaction query already complete: the transaction this query was built on has ended.')
    return connection
  }
  // Everything else (dialect, config, events: emitted on the pool's client's listeners) as the pool's client has it.
  const client = Object.create(root as object, {
    acquireConnection: { value: connectionOf },
    releaseConnection: { value: async () => {} },
    transacting: { value: true }
  }) as Client
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
    control(root, connection, `savepoint ${name}`)
    try {
      const result = await inner(proxy)
      control(root, connection, `release ${name}`)
      return result
    } catch (error) {
      control(root, connection, `rollback to ${name}`)
      control(root, connection, `release ${name}`)
      throw error
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
  const builderMethod = (name: string | symbol): boolean => typeof name === 'string' && builderMethodsOf(client).has(name)
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
