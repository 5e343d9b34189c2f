import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CONTENT_SECURITY_POLICY } from '../../src/server/index.js'
import { buildWebApp, eachDialect, expectHtml } from './helpers.js'

/** A stand-in for vite's output: index.html with a hashed script, an asset, a top-level file. */
function fakeBuild (t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-app-'))
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html>\n<html lang="en"><head><base href="/"><meta name="helpdesk-api" content="/api/v1"><meta name="helpdesk-kb" content="/kb"><title>Console</title>' +
    '<script type="module" crossorigin src="/assets/index-abc123.js"></script></head><body><div id="app"></div></body></html>')
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("app")')
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

eachDialect((dialect) => {
  describe(`console serving on ${dialect}`, () => {
    it('serves index.html for / and every console route (no-cache, strict CSP), assets immutable, API untouched', async (t) => {
      const h = await buildWebApp(t, dialect, { appDir: fakeBuild(t) })
      for (const url of ['/', '/tickets/12', '/portal/tickets/new?x=1']) {
        const res = await h.app.inject({ method: 'GET', url })
        const page = expectHtml(res)
        assert.equal(res.headers['cache-control'], 'no-cache')
        assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY)
        assert.equal(res.headers['x-frame-options'], 'DENY')
        assert.match(page, /<html data-base="\/" data-api-prefix="\/api\/v1" lang="en">/)
        assert.ok(page.includes('<base href="/">') && page.includes('<meta name="helpdesk-kb" content="/kb">'))
        assert.ok(page.includes('src="/assets/index-abc123.js"'))
      }
      const asset = await h.app.inject({ method: 'GET', url: '/assets/index-abc123.js' })
      assert.equal(asset.statusCode, 200)
      assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable')
      assert.equal((await h.app.inject({ method: 'GET', url: '/favicon.svg' })).statusCode, 200)
      const traversal = await h.app.inject({ method: 'GET', url: '/assets/..%2F..%2F..%2F..%2Fetc%2Fpasswd' })
      assert.ok([403, 404].includes(traversal.statusCode) && !traversal.body.includes('root:'), `${traversal.statusCode} ${traversal.body.slice(0, 80)}`)
      assert.equal((await h.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode, 404)
      const api404 = await h.app.inject({ method: 'GET', url: '/api/v1/no-such-route' })
      assert.equal(api404.statusCode, 404)
      assert.deepEqual(api404.json(), { message: 'Not found.' })
      assert.equal((await h.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode, 200)
      assert.equal((await h.app.inject({ method: 'GET', url: '/api/v1/health' })).headers['content-security-policy'], undefined, 'the API is not the console')
    })

    it('mounts at a prefix: routes, asset URLs and data-base follow it; the root stays the host\'s', async (t) => {
      const h = await buildWebApp(t, dialect, { appDir: fakeBuild(t), prefix: '/console/' })
      const page = expectHtml(await h.app.inject({ method: 'GET', url: '/console/tickets/3' }))
      assert.match(page, /data-base="\/console\/"/)
      assert.ok(page.includes('<base href="/console/">'), page)
      assert.ok(page.includes('<meta name="helpdesk-api" content="/api/v1">'))
      assert.ok(page.includes('<meta name="helpdesk-kb" content="/console/kb">'))
      assert.ok(page.includes('src="/console/assets/index-abc123.js"'))
      assert.equal((await h.app.inject({ method: 'GET', url: '/console/assets/index-abc123.js' })).statusCode, 200)
      assert.equal((await h.app.inject({ method: 'GET', url: '/console/kb' })).statusCode, 200)
      assert.equal((await h.app.inject({ method: 'GET', url: '/' })).statusCode, 404)
    })

    it('serves a placeholder page (and the KB) while the app is not built', async (t) => {
      const h = await buildWebApp(t, dialect, { appDir: join(tmpdir(), 'no-such-build-dir') })
      const res = await h.app.inject({ method: 'GET', url: '/' })
      assert.match(expectHtml(res), /not built yet/)
      assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY)
      expectHtml(await h.app.inject({ method: 'GET', url: '/kb' }))
    })
  })
})
