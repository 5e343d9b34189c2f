import type { Knex } from 'knex'
import { FOLDS_TO_ASCII, type HelpdeskError } from '@helpdesk/core'
import type { StoreEventNotifier } from '../notifiers/store-event-notifier.js'
import type { CountTriggers } from './count-table.js'
import type { FullTextSearch } from './full-text.js'

/**
 * Everything that differs between SQLite and PostgreSQL lives behind this
 * interface; repositories never test which database they run on.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres'
  /** The knex configuration for a database URL of this dialect. */
  knexConfig(url: string): Knex.Config
  /** Case-insensitive substring match of `column` against `value` (already escaped for LIKE). */
  whereContains(qb: Knex.QueryBuilder, column: string, pattern: string): void
  /** The SQL expression `expr` with its ASCII letters (only those: whatever the database's locale) lowercased. */
  asciiLower(expr: string): string
  /**
   * The string at `path` (object keys, each `[0-9A-Za-z_]+`) of the JSON text in
   * `column`, null where the text is not JSON or has nothing there; or null
   * (no expression) where the database cannot read it without failing the
   * statement on a row that is not JSON (PostgreSQL before 16).
   */
  jsonText(column: string, path: readonly string[]): string | null
  /**
   * A column reference (`??` placeholder) that the planner will not drive an
   * index scan from, so the query's sort index drives it instead: SQLite's
   * unary `+` (it plans without statistics); PostgreSQL, which plans from
   * statistics, gets the column as is.
   */
  readonly unindexedColumn: string
  /**
   * Whether the planner chooses between a filter's index and the sort's from
   * statistics (PostgreSQL). Where it does not (SQLite), the ticket list makes
   * that choice itself from the counts (`filtersForSortScan`).
   */
  readonly plansFromStatistics: boolean
  /**
   * Whether each statement is a round trip to another process (PostgreSQL),
   * so that saving statements is worth some work: a turn's reads by id are
   * gathered into one (`PointReads`), a search's independent reads are sent
   * as one. SQLite runs a statement in-process and synchronously, in
   * microseconds, and gains nothing from either.
   */
  readonly statementsAreRoundTrips: boolean
  /**
   * A derived table `v` of `rows` (one value per column, in order) for `FROM`:
   * PostgreSQL binds one array per column (`unnest`), so the statement's text
   * does not vary with the number of rows; SQLite lists the rows (`VALUES`).
   */
  rowsTable(columns: ReadonlyArray<{ name: string, type: 'integer' | 'bigint' | 'timestamp' | 'text' }>, rows: ReadonlyArray<readonly unknown[]>): { sql: string, bindings: unknown[] }
  /** `column IN (ids)` as SQL for `run`: one bound value, the same text whatever the list (`bigint` for a 64-bit id column). */
  inIds(column: string, ids: readonly number[], type?: 'integer' | 'bigint'): { sql: string, bindings: unknown[] }
  /** `column IN (ids)` with the list bound as one value, so the statement's text (and its prepared plan) does not vary with the list. */
  whereIdIn(qb: Knex.QueryBuilder, column: string, ids: readonly number[]): void
  /** `column IN (values)` for text values, as SQL for `run`: one bound value, the same text whatever the list. */
  inTexts(column: string, values: readonly string[]): { sql: string, bindings: unknown[] }
  /**
   * What ends the `select` of the rows a claimer takes (the job claim), so
   * that concurrent claimers skip each other's rows instead of waiting for
   * them: ` for update skip locked` on PostgreSQL; nothing on SQLite, where
   * one writer runs at a time.
   */
  readonly skipLockedRows: string
  /**
   * Tells every instance listening on `channel` (`listen`), when `db`'s
   * transaction commits (at once outside one): `pg_notify` on PostgreSQL.
   * Nothing on SQLite, where the store tells the listeners of its own
   * process itself.
   */
  notify(db: Knex, channel: string): Promise<void>
  /**
   * Listens on `channel` (`notify`) on a connection of its own, outside the
   * pool: `notification` for each one, `lost` once the connection broke
   * (nothing is heard after it). Resolves once listening, to the function
   * that stops and closes the connection. Null where notifications never
   * leave the process (SQLite).
   */
  listen(knex: Knex, channel: string, on: { notification: () => void, lost: () => void }): Promise<() => Promise<void>> | null
  /** The live event stream's signal for a store on `knex`: `LISTEN/NOTIFY` across instances, or within the process. */
  eventNotifier(knex: Knex): StoreEventNotifier
  /** A driver error as a domain error (unique violation -> 422 on its field, lost connection -> 503), or null. */
  translateError(error: unknown): HelpdeskError | null
  /** Full-text indexes (FTS5 / tsvector + GIN) and substring indexes (pg_trgm). */
  readonly fullText: FullTextSearch
  /** Tables of counts kept exact by triggers (list totals without counting rows). */
  readonly countTriggers: CountTriggers
  /**
   * Runs one statement with `?` placeholders on `db` (the pool, or an open
   * transaction) as a prepared statement the connection keeps, skipping
   * knex's query builder: for the store's hottest fixed queries. Returns the
   * rows (none for writes) and emits knex's `query` event like any query.
   */
  run<Row = Record<string, unknown>>(db: Knex, sql: string, bindings: readonly unknown[]): Promise<Row[]>
  /**
   * Runs `fn` in a transaction on `knex` (the pool): commits what it wrote
   * when it resolves, rolls back and rethrows when it throws. `fn`'s knex
   * nests further `transaction` calls as savepoints.
   */
  transaction<T>(knex: Knex, fn: (trx: Knex) => Promise<T>): Promise<T>
  /** Runs the statements (as `run` does) in one transaction on `db` (the pool, or inside an open transaction): see `runAllWith`. */
  runAll(db: Knex, statements: Statements): Promise<void>
}

/** Statements with `?` placeholders and their bindings, as `runAll` takes them. */
export type Statements = ReadonlyArray<readonly [string, readonly unknown[]]>

/**
 * A dialect's `runAll` from its `run` and its way of running statements in
 * one transaction: a single statement outside a transaction is one already
 * (autocommit), so it is sent alone, without BEGIN and COMMIT around it.
 * Inside an open transaction every call keeps its savepoint, so a failure
 * there leaves the transaction usable.
 */
export function runAllWith (
  run: (db: Knex, sql: string, bindings: readonly unknown[]) => Promise<unknown>,
  inTransaction: (db: Knex, statements: Statements) => Promise<void>
): (db: Knex, statements: Statements) => Promise<void> {
  return async (db, statements) => {
    const [only] = statements
    if (statements.length === 1 && only !== undefined && db.isTransaction !== true) {
      await run(db, only[0], only[1])
      return
    }
    await inTransaction(db, statements)
  }
}

/** `%` and `_` match literally; the result is wrapped for a substring match. */
export function containsPattern (value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** `%`, `_` and the backslash escaped for `like ? escape` backslash. */
export function likeEscaped (value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/**
 * `expr` case-folded so that its runs of ASCII characters are those of
 * JavaScript's `toLowerCase()` of it: the characters whose lowercase holds
 * ASCII letters (`FOLDS_TO_ASCII`) replaced by that lowercase, then ASCII
 * lowercased; the other characters are left as they are (the rule language's
 * text tests compare lowercased text: the due query narrows on the ASCII runs
 * of their values, see `AutomationDueText`).
 */
export function caseFolded (dialect: Pick<Dialect, 'asciiLower'>, expr: string): string {
  const replaced = FOLDS_TO_ASCII.reduce((sql, [from, to]) => `replace(${sql}, '${from}', '${to}')`, expr)
  return dialect.asciiLower(replaced)
}
