import type { Dialect } from './dialect.js'
import { postgresDialect } from './postgres.js'
import { sqliteDialect } from './sqlite.js'

export function dialectFor (url: string): Dialect {
  if (url.startsWith('sqlite:')) return sqliteDialect
  if (/^postgres(ql)?:\/\//.test(url)) return postgresDialect
  throw new Error(`Unsupported database URL "${url}": use sqlite:PATH or postgres://...`)
}
