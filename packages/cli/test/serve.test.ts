import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDialects } from '@helpdesk/store-knex'
import { serve, type ServeSummary } from '../src/commands/serve.js'
import { DOCS_CONTENT_SECURITY_POLICY } from '../src/server.js'
import { contractEndpoints, normalizePath, serviceSpecEndpoints } from '../../fastify/test/spec-endpoints.js'
import { captureIo, testDatabase, serveInProcess } from './in-process.js'


// Swagger UI and the configuration do not depend on the database: one dialect is enough.
const dialect = testDialects()[0] ?? 'sqlite'

describe('helpdesk serve', () => {
  it('shows Swagger UI at /docs listing every endpoint of the spec', async (t) => {
    const db = await testDatabase(t, dialect)
    const server = await serveInProcess(t, db.url, captureIo())
    const origin = server.url.replace(/\/api\/v1$/, '')

    const page = await fetch(`${origin}/docs`)
    assert.equal(page.status, 200)
    assert.match(page.headers.get('content-type') ?? '', /text\/html/)
    assert.match(await page.text(), /swagger-ui/i)

    // Strict headers on every answer of Swagger UI (issue 29), and no token kept in localStorage.
    const initializer = await fetch(`${origin}/docs/static/swagger-initializer.js`)
    for (const answer of [page, initializer, await fetch(`${origin}/docs/json`)]) {
      assert.equal(answer.headers.get('content-security-policy'), DOCS_CONTENT_SECURITY_POLICY, answer.url)
      assert.equal(answer.headers.get('x-frame-options'), 'DENY', answer.url)
      assert.equal(answer.headers.get('referrer-policy'), 'no-referrer', answer.url)
    }
    for (const directive of ["script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "default-src 'none'"]) {
      assert.ok(DOCS_CONTENT_SECURITY_POLICY.split('; ').includes(directive), directive)
    }
    assert.doesNotMatch(DOCS_CONTENT_SECURITY_POLICY, /unsafe|https:|\*/)
    const init = await initializer.text()
    assert.match(init, /"persistAuthorization":false/)
    assert.doesNotMatch(await (await fetch(`${origin}/docs`)).text(), /<script>|<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/i, 'nothing inline in the page')

    // Swagger UI is built with the first request under /docs: its files, and the server's own 404 for what it lacks.
    const css = await fetch(`${origin}/docs/static/swagger-ui.css`)
    assert.equal(css.status, 200)
    assert.match(css.headers.get('content-type') ?? '', /text\/css/)
    assert.ok((await css.text()).length > 1000)
    const unknownFile = await fetch(`${origin}/docs/static/no-such-file.js`)
    assert.equal(unknownFile.status, 404)
    assert.deepEqual(await unknownFile.json(), { message: 'Not found.' })

    const json = await fetch(`${origin}/docs/json`)
    assert.equal(json.status, 200)
    const doc = await json.json() as { openapi: string, paths: Record<string, Record<string, unknown>> }
    assert.equal(doc.openapi, '3.1.0')
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${normalizePath(path)}`)))
    const missing = [...serviceSpecEndpoints(), ...contractEndpoints()]
      .map((e) => `${e.method} ${normalizePath(`/api/v1${e.path}`)}`)
      .filter((e) => !documented.has(e))
    assert.deepEqual(missing, [])

    const same = await (await fetch(`${server.url}/openapi.json`)).json()
    assert.deepEqual(same, doc, 'the plugin serves the same document under its prefix')
  })

  it('prints one JSON line with --json, and runs with the configured prefix and storage directory', async (t) => {
    const db = await testDatabase(t, dialect)
    const dir = mkdtempSync(join(tmpdir(), 'helpdesk-serve-'))
    t.after(() => { rmSync(dir, { recursive: true, force: true }) })
    const config = join(dir, 'helpdesk.config.json')
    writeFileSync(config, JSON.stringify({ database: db.url, prefix: '/support/api', storageDir: join(dir, 'files'), rateLimit: false, logLevel: 'silent' }))
    const io = captureIo()
    const server = await serve({ config, port: '0', json: true }, io)
    t.after(async () => { await server.close() })

    assert.equal(io.stdout.length, 1, io.stdout.join('\n'))
    const summary = JSON.parse(io.stdout[0] ?? '') as ServeSummary
    assert.match(summary.url, /^http:\/\/127\.0\.0\.1:\d+\/support\/api$/)
    assert.equal(summary.docs, summary.url.replace('/support/api', '/docs'))
    assert.ok(summary.migrations.length > 0)
    assert.equal(summary.firstAdmin?.email, 'admin@example.com')

    const login = await fetch(`${summary.url}/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(summary.firstAdmin)
    })
    assert.equal(login.status, 200)
    assert.equal(login.headers.get('x-ratelimit-limit'), null, 'rateLimit: false in the file')
    const { data: { token } } = await login.json() as { data: { token: string } }

    const form = new FormData()
    form.append('file', new Blob(['hello']), 'hello.txt')
    const upload = await fetch(`${summary.url}/attachments`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
    assert.equal(upload.status, 201, await upload.clone().text())
    assert.ok(existsSync(join(dir, 'files')) && readdirSync(join(dir, 'files'), { recursive: true }).length > 0, 'the file is in the configured storageDir')

    const docs = await (await fetch(`${summary.docs}/json`)).json() as { paths: Record<string, unknown> }
    assert.ok(Object.keys(docs.paths).every((p) => p.startsWith('/support/api/')))
  })

  it('serves the web console at / and the knowledge base at /kb, tells a newcomer to open the browser, and --no-web turns it off', async (t) => {
    const db = await testDatabase(t, dialect)
    const io = captureIo()
    const server = await serveInProcess(t, db.url, io)
    const origin = server.url.replace(/\/api\/v1$/, '')
    assert.match(io.stdout.join('\n'), new RegExp(`open ${origin}/ in your browser`))
    assert.match(io.stdout.join('\n'), /Created the first administrator: admin@example\.com \/ \S+ \(log in with it/)
    for (const path of ['/', '/tickets/1']) {
      const page = await fetch(`${origin}${path}`)
      assert.equal(page.status, 200, path)
      assert.match(page.headers.get('content-type') ?? '', /text\/html/)
      assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/)
    }
    assert.equal((await fetch(`${origin}/kb`)).status, 200)
    assert.equal((await fetch(`${origin}/sitemap.xml`)).status, 404, 'no public URL configured: no sitemap')
    assert.ok(!io.stderr.some((line) => /trustProxy/.test(line)), 'no proxy, no warning')
    assert.equal((await fetch(`${origin}/docs`)).status, 200, 'Swagger UI stays at /docs')
    assert.deepEqual(await (await fetch(`${origin}/api/v1/nothing-here`)).json(), { message: 'Not found.' })

    const bare = captureIo()
    const apiOnly = await serve({ database: db.url, port: '0', host: '127.0.0.1', web: false, json: true }, bare)
    t.after(async () => { await apiOnly.close() })
    const summary = JSON.parse(bare.stdout[0] ?? '') as ServeSummary
    assert.equal(summary.console, null)
    const root = await fetch(summary.url.replace(/\/api\/v1$/, '/'))
    assert.equal(root.status, 404)
    assert.deepEqual(await root.json(), { message: 'Not found.' })
  })

  it('behind a proxy warns when no public URL is set, and uses the configured one for canonical links and the sitemap, never Host (issue 29)', async (t) => {
    const db = await testDatabase(t, dialect)
    const saved = { proxy: process.env.HELPDESK_TRUST_PROXY, url: process.env.HELPDESK_WEB_URL }
    t.after(() => {
      for (const [name, value] of [['HELPDESK_TRUST_PROXY', saved.proxy], ['HELPDESK_WEB_URL', saved.url]] as const) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    })
    process.env.HELPDESK_TRUST_PROXY = '1'
    delete process.env.HELPDESK_WEB_URL
    const unset = captureIo()
    await serveInProcess(t, db.url, unset)
    assert.equal(unset.stderr.filter((line) => /^Warning: trustProxy is on but no public URL is set/.test(line)).length, 1, unset.stderr.join('\n'))

    process.env.HELPDESK_WEB_URL = 'https://help.example.com'
    const set = captureIo()
    const server = await serveInProcess(t, db.url, set)
    assert.ok(!set.stderr.some((line) => /trustProxy/.test(line)), set.stderr.join('\n'))
    const origin = server.url.replace(/\/api\/v1$/, '')
    const forged = { 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' }
    const page = await (await fetch(`${origin}/kb`, { headers: forged })).text()
    assert.match(page, /<link rel="canonical" href="https:\/\/help\.example\.com\/kb">/)
    const sitemap = await fetch(`${origin}/sitemap.xml`, { headers: forged })
    assert.equal(sitemap.status, 200)
    const xml = await sitemap.text()
    assert.match(xml, /<loc>https:\/\/help\.example\.com\/kb<\/loc>/)
    assert.doesNotMatch(xml + page, /evil\.test/)
  })
})
