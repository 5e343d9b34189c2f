import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url))
/** What the `helpdesk` command runs: the bundle of `pnpm build` (scripts/bundle.mjs). */
const shim = fileURLToPath(new URL('../bin/helpdesk.js', import.meta.url))
const bundleDir = fileURLToPath(new URL('../dist/bundle/', import.meta.url))

/** Modules a command's help must not load: the domain, the store and its drivers, Fastify, mail, the web console. */
const HEAVY = [
  /\/packages\/(core|store-knex|fastify|mail|web)\//,
  /\/node_modules\/(fastify|knex|better-sqlite3|pg|@node-rs\/argon2|@sinclair\/typebox|nodemailer|mailparser|imapflow|smtp-server|preact)\//
]

/**
 * Runs the built `helpdesk` with `args` under an ESM loader hook that writes
 * down every module it resolves; returns those URLs. Every import of the CLI
 * (its packages', and the CommonJS packages they import) goes through it.
 */
function loadedModules (args: string[], entry = bin): { urls: string[], stdout: string, status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-startup-'))
  try {
    const log = join(dir, 'modules.log')
    writeFileSync(join(dir, 'hooks.mjs'), [
      "import { appendFileSync } from 'node:fs'",
      'export async function resolve (specifier, context, next) {',
      '  const resolved = await next(specifier, context)',
      `  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n')`,
      '  return resolved',
      '}'
    ].join('\n'))
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)})\n`)
    writeFileSync(log, '')
    const result = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, entry, ...args], { encoding: 'utf8' })
    const urls = [...new Set(readFileSync(log, 'utf8').split('\n').filter((line) => line !== ''))]
    return { urls, stdout: result.stdout, status: result.status }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The modules bundled into the chunks `urls` name, read from the `// path`
 * line esbuild writes above each module (paths from the repository's root).
 */
function bundledModules (urls: string[]): string[] {
  return urls.filter((url) => url.startsWith(pathToFileURL(bundleDir).href)).flatMap((url) =>
    [...readFileSync(fileURLToPath(url), 'utf8').matchAll(/^\/\/ ((?:packages|node_modules)\/\S+)$/gm)].map((match) => `/${match[1] ?? ''}`))
}

const HELP_COMMANDS = [['--help'], ['--version'], ['serve', '--help'], ['seed', '--help'], ['webhooks:create', '--help'], ['mail:test', '--help']]

describe('helpdesk start-up', () => {
  for (const args of HELP_COMMANDS) {
    it(`loads no heavy module for \`helpdesk ${args.join(' ')}\``, () => {
      const { urls, stdout, status } = loadedModules(args)
      assert.equal(status, 0)
      assert.match(stdout, args[0] === '--version' ? /^\d+\.\d+\.\d+/ : /Usage: helpdesk/)
      // The hook saw the CLI itself, so an empty list is not a false pass.
      assert.ok(urls.some((url) => url.endsWith('/packages/cli/dist/program.js')), urls.join('\n'))
      const heavy = urls.filter((url) => HEAVY.some((pattern) => pattern.test(url)))
      assert.deepEqual(heavy, [], `\`helpdesk ${args.join(' ')}\` loaded:\n${heavy.join('\n')}`)
    })
  }

  it('still loads what a command runs when it runs (the hook sees the lazy imports)', () => {
    // `migrate` on an unreachable database fails, after loading the store.
    const { urls, status } = loadedModules(['migrate', '--database', 'postgres://postgres@127.0.0.1:1/none'])
    assert.equal(status, 1)
    assert.ok(urls.some((url) => /\/packages\/store-knex\//.test(url)), urls.join('\n'))
  })
})

describe('helpdesk start-up, bundled', () => {
  for (const args of HELP_COMMANDS) {
    it(`loads no chunk holding a heavy module for \`helpdesk ${args.join(' ')}\``, () => {
      const { urls, stdout, status } = loadedModules(args, shim)
      assert.equal(status, 0)
      assert.match(stdout, args[0] === '--version' ? /^\d+\.\d+\.\d+/ : /Usage: helpdesk/)
      // The command ran from the bundle, and its chunks hold the command line.
      const modules = bundledModules(urls)
      assert.ok(modules.includes('/packages/cli/dist/program.js'), urls.join('\n'))
      const heavy = modules.filter((path) => HEAVY.some((pattern) => pattern.test(path)))
      assert.deepEqual(heavy, [], `\`helpdesk ${args.join(' ')}\` loaded chunks holding:\n${heavy.join('\n')}`)
    })
  }

  it('loads the chunks of what a command runs when it runs', () => {
    const { urls, status } = loadedModules(['migrate', '--database', 'postgres://postgres@127.0.0.1:1/none'], shim)
    assert.equal(status, 1)
    const modules = bundledModules(urls)
    assert.ok(modules.some((path) => path.startsWith('/packages/store-knex/')), modules.join('\n'))
    assert.ok(modules.some((path) => path.includes('/node_modules/knex/')), modules.join('\n'))
  })

  it('loads nothing of the unbundled build', () => {
    const { urls, status } = loadedModules(['seed', '--help'], shim)
    assert.equal(status, 0)
    const unbundled = urls.filter((url) => /\/packages\/[^/]+\/dist\//.test(url) && !url.startsWith(pathToFileURL(bundleDir).href))
    assert.deepEqual(unbundled, [])
  })
})
