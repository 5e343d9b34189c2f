import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { CliError, loadConfig } from '../src/config.js'

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url))

function dirWith (config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-config-'))
  writeFileSync(join(dir, 'helpdesk.config.json'), typeof config === 'string' ? config : JSON.stringify(config))
  return dir
}

describe('configuration', () => {
  it('takes flags over environment over the config file over defaults', () => {
    const dir = dirWith({ database: 'sqlite:./from-file.sqlite', port: 4000, rateLimit: 120, host: '0.0.0.0' })
    const file = join(dir, 'helpdesk.config.json')
    const fromFile = loadConfig({ config: file }, {})
    assert.equal(fromFile.databaseUrl, 'sqlite:./from-file.sqlite')
    assert.equal(fromFile.port, 4000)
    assert.equal(fromFile.rateLimit, 120)
    const fromEnv = loadConfig({ config: file }, { PORT: '5000', HELPDESK_RATE_LIMIT: '0', HELPDESK_DATABASE_URL: 'postgres://x@y/z' })
    assert.equal(fromEnv.port, 5000)
    assert.equal(fromEnv.rateLimit, 0)
    assert.equal(fromEnv.databaseUrl, 'postgres://x@y/z')
    const fromFlags = loadConfig({ config: file, port: '6000', database: 'sqlite::memory:', rateLimit: false }, { PORT: '5000' })
    assert.equal(fromFlags.port, 6000)
    assert.equal(fromFlags.databaseUrl, 'sqlite::memory:')
    assert.equal(fromFlags.rateLimit, 0)
    const defaults = loadConfig({}, {})
    assert.equal(defaults.databaseUrl, 'sqlite:./helpdesk.sqlite')
    assert.equal(defaults.port, 3000)
    assert.equal(defaults.rateLimit, 600)
  })

  it('names the bad value', () => {
    assert.throws(() => loadConfig({}, { PORT: 'eighty' }), (e: Error) => e instanceof CliError && /PORT must be an integer from 0 to 65535, got "eighty"/.test(e.message))
    assert.throws(() => loadConfig({}, { HELPDESK_RATE_LIMIT: '-1' }), /HELPDESK_RATE_LIMIT must be an integer/)
    const unknownKey = join(dirWith({ databse: 'sqlite:x' }), 'helpdesk.config.json')
    assert.throws(() => loadConfig({ config: unknownKey }, {}), /unknown key "databse"/)
    const badJson = join(dirWith('{ nope'), 'helpdesk.config.json')
    assert.throws(() => loadConfig({ config: badJson }, {}), /is not valid JSON/)
    const wrongType = join(dirWith({ port: '80' }), 'helpdesk.config.json')
    assert.throws(() => loadConfig({ config: wrongType }, {}), /"port" must be a number/)
  })

  it('helpdesk doctor names a broken config in one line and exits 1', () => {
    const dir = dirWith({ database: 'mysql://nope' })
    const result = spawnSync(process.execPath, [bin, 'doctor'], { cwd: dir, encoding: 'utf8' })
    assert.equal(result.status, 1)
    const lines = result.stdout.trim().split('\n')
    assert.equal(lines.length, 1)
    assert.match(lines[0] ?? '', /^FAIL configuration: unsupported database URL "mysql:\/\/nope"/)
  })

  it('helpdesk doctor reports an unreachable database and a healthy SQLite setup', () => {
    const dir = dirWith({ database: 'postgres://postgres@127.0.0.1:1/none' })
    const down = spawnSync(process.execPath, [bin, 'doctor', '--json'], { cwd: dir, encoding: 'utf8' })
    assert.equal(down.status, 1)
    const report = JSON.parse(down.stdout) as { healthy: boolean, checks: Array<{ name: string, ok: boolean }> }
    assert.equal(report.healthy, false)
    assert.equal(report.checks.find((c) => c.name === 'database')?.ok, false)

    const fresh = mkdtempSync(join(tmpdir(), 'helpdesk-doctor-'))
    const pending = spawnSync(process.execPath, [bin, 'doctor'], { cwd: fresh, encoding: 'utf8' })
    assert.match(pending.stdout, /FAIL migrations: \d+ pending/)
    spawnSync(process.execPath, [bin, 'migrate'], { cwd: fresh, encoding: 'utf8' })
    const healthy = spawnSync(process.execPath, [bin, 'doctor'], { cwd: fresh, encoding: 'utf8' })
    assert.equal(healthy.status, 0, healthy.stdout + healthy.stderr)
    assert.match(healthy.stdout, /ok {3}migrations: up to date/)
  })
})
