import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import knexFactory from 'knex'

/**
 * A throwaway database for tests: a temporary SQLite file, or a fresh
 * PostgreSQL database dropped by `drop()`. Used by this repo's suites and by
 * host apps that test against the help desk.
 */
export interface TestDatabase {
  dialect: 'sqlite' | 'postgres'
  url: string
  drop(): Promise<void>
}

/**
 * The dialects a test run covers: `HELPDESK_TEST_DIALECTS=sqlite,postgres`
 * (default both). An unknown name (a typo such as `postgresql`) or an empty
 * list throws, so a run never passes by testing no database at all.
 */
export function testDialects (): Array<'sqlite' | 'postgres'> {
  const raw = process.env.HELPDESK_TEST_DIALECTS ?? 'sqlite,postgres'
  const names = raw.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const unknown = names.filter((s) => s !== 'sqlite' && s !== 'postgres')
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`HELPDESK_TEST_DIALECTS=${JSON.stringify(raw)}: expected a comma-separated list of sqlite and postgres` +
      (unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''))
  }
  return [...new Set(names)] as Array<'sqlite' | 'postgres'>
}

/** Server URL for test databases: `HELPDESK_TEST_PG_URL` (default postgres://postgres@127.0.0.1:5432/postgres). */
function adminUrl (): string {
  return process.env.HELPDESK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
}

export async function createTestDatabase (dialect: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'helpdesk-test-'))
    return {
      dialect,
      url: `sqlite:${join(dir, 'test.sqlite')}`,
      drop: async () => { rmSync(dir, { recursive: true, force: true }) }
    }
  }
  const name = `helpdesk_test_${Date.now()}_${randomBytes(4).toString('hex')}`
  const admin = knexFactory({ client: 'pg', connection: adminUrl(), pool: { min: 0, max: 1 } })
  try {
    await admin.raw(`create database "${name}"`)
  } finally {
    await admin.destroy()
  }
  const url = new URL(adminUrl())
  url.pathname = `/${name}`
  return {
    dialect,
    url: url.toString(),
    drop: async () => {
      const again = knexFactory({ client: 'pg', connection: adminUrl(), pool: { min: 0, max: 1 } })
      try {
        await again.raw(`drop database if exists "${name}" with (force)`)
      } finally {
        await again.destroy()
      }
    }
  }
}
