import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { testDialects } from '@helpdesk/store-knex'
import { adminToken, deployment, killServer, startServer } from './server-process.js'

const packagesDir = fileURLToPath(new URL('../../', import.meta.url))
const repoRoot = join(packagesDir, '..')
const WORKSPACE = ['core', 'shapes', 'store-knex', 'mail', 'webhooks', 'fastify', 'web', 'cli']

/** The package's installed dependencies (name → real directory), as pnpm linked them in the workspace. */
function linkedDependencies (dir: string): Map<string, string> {
  const found = new Map<string, string>()
  const modules = join(dir, 'node_modules')
  if (!existsSync(modules)) return found
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue
    const names = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((sub) => `${entry}/${sub}`) : [entry]
    for (const name of names) if (!name.startsWith('@helpdesk/')) found.set(name, realpathSync(join(modules, name)))
  }
  return found
}

/**
 * The six packages as npm would install them: each package's published files
 * (its `files` and package.json) copied under one flat node_modules, and
 * their dependencies linked beside them (a second version nested in its
 * dependent's own node_modules). Nothing points back into this workspace's
 * packages, so a path the bundle took from the build machine fails here.
 */
function install (t: TestContext): string {
  const root = mkdtempSync(join(tmpdir(), 'helpdesk-installed-'))
  t.after(() => { rmSync(root, { recursive: true, force: true }) })
  const modules = join(root, 'node_modules')
  const linked = new Map<string, string>()
  for (const name of WORKSPACE) {
    const source = join(packagesDir, name)
    const target = join(modules, '@helpdesk', name)
    const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { files: string[] }
    for (const entry of ['package.json', ...manifest.files]) {
      if (existsSync(join(source, entry))) cpSync(join(source, entry), join(target, entry), { recursive: true })
    }
    for (const [dependency, real] of linkedDependencies(source)) {
      const at = linked.get(dependency) ?? real
      const link = at === real ? join(modules, dependency) : join(target, 'node_modules', dependency)
      if (existsSync(link)) continue
      mkdirSync(dirname(link), { recursive: true })
      symlinkSync(real, link)
      linked.set(dependency, at)
    }
  }
  return join(modules, '@helpdesk', 'cli', 'bin', 'helpdesk.js')
}

describe('the helpdesk command installed outside the workspace', () => {
  it('holds no path of the machine that built it', () => {
    const bundle = join(packagesDir, 'cli', 'dist', 'bundle')
    const files = readdirSync(bundle)
    assert.ok(files.includes('bin.js'), 'pnpm build made the bundle')
    for (const file of files) {
      assert.ok(!readFileSync(join(bundle, file), 'utf8').includes(repoRoot), `${file} holds ${repoRoot}`)
    }
  })

  it('prints its version and help', (t) => {
    const helpdesk = install(t)
    const version = spawnSync(process.execPath, [helpdesk, '--version'], { encoding: 'utf8' })
    assert.equal(version.status, 0, version.stderr)
    assert.match(version.stdout, /^\d+\.\d+\.\d+/)
    const help = spawnSync(process.execPath, [helpdesk, 'serve', '--help'], { encoding: 'utf8' })
    assert.equal(help.status, 0, help.stderr)
    assert.match(help.stdout, /Usage: helpdesk serve/)
  })

  for (const dialect of testDialects()) {
    it(`serves the API, the console, the knowledge base and Swagger UI from the installed packages on ${dialect}`, async (t) => {
      const helpdesk = install(t)
      const { databaseUrl, storage } = await deployment(t, dialect)
      const server = await startServer(databaseUrl, storage, {}, helpdesk)
      t.after(async () => { await killServer(server) })
      const origin = server.url.replace(/\/api\/v1$/, '')

      // Logging in checks a password (the argon2 addon); listing reads the database (its driver).
      const token = await adminToken(server)
      const tickets = await fetch(`${server.url}/tickets`, { headers: { authorization: `Bearer ${token}` } })
      assert.equal(tickets.status, 200)
      assert.deepEqual((await tickets.json() as { data: unknown[] }).data, [])

      // Files the bundled code finds beside the modules it came from.
      for (const [path, type] of [['/docs/static/swagger-ui.css', /text\/css/], ['/', /text\/html/], ['/kb/static/kb.css', /text\/css/]] as const) {
        const res = await fetch(`${origin}${path}`)
        assert.equal(res.status, 200, path)
        assert.match(res.headers.get('content-type') ?? '', type, path)
        assert.ok((await res.text()).length > 500, path)
      }
      const console = await (await fetch(`${origin}/`)).text()
      const script = /src="\.?\/?(assets\/[^"]+\.js)"/.exec(console)?.[1]
      assert.ok(script !== undefined, console)
      assert.equal((await fetch(`${origin}/${script}`)).status, 200)
    })
  }
})
