import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { testDialects } from '@helpdesk/store-knex'
import { buildProgram, run } from '../src/program.js'
import { captureIo, serveInProcess, testDatabase } from './in-process.js'


const bin = fileURLToPath(new URL('../bin/helpdesk.js', import.meta.url))

for (const dialect of testDialects()) {
  describe(`helpdesk CLI on ${dialect}`, () => {
    it('migrates, creates users, refuses bad input in one line, and prints a token alone', async (t) => {
      const db = await testDatabase(t, dialect)
      const io = captureIo()
      assert.equal(await run(['migrate', '--database', db.url], io), 0)
      assert.match(io.stdout.join('\n'), /Applied migrations: 0001-foundation/)
      const upToDate = captureIo()
      assert.equal(await run(['migrate', '--database', db.url, '--json'], upToDate), 0)
      assert.deepEqual(upToDate.stdout.map((l) => JSON.parse(l)), [{ applied: [] }])

      assert.equal(await run(['users:create', '--role', 'admin', '--email', 'Root@Example.com', '--password', 'secret1', '--database', db.url], io), 0)

      const dup = captureIo()
      assert.equal(await run(['users:create', '--role', 'agent', '--email', 'root@example.com', '--password', 'secret1', '--database', db.url], dup), 1)
      assert.deepEqual(dup.stderr, ['error: email: The email has already been taken.'])

      const badRole = captureIo()
      assert.equal(await run(['users:create', '--role', 'boss', '--email', 'x@example.com', '--password', 'secret1', '--database', db.url], badRole), 1)
      assert.deepEqual(badRole.stderr, ['error: unknown role "boss" (use admin, agent or customer)'])

      const shortPassword = captureIo()
      assert.equal(await run(['users:create', '--role', 'customer', '--email', 'c@example.com', '--password', '123', '--database', db.url], shortPassword), 1)
      assert.match(shortPassword.stderr[0] ?? '', /^error: password: The password must be at least 6 characters\.$/)

      const token = captureIo()
      assert.equal(await run(['tokens:create', '--email', 'root@example.com', '--database', db.url], token), 0)
      assert.equal(token.stdout.length, 1)
      assert.match(token.stdout[0] ?? '', /^hd_[A-Za-z0-9_-]{43}$/)
      const tokenJson = captureIo()
      assert.equal(await run(['tokens:create', '--email', 'root@example.com', '--name', 'deploy-bot', '--json', '--database', db.url], tokenJson), 0)
      const issued = JSON.parse(tokenJson.stdout[0] ?? '{}') as { id: number, name: string, token: string }
      assert.equal(issued.name, 'deploy-bot')
      assert.ok(Number.isInteger(issued.id))
      assert.match(issued.token, /^hd_/)

      const seeded = captureIo()
      assert.equal(await run(['seed', '--database', db.url, '--json'], seeded), 0)
      const again = captureIo()
      assert.equal(await run(['seed', '--database', db.url, '--json'], again), 0)
      assert.deepEqual(JSON.parse(again.stdout[0] ?? '{}').categories, JSON.parse(seeded.stdout[0] ?? '{}').categories)
    })

    it('serves the API with the database migrated and a first administrator', async (t) => {
      const db = await testDatabase(t, dialect)
      const io = captureIo()
      const server = await serveInProcess(t, db.url, io)
      const printed = io.stdout.join('\n')
      assert.match(printed, /listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1/)
      const password = /admin@example\.com \/ (\S+)/.exec(printed)?.[1]
      assert.ok(password !== undefined, printed)
      const login = await fetch(`${server.url}/auth/login`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password })
      })
      assert.equal(login.status, 200)
      assert.ok(login.headers.get('x-ratelimit-limit') !== null)
      // GET /nowhere is a console route (the SPA answers it); other methods reach the root's JSON 404.
      const missing = await fetch(`${server.url.replace('/api/v1', '')}/nowhere`, { method: 'POST' })
      assert.equal(missing.status, 404)
      assert.deepEqual(await missing.json(), { message: 'Not found.' })
    })
  })
}

describe('helpdesk binary', () => {
  it('exits non-zero with one line and no stack trace when the database is unreachable', () => {
    const result = spawnSync(process.execPath, [bin, 'migrate', '--database', 'postgres://postgres@127.0.0.1:1/none'], { encoding: 'utf8' })
    assert.equal(result.status, 1)
    assert.equal(result.stderr.trim(), 'error: cannot reach the database at postgres://postgres@127.0.0.1:1/none: connection refused or timed out')
  })

  it('rejects an unsupported database URL', () => {
    const result = spawnSync(process.execPath, [bin, 'migrate', '--database', 'mysql://x'], { encoding: 'utf8' })
    assert.equal(result.status, 1)
    assert.match(result.stderr, /^error: unsupported database URL "mysql:\/\/x"/)
  })

  it('has help with examples, and --json for scripts, on every command', () => {
    const commands = buildProgram(captureIo()).commands
    assert.ok(commands.length >= 7)
    for (const command of commands.map((c) => c.name())) {
      const result = spawnSync(process.execPath, [bin, command, '--help'], { encoding: 'utf8' })
      assert.equal(result.status, 0, command)
      assert.match(result.stdout, /Examples?:\n {2}\S*helpdesk /, command)
      assert.match(result.stdout, /--json/, command)
    }
  })
})
