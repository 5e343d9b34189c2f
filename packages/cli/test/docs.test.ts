import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import * as core from '@helpdesk/core'
import { testDialects } from '@helpdesk/store-knex'
import { CONFIG_FILE_KEYS } from '../src/config-file.js'
import { buildProgram, run } from '../src/program.js'
import type { CliIo } from '../src/io.js'
import { serveInProcess, testDatabase } from './in-process.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const read = (path: string): string => readFileSync(join(root, path), 'utf8')
const silent: CliIo = { out: () => {}, err: () => {} }

/** The text of a `## heading` section, up to the next `## `. */
function section (markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`)
  assert.ok(start >= 0, `no "## ${heading}" section`)
  const end = markdown.indexOf('\n## ', start + 1)
  return markdown.slice(start, end < 0 ? undefined : end)
}

/** Whether a markdown table has a row for `` `name` `` (its first cell). */
function hasRow (markdown: string, name: string): boolean {
  return markdown.split('\n').some((line) => line.startsWith(`| \`${name}\``))
}

/** Member names of an exported interface, read from its source with the TypeScript parser. */
function interfaceMembers (file: string, name: string): string[] {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true)
  const found = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name)
  assert.ok(found !== undefined, `interface ${name} not found in ${file}`)
  return found.members.map((m) => (m.name as ts.Identifier).text)
}

function filesUnder (dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => !p.includes('/node_modules/') && !p.includes('/dist/') && keep(p))
}

/** `process.env.X`, `env.X` or `env['X']` in a source file: the name X, found with the TypeScript parser (comments do not count). */
function environmentReads (file: string): string[] {
  const names: string[] = []
  const visit = (node: ts.Node): void => {
    const target = ts.isPropertyAccessExpression(node)
      ? { object: node.expression, name: node.name.text }
      : ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)
        ? { object: node.expression, name: node.argumentExpression.text }
        : undefined
    const object = target?.object
    if (target !== undefined && object !== undefined && /^[A-Z][A-Z0-9_]+$/.test(target.name) &&
      ((ts.isIdentifier(object) && object.text === 'env') || (ts.isPropertyAccessExpression(object) && object.name.text === 'env'))) {
      names.push(target.name)
    }
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true))
  return names
}

/** Every environment variable the source of the packages and examples reads, with a file that reads it. */
function environmentVariables (): Map<string, string> {
  const sources = ['packages', 'examples'].flatMap((top) => readdirSync(join(root, top)).flatMap((pkg) =>
    filesUnder(join(root, top, pkg, 'src'), (p) => p.endsWith('.ts'))))
  const found = new Map<string, string>()
  for (const file of sources) {
    for (const name of environmentReads(file)) found.set(name, relative(root, file))
  }
  return found
}

/** GitHub's anchor for a heading. */
function slug (heading: string): string {
  return heading.trim().toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-')
}

function markdownFiles (): string[] {
  return [
    join(root, 'README.md'),
    ...filesUnder(join(root, 'docs'), (p) => p.endsWith('.md')),
    ...['packages', 'examples'].flatMap((top) => readdirSync(join(root, top)).map((d) => join(root, top, d, 'README.md')).filter((p) => existsSync(p)))
  ]
}

