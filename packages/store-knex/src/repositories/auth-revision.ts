import type { Knex } from 'knex'
import type { Dialect } from '../dialects/dialect.js'

/**
 * The auth revision (`TokenRepository.revision`): one row, bumped in the
 * transaction of every token deletion and every change to a user that a
 * cached token lookup could be holding (status, role, permissions, password,
 * names, email) or the user's deletion. This module reads and bumps it.
 */
export async function readAuthRevision (db: Knex, dialect: Dialect): Promise<number> {
  const [row] = await dialect.run<{ revision: number | string }>(db, 'select revision from auth_revision where id = 1', [])
  return Number(row?.revision ?? 0)
}

/** Runs `change` and bumps the revision in one transaction (a savepoint inside an open one); returns `change`'s result. */
export async function withAuthRevisionBump<T> (db: Knex, dialect: Dialect, change: (trx: Knex) => Promise<T>): Promise<T> {
  return await db.transaction(async (trx) => {
    const result = await change(trx)
    await dialect.run(trx, 'update auth_revision set revision = revision + 1 where id = 1', [])
    return result
  })
}
