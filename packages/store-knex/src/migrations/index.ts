import type { Knex } from 'knex'
import * as foundation from './0001-foundation.js'

interface Migration { name: string, up: (knex: Knex) => Promise<void>, down: (knex: Knex) => Promise<void> }

/**
 * Every migration, in order. An explicit list (not a directory scan) so the
 * store works from a bundle or a published package. Append only.
 */
export const migrations: Migration[] = [
  { name: '0001-foundation', ...foundation }
]

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m
}
