import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'

/** A 1×1 PNG. */
export const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

export interface ImageServer {
  /** `http://127.0.0.1:PORT` */
  origin: string
  /** Every request it received: path with query, and headers. */
  requests: Array<{ url: string, headers: IncomingHttpHeaders }>
}

/**
 * A "remote" host on 127.0.0.1 that counts what it is asked for: `/pixel.png`
 * (any query), `/page.html`, `/logo.svg`, `/big.png` (a PNG of `bigBytes`),
 * `/slow` (never answers), `/redirect` (to `/pixel.png`), `/loop` (to itself),
 * `/to-private` (to 10.0.0.1); closed after the test.
 */
export async function startImageServer (t: TestContext, bigBytes = 64 * 1024): Promise<ImageServer> {
  const requests: ImageServer['requests'] = []
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers })
    const path = (req.url ?? '').split('?')[0]
    if (path === '/pixel.png') { res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL_PNG); return }
    if (path === '/page.html') { res.writeHead(200, { 'content-type': 'image/png' }).end('<html><script>alert(1)</script></html>'); return }
    if (path === '/logo.svg') { res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'); return }
    if (path === '/big.png') { res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PIXEL_PNG, Buffer.alloc(bigBytes)])); return }
    if (path === '/slow') return
    if (path === '/redirect') { res.writeHead(302, { location: '/pixel.png?redirected' }).end(); return }
    if (path === '/loop') { res.writeHead(302, { location: '/loop' }).end(); return }
    if (path === '/to-private') { res.writeHead(302, { location: 'http://10.0.0.1/pixel.png' }).end(); return }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}
