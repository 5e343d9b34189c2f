import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { CONTENT_SECURITY_POLICY, KB_CONTENT_SECURITY_POLICY } from '../../src/server/index.js'
import { buildWebApp, eachDialect } from './helpers.js'
import { PIXEL_PNG, startImageServer } from './image-server.js'

const proxied = (url: string): string => `/remote-image?url=${encodeURIComponent(url)}`

eachDialect((dialect) => {
  describe(`the console's remote-image proxy on ${dialect}`, () => {
    it('serves a remote raster image to a signed-in reader, from this origin, with a sandbox policy; nothing else', async (t) => {
      const remote = await startImageServer(t)
      const h = await buildWebApp(t, dialect, { remoteImages: { allowPrivateTargets: true } })
      const cookie = await h.sessionCookie((await h.user('customer')).email)
      const get = async (url: string, headers: Record<string, string> = { cookie }) => await h.app.inject({ method: 'GET', url: proxied(url), headers })

      const image = await get(`${remote.origin}/pixel.png?t=1`)
      assert.equal(image.statusCode, 200, image.body)
      assert.equal(image.headers['content-type'], 'image/png')
      assert.deepEqual(image.rawPayload, PIXEL_PNG)
      assert.equal(image.headers['content-security-policy'], "default-src 'none'; sandbox")
      assert.equal(image.headers['x-content-type-options'], 'nosniff')
      assert.equal(image.headers['cache-control'], 'private, max-age=86400')
      const asked = remote.requests.at(-1)!
      assert.equal(asked.url, '/pixel.png?t=1')
      assert.equal(asked.headers.cookie, undefined, 'the reader\'s cookie stays here')
      assert.equal(asked.headers.referer, undefined)
      assert.equal(asked.headers['user-agent'], 'helpdesk-image-proxy')

      const redirected = await get(`${remote.origin}/redirect`)
      assert.equal(redirected.statusCode, 200)
      assert.equal(remote.requests.at(-1)!.url, '/pixel.png?redirected')

      const before = remote.requests.length
      const anonymous = await get(`${remote.origin}/pixel.png`, {})
      assert.equal(anonymous.statusCode, 401)
      assert.deepEqual(anonymous.json(), { message: 'Unauthenticated.' })
      assert.equal(remote.requests.length, before, 'nothing fetched for an anonymous caller')

      for (const bad of ['', 'javascript:alert(1)', 'file:///etc/passwd', 'ftp://example.com/a.png', '/relative.png', `http://user:pass@127.0.0.1/a.png`, `https://example.com/${'a'.repeat(2100)}`]) {
        const res = await get(bad)
        assert.equal(res.statusCode, 400, bad)
        assert.match(res.json().message, /must be an http or https URL/)
      }
      for (const [path, message] of [['/page.html', /did not answer a PNG/], ['/logo.svg', /did not answer a PNG/], ['/nothing', /answered HTTP 404/], ['/loop', /redirects too often/]] as const) {
        const res = await get(`${remote.origin}${path}`)
        assert.equal(res.statusCode, 502, path)
        assert.match(res.json().message, message, path)
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', 'never the remote\'s bytes')
      }
    })

    it('refuses private addresses by default, even after a redirect, and keeps to its size and time limits', async (t) => {
      const remote = await startImageServer(t, 4096)
      const h = await buildWebApp(t, dialect, { remoteImages: { maxBytes: 1024, timeoutMs: 500 } })
      const cookie = await h.sessionCookie((await h.user('agent')).email)
      const get = async (url: string) => await h.app.inject({ method: 'GET', url: proxied(url), headers: { cookie } })
      for (const url of [`${remote.origin}/pixel.png`, 'http://10.1.2.3/a.png', 'http://[::1]/a.png', 'http://169.254.169.254/latest/meta-data', 'http://localhost:1/a.png']) {
        const res = await get(url)
        assert.equal(res.statusCode, 403, `${url}: ${res.body}`)
        assert.match(res.json().message, /not a public address/)
      }
      assert.equal(remote.requests.length, 0)

      const open = await h.anotherInstance({ remoteImages: { maxBytes: 1024, timeoutMs: 500, allowPrivateTargets: true } })
      const openGet = async (url: string) => await open.app.inject({ method: 'GET', url: proxied(url), headers: { cookie } })
      const big = await openGet(`${remote.origin}/big.png`)
      assert.equal(big.statusCode, 502)
      assert.match(big.json().message, /larger than 1024 bytes/)
      const started = Date.now()
      const slow = await openGet(`${remote.origin}/slow`)
      assert.equal(slow.statusCode, 504)
      assert.match(slow.json().message, /within 500 ms/)
      assert.ok(Date.now() - started < 3000)
      const toPrivate = await h.app.inject({ method: 'GET', url: proxied(`${remote.origin}/to-private`), headers: { cookie } })
      assert.equal(toPrivate.statusCode, 403, 'the first hop is refused already (127.0.0.1)')
    })

    it('counts images against a budget per IP, and is absent when switched off', async (t) => {
      const remote = await startImageServer(t)
      const h = await buildWebApp(t, dialect, { remoteImages: { allowPrivateTargets: true }, rateLimit: { imageMax: 2 } })
      const cookie = await h.sessionCookie((await h.user('customer')).email)
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) statuses.push((await h.app.inject({ method: 'GET', url: proxied(`${remote.origin}/pixel.png?${i}`), headers: { cookie } })).statusCode)
      assert.deepEqual(statuses, [200, 200, 429])
      const off = await h.anotherInstance({ remoteImages: false })
      const res = await off.app.inject({ method: 'GET', url: proxied(`${remote.origin}/pixel.png`), headers: { cookie } })
      assert.equal(res.statusCode, 404)
      // The console learns where the proxy is (or that there is none) from its page.
      assert.match((await off.app.inject({ method: 'GET', url: '/' })).body, /<meta name="helpdesk-remote-images" content="">/)
      assert.match((await h.app.inject({ method: 'GET', url: '/tickets/1' })).body, /<meta name="helpdesk-remote-images" content="\/remote-image">/)
    })

    it('serves the console under a policy that loads no image from another host; KB pages keep https images', async (t) => {
      const h = await buildWebApp(t, dialect)
      const console = await h.app.inject({ method: 'GET', url: '/tickets/1' })
      assert.equal(console.headers['content-security-policy'], CONTENT_SECURITY_POLICY)
      const imgSrc = CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith('img-src '))
      assert.equal(imgSrc, "img-src 'self' data:")
      const kb = await h.app.inject({ method: 'GET', url: '/kb' })
      assert.equal(kb.headers['content-security-policy'], KB_CONTENT_SECURITY_POLICY)
      assert.match(KB_CONTENT_SECURITY_POLICY, /img-src 'self' data: https:/)
    })
  })
})
