/**
 * The rows of a `db.raw` result, whichever driver answered: better-sqlite3
 * gives the array of rows, pg a result object holding them in `rows`.
 */
export function rawRows<T> (result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}
