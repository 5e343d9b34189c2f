import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { chromiumOrSkip, DEMO, launchBrowser, openPage, startConsole, testDialects } from './harness.js'

/** The login screen's JavaScript must transfer at most this with `Accept-Encoding: br` (issue 35). */
const LOGIN_JS_BUDGET = 20 * 1024
const ASSETS = fileURLToPath(new URL('../../dist/app/assets/', import.meta.url))

interface Raw { status: number, headers: Record<string, string | string[] | undefined>, body: Buffer }

/** A GET as it goes over the wire: the bytes transferred, not decoded. */
async function rawGet (url: string, headers: Record<string, string>): Promise<Raw> {
  return await new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }) })
      res.on('error', reject)
    }).on('error', reject).end()
  })
}

for (const dialect of testDialects()) {
  describe(`compression on ${dialect}`, () => {
    it('sends the login screen\'s JavaScript precompressed within budget, and compresses JSON and pages', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const browser = await launchBrowser(t)

      // Which scripts the login screen loads: as the browser asks for them.
      const { page } = await openPage(browser)
      const scripts = new Set<string>()
      page.on('request', (req) => { if (req.resourceType() === 'script') scripts.add(req.url()) })
      await page.goto(`${server.origin}/login`)
      await page.getByRole('button', { name: 'Log in' }).waitFor()
      await page.waitForLoadState('networkidle')
      assert.ok(scripts.size > 0)

      let transferred = 0
      let raw = 0
      for (const url of scripts) {
        const br = await rawGet(url, { 'accept-encoding': 'br' })
        assert.equal(br.status, 200, url)
        assert.equal(br.headers['content-encoding'], 'br', url)
        assert.match(String(br.headers['content-type']), /javascript/)
        assert.equal(br.headers.vary, 'Accept-Encoding')
        // The file built by `pnpm build`, as it is: nothing compressed per request.
        const name = new URL(url).pathname.split('/').pop()!
        assert.ok(br.body.equals(readFileSync(join(ASSETS, `${name}.br`))), `${name} is sent as its precompressed .br`)
        const plain = readFileSync(join(ASSETS, name))
        assert.ok(brotliDecompressSync(br.body).equals(plain))
        const gz = await rawGet(url, { 'accept-encoding': 'gzip, deflate' })
        assert.equal(gz.headers['content-encoding'], 'gzip')
        assert.ok(gunzipSync(gz.body).equals(plain))
        const identity = await rawGet(url, {})
        assert.equal(identity.headers['content-encoding'], undefined)
        assert.equal(identity.body.length, plain.length)
        transferred += br.body.length
        raw += plain.length
      }
      console.log(`login screen JavaScript: ${scripts.size} file(s), ${(raw / 1024).toFixed(1)} KB, ${(transferred / 1024).toFixed(1)} KB with Brotli`)
      assert.ok(transferred <= LOGIN_JS_BUDGET, `the login screen's JavaScript transfers ${transferred} bytes with Brotli, over ${LOGIN_JS_BUDGET}`)

      // JSON above the threshold: Brotli or gzip, as asked; a small answer goes as it is.
      const token = await server.login(DEMO.agent.email, DEMO.agent.password)
      const auth = { authorization: `Bearer ${token}` }
      const list = await rawGet(`${server.api}/tickets?per_page=50&include=user,category,agent`, { ...auth, 'accept-encoding': 'br' })
      assert.equal(list.status, 200)
      assert.equal(list.headers['content-encoding'], 'br')
      const decoded = brotliDecompressSync(list.body)
      assert.ok(decoded.length > 1024 && list.body.length < decoded.length / 2, `${list.body.length} of ${decoded.length} bytes`)
      assert.ok(Array.isArray(JSON.parse(decoded.toString('utf8')).data))
      const gzipped = await rawGet(`${server.api}/tickets?per_page=50`, { ...auth, 'accept-encoding': 'gzip' })
      assert.equal(gzipped.headers['content-encoding'], 'gzip')
      assert.ok(Array.isArray(JSON.parse(gunzipSync(gzipped.body).toString('utf8')).data))
      const small = await rawGet(`${server.api}/auth/me`, { ...auth, 'accept-encoding': 'br' })
      assert.equal(small.headers['content-encoding'], undefined, 'below the threshold')
      // Pages and the OpenAPI document too.
      const kb = await rawGet(`${server.origin}/kb`, { 'accept-encoding': 'br' })
      assert.equal(kb.status, 200)
      assert.equal(kb.headers['content-encoding'], 'br')
      assert.match(brotliDecompressSync(kb.body).toString('utf8'), /<html/)
      const openapi = await rawGet(`${server.api}/openapi.json`, { 'accept-encoding': 'gzip' })
      if (openapi.status === 200) assert.equal(openapi.headers['content-encoding'], 'gzip')
    })
  })
}
