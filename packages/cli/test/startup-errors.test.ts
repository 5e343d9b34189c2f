import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKnexStore, testDialects } from '@helpdesk/store-knex'
import { bin } from './server-process.js'
import { testDatabase } from './in-process.js'

interface Outcome { code: number | null, stdout: string, stderr: string }

/** Runs the built `helpdesk` with `args` (optionally as the unprivileged user `nobody`) and waits for it to exit. */
async function helpdesk (args: string[], options: { cwd?: string, asNobody?: boolean } = {}): Promise<Outcome> {
  const [command, argv] = options.asNobody === true && process.getuid?.() === 0
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, bin, ...args]]
    : [process.execPath, [bin, ...args]]
  const child = spawn(command, argv, {
    cwd: options.cwd ?? tmpdir(),
    env: { ...process.env, HELPDESK_QUIET: '1', HELPDESK_RATE_LIMIT: '0' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const timer = setTimeout(() => { child.kill('SIGKILL') }, 30_000)
  const code = await new Promise<number | null>((resolve) => { child.once('exit', (c) => { resolve(c) }) })
  clearTimeout(timer)
  return { code, stdout, stderr }
}

/** Exit status 1 and exactly one line on stderr, matching `pattern`, with no stack trace. */
function assertOneLineFailure (outcome: Outcome, pattern: RegExp): void {
  assert.equal(outcome.code, 1, `exit status (stderr: ${outcome.stderr})`)
  const lines = outcome.stderr.trim().split('\n')
  assert.equal(lines.length, 1, `one line on stderr, got:\n${outcome.stderr}`)
  assert.match(lines[0]!, /^error: /)
  assert.match(lines[0]!, pattern)
  assert.doesNotMatch(outcome.stderr, /\n\s+at /, 'no stack trace')
}

function scratch (t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-startup-'))
  chmodSync(dir, 0o777)
  t.after(() => { rmSync(dir, { recursive: true, force: true }) })
  return dir
}

const sqliteIn = (dir: string): string => `sqlite:${join(dir, 'helpdesk.sqlite')}`

describe('helpdesk serve start-up failures: one line with the fix, exit status 1', () => {
  it('a port already in use', async (t) => {
    const dir = scratch(t)
    const holder = createServer()
    await new Promise<void>((resolve) => { holder.listen(0, '127.0.0.1', resolve) })
    t.after(() => { holder.close() })
    const { port } = holder.address() as AddressInfo
    const outcome = await helpdesk(['serve', '--port', String(port), '--database', sqliteIn(dir)])
    assertOneLineFailure(outcome, new RegExp(`127\\.0\\.0\\.1:${port}: the port is already in use; .*--port`))
  })

  it('permission denied on a privileged port', async (t) => {
    const floor = existsSync('/proc/sys/net/ipv4/ip_unprivileged_port_start') ? Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8')) : 1024
    if (floor <= 80) {
      t.skip(`any user may listen on port 80 here (ip_unprivileged_port_start=${floor})`)
      return
    }
    const dir = scratch(t)
    const outcome = await helpdesk(['serve', '--port', '80', '--database', sqliteIn(dir)], { asNobody: true, cwd: dir })
    assertOneLineFailure(outcome, /127\.0\.0\.1:80: permission denied .*--port/)
  })

  it('a host that is not an address of this machine', async (t) => {
    const dir = scratch(t)
    const outcome = await helpdesk(['serve', '--port', '0', '--host', '192.0.2.1', '--database', sqliteIn(dir)])
    assertOneLineFailure(outcome, /192\.0\.2\.1(:0)?: the address is not one of this machine's; use --host/)
  })

  it('an invalid, missing or unreadable config file', async (t) => {
    const dir = scratch(t)
    const invalid = join(dir, 'invalid.json')
    writeFileSync(invalid, '{"port": 3000,')
    assertOneLineFailure(await helpdesk(['serve', '--port', '0', '--config', invalid]), /config file .*invalid\.json is not valid JSON/)
    assertOneLineFailure(await helpdesk(['serve', '--port', '0', '--config', join(dir, 'missing.json')]), /config file .*missing\.json does not exist/)
    const unreadable = join(dir, 'unreadable.json')
    writeFileSync(unreadable, '{}')
    chmodSync(unreadable, 0o000)
    assertOneLineFailure(await helpdesk(['serve', '--port', '0', '--config', unreadable], { asNobody: true, cwd: dir }),
      /config file .*unreadable\.json cannot be read \(permission denied\): make it readable/)
  })

  it('a database that does not answer', async () => {
    const outcome = await helpdesk(['serve', '--port', '0', '--database', 'postgres://postgres@127.0.0.1:1/helpdesk'])
    assertOneLineFailure(outcome, /cannot reach the database at postgres:\/\/postgres@127\.0\.0\.1:1\/helpdesk: connection refused/)
  })

  for (const dialect of testDialects()) {
    it(`a migration lock left held, released by \`helpdesk migrate --unlock\` (${dialect})`, async (t) => {
      const db = await testDatabase(t, dialect)
      const store = createKnexStore({ url: db.url })
      await store.migrate()
      await store.knex('knex_migrations_lock').update({ is_locked: 1 })
      await store.close()

      assertOneLineFailure(await helpdesk(['serve', '--port', '0', '--database', db.url]), /migration lock is held: .*helpdesk migrate --unlock/)
      assertOneLineFailure(await helpdesk(['migrate', '--database', db.url]), /migration lock is held/)
      const unlocked = await helpdesk(['migrate', '--unlock', '--database', db.url])
      assert.equal(unlocked.code, 0, unlocked.stderr)
      assert.match(unlocked.stderr, /Released the migration lock/)
      assert.equal((await helpdesk(['migrate', '--database', db.url])).code, 0)
    })
  }
})
