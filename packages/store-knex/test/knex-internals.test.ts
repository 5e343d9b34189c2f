import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import knexFactory from 'knex'
import { builderMethodNames, connectionSettings, dispose, driverName, isDisposed, knexClient, poolOption, reportQuery, transactionClient } from '../src/dialects/knex-internals.js'
import { dialectOfKnex } from '../src/dialects/index.js'
import { heldConnection } from '../src/dialects/sqlite-statements.js'
import { testDialects } from '../src/testing.js'
import { testStore } from './test-store.js'

/**
 * The seam on knex's private client (`src/dialects/knex-internals.ts`): every
 * member the store relies on, as it relies on it. After a knex upgrade that
 * changes one, the failure names the member and the knex version.
 */

const knexVersion = (createRequire(import.meta.url)('knex/package.json') as { version: string }).version

/** Runs `check`; a failure says which private member of knex changed, in which version, and where the store uses it. */
async function relies (member: string, how: string, check: () => unknown): Promise<void> {
  try {
    await check()
  } catch (error) {
    throw new Error(`knex ${knexVersion}: ${member} no longer behaves as the store relies on (${how}). ` +
      'Adapt src/dialects/knex-internals.ts, or keep knex below this version (docs/architecture.md, "knex\'s private client"). ' +
      `Failure: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}

/** Rejects when `promise` takes longer than `ms` (a query waiting for a connection it will never get). */
async function within<T> (ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([promise, new Promise<never>((_resolve, reject) => { timer = setTimeout(() => { reject(new Error(`not within ${ms} ms: ${what}`)) }, ms) })])
  } finally {
    clearTimeout(timer)
  }
}

interface DriverConnection {
  /** pg */
  query?: (sql: string) => Promise<unknown>
  /** better-sqlite3 */
  prepare?: (sql: string) => { get: () => unknown }
  open?: boolean
}

/** Runs `select 1` through the driver itself. */
async function selectOne (connection: DriverConnection): Promise<void> {
  if (connection.prepare !== undefined) connection.prepare('select 1').get()
  else await connection.query!('select 1')
}

for (const dialect of testDialects()) {
  describe(`knex's private client, as the store uses it (knex ${knexVersion}, ${dialect})`, () => {
    it('client: the members the store calls are functions', async (t) => {
      const { store } = await testStore(t, dialect)
      const client = knexClient(store.knex) as unknown as Record<string, unknown>
      for (const member of ['acquireConnection', 'releaseConnection', 'acquireRawConnection', 'destroyRawConnection', 'queryBuilder', 'raw', 'ref', 'emit']) {
        await relies(`knex.client.${member}`, 'a function', () => { assert.equal(typeof client[member], 'function') })
      }
    })

    it('client.config: the driver\'s name, the connection settings and the very `pool` object knex was created with', async (t) => {
      const { store, url } = await testStore(t, dialect)
      await relies('knex.client.config.client', 'the driver\'s name, read by dialectOfKnex and by the migrations', () => {
        assert.equal(driverName(store.knex), dialect === 'postgres' ? 'pg' : 'better-sqlite3')
        assert.equal(dialectOfKnex(store.knex).name, dialect)
      })
      await relies('knex.client.config.connection', 'the connection settings, for the event stream\'s own LISTEN connection', () => {
        const settings = connectionSettings(store.knex) as { connectionString?: string, filename?: string }
        if (dialect === 'postgres') assert.equal(settings.connectionString, url)
        else assert.equal(`sqlite:${settings.filename}`, url)
      })
      await relies('knex.client.config.pool', 'the pool option object itself, not a copy (SQLite finds its kept connection by it)', async () => {
        const pool = { min: 0, max: 1 }
        const other = knexFactory({ ...store.dialect.knexConfig(url), pool })
        try {
          assert.equal(poolOption(knexClient(other)), pool)
        } finally {
          await other.destroy()
        }
        if (dialect === 'sqlite') {
          await store.knex.raw('select 1')
          assert.ok(heldConnection(store.knex) !== null, 'the store\'s SQLite pool finds the connection its afterCreate kept')
        }
      })
    })

    it('client.pool counts, and acquireConnection/releaseConnection take and give back a pooled connection', async (t) => {
      const { store } = await testStore(t, dialect)
      const client = knexClient<DriverConnection>(store.knex)
      await store.knex.raw('select 1')
      await relies('knex.client.pool (numUsed, numFree, numPendingAcquires, numPendingCreates)', 'tarn\'s counts of the pool', async () => {
        const pool = client.pool
        assert.ok(pool !== undefined)
        assert.equal(pool.numUsed(), 0)
        assert.ok(pool.numFree() >= 1)
        assert.equal(pool.numPendingAcquires(), 0)
        assert.equal(pool.numPendingCreates(), 0)
      })
      await relies('knex.client.acquireConnection / releaseConnection', 'a driver connection held until given back', async () => {
        const connection = await client.acquireConnection()
        try {
          assert.equal(client.pool?.numUsed(), 1)
          await selectOne(connection)
        } finally {
          await client.releaseConnection(connection)
        }
        assert.equal(client.pool?.numUsed(), 0)
      })
    })

    it('client.emit(\'query\') reaches knex.on(\'query\') listeners', async (t) => {
      const { store } = await testStore(t, dialect)
      const seen: Array<{ sql: string, bindings: unknown }> = []
      const listener = (query: { sql: string, bindings: unknown }): void => { seen.push({ sql: query.sql, bindings: query.bindings }) }
      store.knex.on('query', listener)
      t.after(() => { store.knex.off('query', listener) })
      await relies('knex.client.emit', 'a `query` event of the client is re-emitted on the knex instance', () => {
        reportQuery(knexClient(store.knex), 'select ?', [1])
        assert.deepEqual(seen, [{ sql: 'select ?', bindings: [1] }])
      })
    })

    it('a client derived with Object.create runs its builders and raw statements on the connection it hands out (the light transaction)', async (t) => {
      const { store } = await testStore(t, dialect)
      const root = knexClient<DriverConnection>(store.knex)
      const connection = await root.acquireConnection()
      try {
        let asked = 0
        const derived = transactionClient(root, async () => { asked++; return connection })
        if (connection.query !== undefined) await connection.query('create temporary table seam_probe (x integer)')
        await relies('knex.client.acquireConnection, called through `this` by query builders and raw statements', 'a builder of a derived client takes its connection from the derived client', async () => {
          const probe = dialect === 'postgres' ? 'seam_probe' : 'auth_revision'
          // On another connection the temporary table does not exist; SQLite's only connection is held here, so another would never come.
          await within(5000, 'a builder of the derived client to run', derived.queryBuilder().from(probe).count({ n: '*' }))
          await within(5000, 'a raw statement of the derived client to run', derived.raw(`select count(*) from ${probe}`))
          assert.equal(asked, 2)
          assert.equal(root.pool?.numUsed(), 1, 'the derived client gave nothing back to the pool')
        })
        await relies('knex.client.transacting', 'knex reads it on the client of a transaction', () => {
          assert.equal((derived as unknown as { transacting: unknown }).transacting, true)
        })
        await relies('knex.client.queryBuilder() (its prototype chain)', 'the query methods the light transaction\'s knex forwards (`trx.count(...)`, ...)', () => {
          const names = builderMethodNames(derived)
          for (const name of ['select', 'count', 'insert', 'update', 'delete', 'del', 'where', 'whereIn', 'from', 'table', 'first', 'max', 'increment', 'onConflict', 'returning']) {
            assert.ok(names.has(name), `query builders have ${name}()`)
          }
        })
      } finally {
        if (connection.query !== undefined) await connection.query('drop table if exists seam_probe')
        await root.releaseConnection(connection)
      }
    })

    it('a connection marked with __knex__disposed is dropped by the pool at its release, not handed out again', async (t) => {
      const { store } = await testStore(t, dialect)
      const client = knexClient<DriverConnection>(store.knex)
      const first = await client.acquireConnection()
      await relies('connection.__knex__disposed', 'the pool destroys a connection carrying it instead of reusing it', async () => {
        assert.equal(isDisposed(first), false)
        dispose(first, new Error('broken on purpose'))
        assert.equal(isDisposed(first), true)
        await client.releaseConnection(first)
        // Every connection the pool hands out now is another one, and works.
        const held = []
        for (let i = 0; i < (dialect === 'sqlite' ? 1 : 3); i++) held.push(await client.acquireConnection())
        try {
          for (const connection of held) {
            assert.notEqual(connection, first)
            await selectOne(connection)
          }
        } finally {
          for (const connection of held) await client.releaseConnection(connection)
        }
        if (dialect === 'sqlite') assert.notEqual(heldConnection(store.knex), first, 'SQLite\'s kept connection is the new one')
      })
    })

    it('acquireRawConnection opens a connection outside the pool, destroyRawConnection closes it (the jobs\' LISTEN connection)', async (t) => {
      const { store } = await testStore(t, dialect)
      const client = knexClient<DriverConnection>(store.knex)
      await store.knex.raw('select 1')
      await relies('knex.client.acquireRawConnection / destroyRawConnection', 'a driver connection the pool does not count, closed on demand', async () => {
        const used = client.pool?.numUsed()
        const free = client.pool?.numFree()
        const raw = await client.acquireRawConnection()
        await selectOne(raw)
        assert.equal(client.pool?.numUsed(), used)
        assert.equal(client.pool?.numFree(), free)
        await client.destroyRawConnection(raw)
        if (dialect === 'sqlite') assert.equal(raw.open, false)
        else await assert.rejects(selectOne(raw))
      })
    })
  })
}