describe('docs', () => {
  it('document every plugin option', () => {
    const plugin = section(read('docs/configuration.md'), 'Plugin options')
    // HelpdeskPluginOptions is a union (`store` with the service options, or a prebuilt `helpdesk`): every member of its parts.
    const parts = ['HelpdeskPluginCommonOptions', 'HelpdeskServiceOptions', 'HelpdeskPluginStoreOptions', 'HelpdeskPluginPrebuiltOptions']
    const options = [...new Set(parts.flatMap((part) => interfaceMembers('packages/fastify/src/options.ts', part)))]
    const rateLimit = interfaceMembers('packages/fastify/src/options.ts', 'RateLimitOptions').map((m) => `rateLimit.${m}`)
    assert.ok(options.length >= 10)
    assert.deepEqual([...options, ...rateLimit].filter((o) => !hasRow(plugin, o)), [], 'options missing from docs/configuration.md#plugin-options')
  })

  it('document every config file key', () => {
    const file = section(read('docs/configuration.md'), 'Config file')
    assert.deepEqual(CONFIG_FILE_KEYS.filter((k) => !hasRow(file, k)), [], 'keys missing from docs/configuration.md#config-file')
  })

  it('document every environment variable the code reads', () => {
    const env = section(read('docs/configuration.md'), 'Environment variables')
    const variables = environmentVariables()
    for (const known of ['HELPDESK_DATABASE_URL', 'PORT', 'HELPDESK_DB_POOL', 'HELPDESK_TEST_DIALECTS']) assert.ok(variables.has(known), `the scan missed ${known}`)
    const missing = [...variables].filter(([name]) => !hasRow(env, name)).map(([name, file]) => `${name} (read in ${file})`)
    assert.deepEqual(missing, [], 'variables missing from docs/configuration.md#environment-variables')
  })

  it('have a page for every command, naming each of its flags, linked from the command index', () => {
    const index = read('docs/cli/README.md')
    const commands = buildProgram(silent).commands
    assert.ok(commands.length >= 7)
    for (const command of commands) {
      const page = `docs/cli/${command.name().replace(':', '-')}.md`
      assert.ok(existsSync(join(root, page)), `${page} is missing`)
      const text = read(page)
      assert.equal(text.split('\n')[0], `# helpdesk ${command.name()}`, page)
      const flags = command.options.map((o) => o.long).filter((f): f is string => f !== undefined)
      assert.deepEqual(flags.filter((flag) => !text.includes(`\`${flag}\``)), [], `flags of ${command.name()} missing from ${page}`)
      assert.ok(index.includes(`(${page.replace('docs/cli/', '')})`), `docs/cli/README.md does not link ${page}`)
    }
  })

  it('list every error code with its status and class, and every error class is in the registry', () => {
    const errors = read('docs/errors.md')
    for (const [code, ErrorClass] of Object.entries(core.helpdeskErrors)) {
      const error = ErrorClass === core.ValidationError ? new core.ValidationError({ field: ['Bad.'] }) : new (ErrorClass as new (m?: string) => core.HelpdeskError)()
      assert.equal(error.code, code, `helpdeskErrors.${code} raises ${error.code}`)
      const row = new RegExp(`^\\| \`${code}\` \\| ${error.statusCode} \\| \`${ErrorClass.name}\` \\|`, 'm')
      assert.match(errors, row, `docs/errors.md has no row for ${code} (${error.statusCode}, ${ErrorClass.name})`)
    }
    const registered = new Set<unknown>(Object.values(core.helpdeskErrors))
    const classes = Object.entries(core).filter(([, value]) => typeof value === 'function' && value.prototype instanceof core.HelpdeskError)
    assert.deepEqual(classes.filter(([, value]) => !registered.has(value)).map(([name]) => name), [], 'error classes missing from helpdeskErrors')
  })

  it('link only to files and headings that exist, and every page is linked from another', () => {
    const broken: string[] = []
    const linked = new Set<string>()
    for (const file of markdownFiles()) {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?|mailto):/.test(target)) continue
        const [path = '', anchor] = target.split('#')
        const resolved = path === '' ? file : join(dirname(file), path)
        if (!existsSync(resolved)) { broken.push(`${relative(root, file)} -> ${target}`); continue }
        linked.add(resolved)
        if (anchor !== undefined && resolved.endsWith('.md')) {
          const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1] ?? ''))
          if (!headings.includes(anchor)) broken.push(`${relative(root, file)} -> ${target} (no such heading)`)
        }
      }
    }
    assert.deepEqual(broken, [])
    const pages = readdirSync(join(root, 'docs')).filter((p) => p.endsWith('.md') && p !== 'README.md').map((p) => join(root, 'docs', p))
    assert.deepEqual(pages.filter((p) => !linked.has(p)).map((p) => relative(root, p)), [], 'pages nobody links to')
  })
})

