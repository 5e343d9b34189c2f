import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { TestContext } from 'node:test'
import { fileURLToPath } from 'node:url'
import { createTestDatabase } from '@helpdesk/store-knex'
import type { ServeSummary } from '../src/commands/serve.js'

/** The built CLI, as `helpdesk` runs it. */
export const bin = fileURLToPath(new URL('../bin/helpdesk.js', import.meta.url))

/** `helpdesk serve` in a child process of its own, which a test can signal and kill. */
export interface ServerProcess {
  child: ChildProcess
  summary: ServeSummary
  /** The API's base URL, e.g. `http://127.0.0.1:43121/api/v1`. */
  url: string
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null, signal: NodeJS.Signals | null }>
  /** What the process wrote to stderr so far. */
  stderr: () => string
}

/**
 * Starts `helpdesk serve --json` on a free port of 127.0.0.1 and resolves once
 * it listens. Quiet, without rate limits, attachments under `storageDir`.
 * `command` is the `helpdesk` script to run (this package's, by default); `port` a fixed one when
 * the test must know its address before the start (mail links, an identity provider's redirect URI).
 */
export async function startServer (databaseUrl: string, storageDir: string, env: Record<string, string> = {}, command = bin, port = 0): Promise<ServerProcess> {
  const child = spawn(process.execPath, [command, 'serve', '--database', databaseUrl, '--host', '127.0.0.1', '--port', String(port), '--json'], {
    env: { ...process.env, HELPDESK_QUIET: '1', HELPDESK_RATE_LIMIT: '0', HELPDESK_STORAGE_DIR: storageDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  child.stderr?.on('data', (data: Buffer) => { stderr += data.toString() })
  const exited = new Promise<{ code: number | null, signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => { resolve({ code, signal }) })
  })
  const lines = createInterface({ input: child.stdout! })
  const summary = await new Promise<ServeSummary>((resolve, reject) => {
    const timer = setTimeout(() => { reject(new Error(`helpdesk serve did not start within 20 s: ${stderr}`)) }, 20_000)
    lines.once('line', (line) => {
      clearTimeout(timer)
      try {
        resolve(JSON.parse(line) as ServeSummary)
      } catch {
        reject(new Error(`helpdesk serve printed ${line} ${stderr}`))
      }
    })
    void exited.then(({ code, signal }) => {
      clearTimeout(timer)
      reject(new Error(`helpdesk serve exited (${code ?? signal ?? ''}) before listening: ${stderr}`))
    })
  })
  return { child, summary, url: summary.url, exited, stderr: () => stderr }
}

/** A fresh database and attachment directory for a server process, both removed after the test. */
export async function deployment (t: TestContext, dialect: 'sqlite' | 'postgres'): Promise<{ databaseUrl: string, storage: string }> {
  const db = await createTestDatabase(dialect)
  const storage = mkdtempSync(join(tmpdir(), 'helpdesk-deployment-'))
  t.after(async () => {
    await db.drop()
    rmSync(storage, { recursive: true, force: true })
  })
  return { databaseUrl: db.url, storage }
}

/** Stops a server a test left running (SIGKILL: nothing to finish), and waits for it to go. */
export async function killServer (server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  await server.exited
}

/** A bearer token of the first administrator `serve` created on the empty database. */
export async function adminToken (server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.url}/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(server.summary.firstAdmin)
  })
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: { token: string } }).data.token
}
