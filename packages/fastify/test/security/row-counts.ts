import { existsSync, readdirSync } from 'node:fs'
import type { KnexStore } from '@helpdesk/store-knex'
import type { TestApp } from '../helpers.js'

/**
 * Tables written behind a request that succeeded, not within it: a ticket
 * view records its read (`last_read_by_me`) up to a moment later
 * (store-knex read-marks.ts), whatever request comes next; the app's job
 * runner reschedules its recurring maintenance jobs (`jobs`) whenever one ran.
 * A refused request's events would still show in `event_log`.
 */
const WRITTEN_BEHIND = new Set(['ticket_reads', 'jobs'])

/** The application's tables (full-text shadow tables, knex's bookkeeping and tables written behind left out). */
async function tableNames (knex: KnexStore['knex'], dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const rows = dialect === 'sqlite'
    ? await knex.raw<Array<{ name: string }>>("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
    : (await knex.raw<{ rows: Array<{ name: string }> }>("select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'")).rows
  return rows.map((r) => r.name).filter((name) => !name.startsWith('knex_') && !/_search_\w+$/.test(name) && !WRITTEN_BEHIND.has(name)).sort()
}

/**
 * Counts the rows of every table in one statement, and the files in the
 * attachment directory: what a refused request must leave exactly as it was.
 */
export async function snapshotCounter (h: TestApp): Promise<() => Promise<Record<string, number>>> {
  const knex = h.store.knex
  const names = await tableNames(knex, h.store.dialect.name)
  // A refused sign-in is recorded on purpose (the audit log's `auth.sign_in_failed`): every other audit row counts.
  const where = (name: string) => name === 'audit_log' ? " where action <> 'auth.sign_in_failed'" : ''
  const sql = names.map((name) => `select '${name}' as name, count(*) as n from "${name}"${where(name)}`).join(' union all ')
  return async () => {
    const result = await knex.raw<unknown>(sql)
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ name: string, n: number | string }>
    const counts: Record<string, number> = Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]))
    counts['files on disk'] = existsSync(h.storageDir) ? readdirSync(h.storageDir).length : 0
    return counts
  }
}