/** The fenced blocks of a markdown file, in order. */
function fencedBlocks (markdown: string): Array<{ lang: string, body: string }> {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1] ?? '', body: m[2] ?? '' }))
}

/** Every key of `documented` is in `actual` with the same JSON type (arrays: their first items); messages are compared word for word. */
function assertShape (documented: unknown, actual: unknown, path: string): void {
  if (documented === null) { assert.equal(actual, null, `${path} is not null`); return }
  if (Array.isArray(documented)) {
    assert.ok(Array.isArray(actual), `${path} is not an array`)
    if (documented.length > 0) {
      assert.ok(actual.length > 0, `${path} is empty`)
      assertShape(documented[0], actual[0], `${path}[0]`)
    }
    return
  }
  if (typeof documented === 'object') {
    assert.ok(typeof actual === 'object' && actual !== null && !Array.isArray(actual), `${path} is not an object`)
    for (const [key, value] of Object.entries(documented)) {
      assert.ok(key in actual, `${path}.${key} is missing from ${JSON.stringify(actual)}`)
      assertShape(value, (actual as Record<string, unknown>)[key], `${path}.${key}`)
    }
    return
  }
  assert.equal(typeof actual, typeof documented, `${path}: ${JSON.stringify(actual)} is not a ${typeof documented}`)
  if (/\.message$|\.errors\./.test(path)) assert.equal(actual, documented, path)
}

describe('docs/http-api.md', () => {
  it('has examples that run against a real server and answer as shown', async (t) => {
    const db = await testDatabase(t, testDialects()[0] ?? 'sqlite')
    assert.equal(await run(['seed', '--database', db.url], silent), 0)
    const server = await serveInProcess(t, db.url, silent)
    const origin = server.url.replace(/\/api\/v1$/, '')

    const blocks = fencedBlocks(read('docs/http-api.md'))
    const runs = blocks.flatMap((block, i) => block.lang === 'sh'
      ? [{ script: block.body.replaceAll('http://127.0.0.1:3000', origin), expected: blocks[i + 1]?.lang === 'json' ? blocks[i + 1]?.body : undefined }]
      : [])
    assert.ok(runs.length >= 10, `only ${runs.length} shell examples`)
    const marker = '@@@ end of example @@@'
    const script = ['set -euo pipefail', ...runs.map((r) => `${r.script}\nprintf '\\n${marker}\\n'`)].join('\n')
    // Asynchronously: the server answering the examples runs in this process.
    const cwd = mkdtempSync(join(tmpdir(), 'helpdesk-docs-'))
    t.after(() => { rmSync(cwd, { recursive: true, force: true }) })
    const result = await promisify(execFile)('bash', ['-c', script], { cwd, timeout: 60_000 })
      .catch((error: { stdout?: string, stderr?: string, code?: number }) => {
        assert.fail(`the examples stopped (exit ${error.code}): ${error.stderr}\n${error.stdout}`)
      })
    const outputs = result.stdout.split(`\n${marker}\n`)
    assert.equal(outputs.length, runs.length + 1, result.stdout)
    let compared = 0
    runs.forEach((example, i) => {
      if (example.expected === undefined) return
      const output = outputs[i]?.trim() ?? ''
      let actual: unknown
      assert.doesNotThrow(() => { actual = JSON.parse(output) }, `example ${i + 1} did not answer JSON:\n${example.script}\n${output}`)
      assertShape(JSON.parse(example.expected), actual, `example ${i + 1}`)
      compared++
    })
    assert.ok(compared >= 8, `only ${compared} examples have a JSON answer to compare`)
  })
})
