import { after, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createHelpdesk, ForbiddenError } from '@helpdesk/core'
import { createKnexStore } from '@helpdesk/store-knex'
import { CliError, loadConfig } from '../src/config.js'
import { helpdeskFor, pluginOptionsFor, webOptionsFor } from '../src/server.js'
import { publicUrlWarning } from '../src/commands/serve.js'

const bin = fileURLToPath(new URL('../bin/helpdesk.js', import.meta.url))

// Every directory of this file lives in one scratch directory, removed at the end.
const scratch = mkdtempSync(join(tmpdir(), 'helpdesk-config-'))
after(() => { rmSync(scratch, { recursive: true, force: true }) })
const emptyDir = (): string => mkdtempSync(join(scratch, 'empty-'))

function dirWith (config: unknown, name = 'helpdesk.config.json'): string {
  const dir = mkdtempSync(join(scratch, 'with-config-'))
  writeFileSync(join(dir, name), typeof config === 'string' ? config : JSON.stringify(config))
  return dir
}

describe('configuration', () => {
  it('takes flags over environment over the config file over defaults', () => {
    const dir = dirWith({ database: 'sqlite:./from-file.sqlite', port: 4000, rateLimit: 120, host: '0.0.0.0', prefix: '/support/api' })
    const file = join(dir, 'helpdesk.config.json')
    const fromFile = loadConfig({ config: file }, {})
    assert.equal(fromFile.databaseUrl, 'sqlite:./from-file.sqlite')
    assert.equal(fromFile.port, 4000)
    assert.equal(fromFile.host, '0.0.0.0')
    assert.deepEqual(fromFile.plugin.rateLimit, { max: 120 })
    assert.equal(fromFile.plugin.prefix, '/support/api')
    assert.equal(fromFile.configFile, file)
    const fromEnv = loadConfig({ config: file }, { PORT: '5000', HELPDESK_RATE_LIMIT: '0', HELPDESK_DATABASE_URL: 'postgres://x@y/z', HELPDESK_PREFIX: '/hd' })
    assert.equal(fromEnv.port, 5000)
    assert.equal(fromEnv.plugin.rateLimit, false)
    assert.equal(fromEnv.databaseUrl, 'postgres://x@y/z')
    assert.equal(fromEnv.plugin.prefix, '/hd')
    const fromFlags = loadConfig({ config: file, port: '6000', database: 'sqlite::memory:', rateLimit: false, prefix: '/x' }, { PORT: '5000' })
    assert.equal(fromFlags.port, 6000)
    assert.equal(fromFlags.databaseUrl, 'sqlite::memory:')
    assert.equal(fromFlags.plugin.rateLimit, false)
    assert.equal(fromFlags.plugin.prefix, '/x')
    const defaults = loadConfig({}, {}, emptyDir())
    assert.equal(defaults.databaseUrl, 'sqlite:./helpdesk.sqlite')
    assert.equal(defaults.port, 3000)
    assert.equal(defaults.host, '127.0.0.1')
    assert.equal(defaults.logLevel, 'info')
    assert.equal(defaults.trustProxy, false)
    assert.equal(defaults.configFile, null)
    assert.deepEqual(defaults.plugin.rateLimit, { max: 600 })
    assert.equal(defaults.plugin.registration, true)
    assert.equal(defaults.plugin.prefix, '/api/v1')
  })

  it('reads helpdesk.config.json from the working directory, and HELPDESK_CONFIG names another file', () => {
    const dir = dirWith({ port: 4100, storageDir: 'files' })
    const found = loadConfig({}, {}, dir)
    assert.equal(found.port, 4100)
    assert.equal(found.plugin.storageDir, join(dir, 'files'), 'relative to the working directory')
    const other = join(dirWith({ port: 4200 }), 'helpdesk.config.json')
    assert.equal(loadConfig({}, { HELPDESK_CONFIG: other }, dir).port, 4200)
    assert.throws(() => loadConfig({}, { HELPDESK_CONFIG: join(dir, 'missing.json') }, dir), /config file .*missing\.json does not exist/)
  })

  it('maps every setting onto the plugin options under the plugin\'s names', async (t) => {
    const dir = dirWith({
      rateLimit: { max: 50, timeWindow: '30 seconds', loginMax: 3, keyPrefix: 'staging:' },
      redisUrl: 'redis://127.0.0.1:6379',
      registration: false,
      storageDir: '/srv/helpdesk/files',
      uploadQuota: { maxFiles: 20 },
      trustProxy: true,
      logLevel: 'warn'
    })
    const config = loadConfig({}, {}, dir)
    assert.equal(config.trustProxy, true)
    assert.equal(config.logLevel, 'warn')
    const store = createKnexStore({ url: 'sqlite::memory:' })
    t.after(async () => { await store.close() })
    const helpdesk = createHelpdesk({ store })
    // `registration` and `storageDir` build the services (`helpdeskFor`); the plugin gets the HTTP options only.
    assert.deepEqual(pluginOptionsFor(config, helpdesk), {
      helpdesk,
      prefix: '/api/v1',
      rateLimit: { max: 50, timeWindow: '30 seconds', loginMax: 3, keyPrefix: 'staging:', redis: 'redis://127.0.0.1:6379' },
      uploadQuota: { maxBytes: 200 * 2 ** 20, maxFiles: 20 }
    })
    assert.equal(config.plugin.registration, false)
    assert.equal(config.plugin.storageDir, '/srv/helpdesk/files')
    await assert.rejects(helpdeskFor(config, store).auth.register({ first_name: 'A', last_name: 'B', email: 'a@example.com', password: 'secret123' }), ForbiddenError)
    const fromEnv = loadConfig({}, { HELPDESK_RATE_LIMIT: '70', HELPDESK_LOGIN_RATE_LIMIT: '4', HELPDESK_REDIS_URL: 'rediss://cache:6380', HELPDESK_REGISTRATION: 'yes', HELPDESK_TRUST_PROXY: '0', LOG_LEVEL: 'debug' }, dir)
    assert.deepEqual(fromEnv.plugin.rateLimit, { max: 70, timeWindow: '30 seconds', loginMax: 4, keyPrefix: 'staging:', redis: 'rediss://cache:6380' })
    assert.equal(fromEnv.plugin.registration, true)
    assert.equal(fromEnv.trustProxy, false)
    assert.equal(fromEnv.logLevel, 'debug')
    assert.equal(loadConfig({}, { HELPDESK_QUIET: '1', LOG_LEVEL: 'debug' }, dir).logLevel, 'silent')
    assert.equal(loadConfig({}, {}, dirWith({ rateLimit: false })).plugin.rateLimit, false)
    assert.deepEqual(loadConfig({}, { HELPDESK_UPLOAD_QUOTA_BYTES: '1000', HELPDESK_UPLOAD_QUOTA_FILES: '3' }, dir).plugin.uploadQuota, { maxBytes: 1000, maxFiles: 3 })
    assert.throws(() => loadConfig({}, { HELPDESK_UPLOAD_QUOTA_FILES: '0' }, dir), /HELPDESK_UPLOAD_QUOTA_FILES must be an integer/)
    assert.throws(() => loadConfig({}, {}, dirWith({ uploadQuota: { maxMegabytes: 5 } })), /"uploadQuota" must be an object with only maxBytes, maxFiles/)
  })

  it('sets session lifetimes from the environment (minutes) over the file (milliseconds), for the services only', async (t) => {
    const dir = dirWith({ sessions: { idleTimeoutMs: 600_000, lifetimeMs: 3_600_000 } })
    const store = createKnexStore({ url: 'sqlite::memory:' })
    t.after(async () => { await store.close() })
    assert.equal(loadConfig({}, {}, dirWith({})).plugin.sessions, undefined, 'the defaults when nothing is set')
    const fromFile = loadConfig({}, {}, dir)
    assert.deepEqual(fromFile.plugin.sessions, { idleTimeoutMs: 600_000, lifetimeMs: 3_600_000 })
    assert.equal(helpdeskFor(fromFile, store).auth.sessionLifetimeMs, 3_600_000)
    assert.ok(!('sessions' in pluginOptionsFor(fromFile, createHelpdesk({ store }))), 'a service option, not an HTTP one')
    const fromEnv = loadConfig({}, { HELPDESK_SESSION_IDLE_MINUTES: '0', HELPDESK_SESSION_LIFETIME_MINUTES: '90', HELPDESK_TOKEN_IDLE_MINUTES: '43200' }, dir)
    assert.deepEqual(fromEnv.plugin.sessions, { idleTimeoutMs: 0, lifetimeMs: 90 * 60_000, tokenIdleTimeoutMs: 30 * 24 * 60 * 60_000 })
    assert.throws(() => loadConfig({}, { HELPDESK_SESSION_LIFETIME_MINUTES: '0' }, dir), /HELPDESK_SESSION_LIFETIME_MINUTES must be an integer from 1/)
    assert.throws(() => loadConfig({}, {}, dirWith({ sessions: { idleMinutes: 5 } })), /"sessions" must be an object with only idleTimeoutMs, lifetimeMs, tokenIdleTimeoutMs/)
    assert.throws(() => loadConfig({}, {}, dirWith({ sessions: { lifetimeMs: 0 } })), /"sessions" must be an object whose "lifetimeMs" is an integer from 1/)
  })

  it('maps the web settings onto the web plugin: public URL, page limit in the API\'s window and Redis, image proxy guard (issue 29)', () => {
    const dir = dirWith({ webUrl: 'https://help.example.com', rateLimit: { max: 50, timeWindow: '30 seconds', keyPrefix: 'staging:', pageMax: 40 }, redisUrl: 'redis://127.0.0.1:6379' })
    const config = loadConfig({}, {}, dir)
    assert.equal(config.webUrl, 'https://help.example.com')
    assert.deepEqual(webOptionsFor(config), {
      prefix: '/',
      apiPrefix: '/api/v1',
      baseUrl: 'https://help.example.com',
      rateLimit: { max: 40, timeWindow: '30 seconds', redis: 'redis://127.0.0.1:6379', keyPrefix: 'staging:' },
      remoteImages: { allowPrivateTargets: false }
    })
    const store = createKnexStore({ url: 'sqlite::memory:' })
    assert.ok(!('pageMax' in (pluginOptionsFor(config, createHelpdesk({ store })).rateLimit as object)), 'pageMax is the web plugin\'s only')
    void store.close()
    const fromEnv = loadConfig({}, { HELPDESK_WEB_URL: 'https://kb.example.org/help', HELPDESK_PAGE_RATE_LIMIT: '0', HELPDESK_IMAGE_PROXY_ALLOW_PRIVATE_TARGETS: '1' }, dir)
    assert.equal(webOptionsFor(fromEnv).baseUrl, 'https://kb.example.org/help')
    assert.equal(webOptionsFor(fromEnv).rateLimit, false, 'HELPDESK_PAGE_RATE_LIMIT=0: no page limit')
    assert.deepEqual(webOptionsFor(fromEnv).remoteImages, { allowPrivateTargets: true })
    assert.equal(fromEnv.plugin.rateLimit === false ? null : fromEnv.plugin.rateLimit.max, 50, 'the API keeps its limit')
    const defaults = loadConfig({}, {}, emptyDir())
    assert.equal(defaults.webUrl, null)
    assert.deepEqual(webOptionsFor(defaults), { prefix: '/', apiPrefix: '/api/v1', rateLimit: { max: 120 }, remoteImages: { allowPrivateTargets: false } })
    assert.equal(webOptionsFor(loadConfig({ rateLimit: false }, {}, emptyDir())).rateLimit, false, '--no-rate-limit switches the page limits off too')
    assert.throws(() => loadConfig({}, { HELPDESK_WEB_URL: 'help.example.com' }, emptyDir()), /HELPDESK_WEB_URL must be an http:\/\/ or https:\/\/ URL/)
    assert.throws(() => loadConfig({}, {}, dirWith({ webUrl: 'https://help.example.com/?x=1' })), /"webUrl" must be an http:\/\/ or https:\/\/ URL without query/)
    assert.throws(() => loadConfig({}, { HELPDESK_PAGE_RATE_LIMIT: 'many' }, emptyDir()), /HELPDESK_PAGE_RATE_LIMIT must be an integer from 0/)
  })

  it('warns on start-up behind a proxy without a public URL, and only then', () => {
    const warning = publicUrlWarning({ trustProxy: true, web: true, webUrl: null })
    assert.match(warning ?? '', /trustProxy is on but no public URL is set: .*no canonical links and \/sitemap\.xml answers 404\. Set HELPDESK_WEB_URL/)
    assert.equal(publicUrlWarning({ trustProxy: true, web: true, webUrl: 'https://help.example.com' }), null)
    assert.equal(publicUrlWarning({ trustProxy: false, web: true, webUrl: null }), null)
    assert.equal(publicUrlWarning({ trustProxy: true, web: false, webUrl: null }), null, 'no pages, nothing to warn about')
  })

  it('loads helpdesk.config.ts with tsx', () => {
    const dir = dirWith([
      "import type { HelpdeskConfigFile } from '@helpdesk/cli'",
      'const port: number = 4300',
      "export default { port, database: 'sqlite:./typed.sqlite', rateLimit: { max: 10 }, redisUrl: process.env.NOT_SET_ANYWHERE } satisfies HelpdeskConfigFile"
    ].join('\n'), 'helpdesk.config.ts')
    const config = loadConfig({}, {}, dir)
    assert.equal(config.port, 4300)
    assert.equal(config.databaseUrl, 'sqlite:./typed.sqlite')
    assert.deepEqual(config.plugin.rateLimit, { max: 10 })
    assert.equal(config.configFile, join(dir, 'helpdesk.config.ts'))
    const checked = dirWith("export default { port: 'eighty' }", 'helpdesk.config.ts')
    assert.throws(() => loadConfig({}, {}, checked), /helpdesk\.config\.ts: "port" must be an integer from 0 to 65535, got "eighty"/)
    const broken = dirWith('export default {', 'helpdesk.config.ts')
    assert.throws(() => loadConfig({}, {}, broken), /helpdesk\.config\.ts could not be loaded/)
    writeFileSync(join(dir, 'helpdesk.config.json'), '{}')
    assert.throws(() => loadConfig({}, {}, dir), /both .*helpdesk\.config\.json and .*helpdesk\.config\.ts exist: keep one/)
  })

  it('names the bad value, in one line', () => {
    const bad = (env: Record<string, string>, pattern: RegExp): void => {
      assert.throws(() => loadConfig({}, env, emptyDir()), (e: Error) => e instanceof CliError && pattern.test(e.message) && !e.message.includes('\n'))
    }
    bad({ PORT: 'eighty' }, /^PORT must be an integer from 0 to 65535, got "eighty"$/)
    bad({ HELPDESK_RATE_LIMIT: '-1' }, /^HELPDESK_RATE_LIMIT must be an integer/)
    bad({ HELPDESK_LOGIN_RATE_LIMIT: '0' }, /^HELPDESK_LOGIN_RATE_LIMIT must be an integer from 1/)
    bad({ HELPDESK_REGISTRATION: 'maybe' }, /^HELPDESK_REGISTRATION must be 0 or 1, got "maybe"$/)
    bad({ HELPDESK_TRUST_PROXY: '2' }, /^HELPDESK_TRUST_PROXY must be 0 or 1/)
    bad({ HELPDESK_REDIS_URL: 'localhost:6379' }, /^HELPDESK_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, got "localhost:6379"$/)
    bad({ HELPDESK_PREFIX: 'api/' }, /^HELPDESK_PREFIX must be a path like "\/api\/v1"/)
    bad({ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"$/)
    bad({ HELPDESK_DATABASE_URL: 'mysql://x' }, /^unsupported database URL "mysql:\/\/x"/)
    const file = (config: unknown): string => join(dirWith(config), 'helpdesk.config.json')
    assert.throws(() => loadConfig({ config: file({ databse: 'sqlite:x' }) }, {}), /unknown key "databse" \(known: database, host, port/)
    assert.throws(() => loadConfig({ config: file('{ nope') }, {}), /is not valid JSON/)
    assert.throws(() => loadConfig({ config: file({ port: '80' }) }, {}), /"port" must be an integer from 0 to 65535, got "80"/)
    assert.throws(() => loadConfig({ config: file({ rateLimit: { max: 10, burst: 5 } }) }, {}), /"rateLimit" must be an object with only max, timeWindow, loginMax, keyPrefix, pageMax \(not "burst"\)/)
    assert.throws(() => loadConfig({ config: file({ rateLimit: { loginMax: 0 } }) }, {}), /"rateLimit" must be an object whose "loginMax" is an integer from 1/)
    assert.throws(() => loadConfig({ config: file({ registration: 'yes' }) }, {}), /"registration" must be true or false/)
    assert.throws(() => loadConfig({ config: file([1]) }, {}), /must hold an object/)
  })

  it('helpdesk doctor names a broken config in one line and exits 1', () => {
    const dir = dirWith({ database: 'mysql://nope' })
    const result = spawnSync(process.execPath, [bin, 'doctor'], { cwd: dir, encoding: 'utf8' })
    assert.equal(result.status, 1)
    const lines = result.stdout.trim().split('\n')
    assert.equal(lines.length, 1)
    assert.match(lines[0] ?? '', /^FAIL configuration: unsupported database URL "mysql:\/\/nope"/)
    const badKey = spawnSync(process.execPath, [bin, 'doctor'], { cwd: dirWith({ port: 3000, ratelimit: 5 }), encoding: 'utf8' })
    assert.equal(badKey.status, 1)
    assert.match(badKey.stdout.trim(), /^FAIL configuration: config file \S+helpdesk\.config\.json: unknown key "ratelimit" \(known: [^\n]+\) \(fix: [^\n]+\)$/)
  })

  it('helpdesk doctor reports an unreachable database and a healthy SQLite setup', () => {
    const dir = dirWith({ database: 'postgres://postgres@127.0.0.1:1/none' })
    const down = spawnSync(process.execPath, [bin, 'doctor', '--json'], { cwd: dir, encoding: 'utf8' })
    assert.equal(down.status, 1)
    const report = JSON.parse(down.stdout) as { healthy: boolean, checks: Array<{ name: string, ok: boolean }> }
    assert.equal(report.healthy, false)
    assert.equal(report.checks.find((c) => c.name === 'database')?.ok, false)

    const fresh = emptyDir()
    const pending = spawnSync(process.execPath, [bin, 'doctor'], { cwd: fresh, encoding: 'utf8' })
    assert.match(pending.stdout, /FAIL migrations: \d+ pending/)
    spawnSync(process.execPath, [bin, 'migrate'], { cwd: fresh, encoding: 'utf8' })
    const healthy = spawnSync(process.execPath, [bin, 'doctor'], { cwd: fresh, encoding: 'utf8' })
    assert.equal(healthy.status, 0, healthy.stdout + healthy.stderr)
    assert.match(healthy.stdout, /ok {3}migrations: up to date/)
  })
})
