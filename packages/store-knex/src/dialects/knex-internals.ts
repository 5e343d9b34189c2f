import type { Knex } from 'knex'

/**
 * knex's private client API, in one place. The store's hot paths (the light
 * transactions, `Dialect.run`, SQLite's synchronous fast path) and its
 * `LISTEN` connections work below knex's public API: they take connections
 * from knex's pool themselves, hand a query builder a connection of their
 * choosing, and tell the pool to drop a broken connection. None of that is
 * documented, so a knex release may change it without notice. Every such use
 * goes through this module, and `test/knex-internals.test.ts` checks each
 * member named here, on both databases: after a knex upgrade that breaks one,
 * it fails naming the member and the knex version (docs/architecture.md,
 * "knex's private client").
 */

/** The counts of knex's pool (a tarn pool) read here. */
export interface PoolCounts {
  numUsed: () => number
  numFree: () => number
  numPendingAcquires: () => number
  numPendingCreates: () => number
}

/** The members of `knex.client` (a knex `Client`) the store relies on. */
export interface KnexClient<C> {
  /**
   * Takes a connection from the pool, waiting for one. A query builder of
   * this client gets its connection here, through `this`: a client derived
   * from it (`transactionClient`) runs its builders on the connection it
   * hands out.
   */
  acquireConnection: () => Promise<C>
  /** Gives a connection back to the pool; one marked disposed (`dispose`) is destroyed instead, and the pool opens a new one. */
  releaseConnection: (connection: C) => Promise<unknown>
  /** Opens a driver connection outside the pool (with the pool's settings). */
  acquireRawConnection: () => Promise<C>
  /** Closes a connection `acquireRawConnection` opened. */
  destroyRawConnection: (connection: C) => Promise<unknown>
  queryBuilder: () => Knex.QueryBuilder
  raw: (...args: unknown[]) => Knex.Raw
  ref: (...args: unknown[]) => Knex.Ref<string, Record<string, string>>
  /** knex re-emits the client's `query` events on the knex instance (`knex.on('query')`). */
  emit: (event: string, data: unknown) => boolean
  /** The pool (a tarn pool), undefined once destroyed. */
  readonly pool?: PoolCounts
  /** The configuration knex was created with: `client` (the driver's name), `connection`, and `pool` (the very object passed). */
  readonly config: Knex.Config
}

/** The client of `knex` (the pool's, or an open transaction's), typed with what the store relies on. */
export function knexClient<C> (knex: Knex): KnexClient<C> {
  return knex.client as unknown as KnexClient<C>
}

/** Reports a statement the store ran itself as knex reports its own (`knex.on('query')`: logging, statement counts). */
export function reportQuery<C> (client: KnexClient<C>, sql: string, bindings: readonly unknown[]): void {
  client.emit('query', { sql, bindings, method: 'raw' })
}

/** The marker knex sets on a connection its pool must drop (a driver error on it) and checks at release. */
interface Disposable { __knex__disposed?: unknown }

/** Marks `connection` so that the pool destroys it at its release instead of handing it out again. */
export function dispose (connection: unknown, reason: unknown): void {
  (connection as Disposable).__knex__disposed = reason
}

/** Whether `connection` was marked to be dropped (by knex after a driver error, or by `dispose`). */
export function isDisposed (connection: unknown): boolean {
  return (connection as Disposable).__knex__disposed !== undefined
}

/**
 * A client whose builders, raw statements and `Dialect.run` calls all use
 * `connectionOf()`'s connection, never given back to the pool, and that knex
 * treats as a transaction's (`transacting`). Everything else (dialect,
 * config, event listeners) is `root`'s, through the prototype.
 */
export function transactionClient<C> (root: KnexClient<C>, connectionOf: () => Promise<C>): KnexClient<C> {
  return Object.create(root as object, {
    acquireConnection: { value: connectionOf },
    releaseConnection: { value: async () => {} },
    transacting: { value: true }
  }) as KnexClient<C>
}

let builderMethods: Set<string> | undefined

/** The names of a query builder's methods (`select`, `count`, `insert`, ...), read once from its prototype chain. */
export function builderMethodNames<C> (client: KnexClient<C>): ReadonlySet<string> {
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

/** The `pool` option object the client's knex was created with (knex keeps that very object), to find what `afterCreate` stored for it. */
export function poolOption<C> (client: KnexClient<C>): object | undefined {
  return client.config?.pool
}

/** The driver's name knex was created with (`pg`, `better-sqlite3`, ...). */
export function driverName (knex: Knex): string {
  return String(knexClient(knex).config?.client ?? '')
}

/** The connection settings knex was created with, for a connection of the store's own. */
export function connectionSettings (knex: Knex): Knex.Config['connection'] {
  return knexClient(knex).config.connection
}
