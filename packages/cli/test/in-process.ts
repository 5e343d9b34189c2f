import type { TestContext } from 'node:test'
import { createTestDatabase, type TestDatabase } from '@helpdesk/store-knex'
import { serve } from '../src/commands/serve.js'
import type { CliIo } from '../src/io.js'

/** A CliIo that keeps the lines a command prints, for the test to read. */
export function captureIo (): CliIo & { stdout: string[], stderr: string[] } {
  const stdout: string[] = []
  const stderr: string[] = []
  return { stdout, stderr, out: (l) => { stdout.push(l) }, err: (l) => { stderr.push(l) } }
}

/** A fresh database of `dialect`, dropped after the test. */
export async function testDatabase (t: TestContext, dialect: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  const db = await createTestDatabase(dialect)
  t.after(async () => { await db.drop() })
  return db
}

/** `helpdesk serve` in this process on `database` and a free port of 127.0.0.1, with logging off; closed after the test. */
export async function serveInProcess (t: TestContext, database: string, io: CliIo): ReturnType<typeof serve> {
  process.env.HELPDESK_QUIET = '1'
  const server = await serve({ database, port: '0', host: '127.0.0.1' }, io)
  t.after(async () => { await server.close() })
  return server
}
