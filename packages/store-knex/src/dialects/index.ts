import type { Knex } from 'knex'
import type { Dialect } from './dialect.js'
import { driverName } from './knex-internals.js'
import { postgresDialect } from './postgres.js'
import { sqliteDialect } from './sqlite.js'

export function dialectFor (url: string): Dialect {
  if (url.startsWith('sqlite:')) return sqliteDialect
  if (/^postgres(ql)?:\/\//.test(url)) return postgresDialect
  throw new Error(`Unsupported database URL "${url}": use sqlite:PATH or postgres://...`)
}

/** The dialect of an open connection (migrations receive only knex). */
export function dialectOfKnex (knex: Knex): Dialect {
  const client = driverName(knex)
  return client === 'pg' || client === 'postgres' || client === 'postgresql' ? postgresDialect : sqliteDialect
}
