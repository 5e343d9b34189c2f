/**
 * Writes what the help desk shows the outside world, for a fixed scenario, into
 * a directory, so two builds can be compared byte for byte (issue 30: the
 * OpenAPI document, the webhook payloads and the console's rendered HTML stay
 * identical through a refactoring):
 *
 *   node --import tsx packages/fastify/scripts/wire-snapshot.ts /tmp/shapes-before
 *   node --import tsx packages/fastify/scripts/wire-snapshot.ts /tmp/shapes-after
 *   diff -r /tmp/shapes-before /tmp/shapes-after
 *
 * Runs on SQLite with a fixed clock and fixed people, so ids, times and
 * avatar URLs repeat. Run `pnpm build` first (the console's assets are read
 * from packages/web/dist/app).
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, relative } from 'node:path'
import type { TestContext } from 'node:test'
import Fastify from 'fastify'
import { createHelpdesk } from '@helpdesk/core'
import helpdeskPlugin from '../src/index.js'
import helpdeskWeb from '../../web/dist/server/index.js'
import { buildApp, manualClock, testHasher } from '../test/helpers.js'
import { expectStatus } from '../test/http-assertions.js'

const out = process.argv[2]
if (out === undefined) throw new Error('usage: wire-snapshot.ts <directory>')
mkdirSync(out, { recursive: true })

const cleanups: Array<() => unknown> = []
const t = { after: (fn: () => unknown) => { cleanups.push(fn) } } as unknown as TestContext

// A webhook receiver on loopback: every body, in arrival order.
const bodies: string[] = []
const sink = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => { bodies.push(Buffer.concat(chunks).toString('utf8')); res.writeHead(200).end('ok') })
})
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve))
const hookUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hook`

const clock = manualClock(Date.parse('2030-01-01T09:00:00Z'))
const h = await buildApp(t, 'sqlite', { clock, workers: false, webhooks: { allowPrivateTargets: true, backoff: () => 0 } })

const step = (): void => { clock.advance(61_000) }
const admin = await h.user('admin', { first_name: 'Ada', last_name: 'Admin', email: 'ada@example.com' })
step()
const agent = await h.user('agent', { first_name: 'Gus', last_name: 'Agent', email: 'gus@example.com' })
step()
const alice = await h.user('customer', { first_name: 'Alice', last_name: 'Liddell', email: 'alice@example.com' })
step()
const post = async (url: string, token: string, payload: object, status = 201, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE' = 'POST'): Promise<any> => {
  const res = await h.inject({ method, url: `/api/v1${url}`, token, payload })
  step()
  return expectStatus(res, status).data
}

await post('/webhooks', admin.token, { url: hookUrl, events: ['*'], description: 'snapshot' })
const billing = await post('/categories', admin.token, { name: 'Billing' })
await post('/fields', admin.token, { type: 'text', title: 'Order number', categories: [billing.id] })
await h.store.users.setCategories(agent.user.id, [billing.id])
const ticket = await post('/tickets', alice.token, { title: 'Refund please', body: '<p>I was charged twice.</p>', category: billing.id })
await post(`/tickets/${ticket.id}/comments`, agent.token, { body: '<p>Looking into it.</p>', type: 1, private: false })
await post(`/tickets/${ticket.id}/comments`, agent.token, { body: '<p>Internal: refund approved.</p>', type: 2, private: true })
await post(`/tickets/${ticket.id}`, agent.token, { status: 2 }, 200)
await post(`/customers/${alice.user.id}/notes`, admin.token, { note: 'VIP customer.' })
await post('/customers', admin.token, { first_name: 'Bob', last_name: 'Builder', email: 'bob@example.com', password: 'bob-password-1', password_confirmation: 'bob-password-1' })
const collection = await post('/article-collections', admin.token, { category_id: billing.id, name: 'Refunds', visibility: 1 })
const article = await post('/articles', admin.token, { category: billing.id, collection: collection.id, title: 'How refunds work', body: '<p>Within 5 days.</p>', status: 'published', tags: ['refunds'] })
await post(`/articles/${article.id}`, admin.token, { title: 'How refunds work (2030)' }, 200)
await h.helpdesk.jobs.runDue()
writeFileSync(join(out, 'webhook-bodies.json'), `${JSON.stringify(bodies.map((b) => JSON.parse(b) as unknown).sort((a: any, b: any) => a.id - b.id), null, 2)}\n`)
writeFileSync(join(out, 'webhook-bodies.raw.txt'), [...bodies].sort().join('\n') + '\n')

// The OpenAPI document, as the plugin serves it.
const openapi = await h.inject({ method: 'GET', url: '/api/v1/openapi.json' })
writeFileSync(join(out, 'openapi.json'), openapi.body)

// The console and the knowledge-base pages, as `helpdesk serve` mounts them beside the API (services of their own on the same store).
const web = Fastify({ logger: false })
await web.register(helpdeskPlugin, { helpdesk: createHelpdesk({ store: h.store, hasher: testHasher }), rateLimit: false, workers: false })
await web.register(helpdeskWeb, { prefix: '/', apiPrefix: '/api/v1', baseUrl: 'https://help.example.com', rateLimit: false })
cleanups.unshift(async () => { await web.close() })
const pages: Record<string, string> = {
  'console-index.html': '/',
  'console-deep-link.html': '/tickets/1',
  'kb-index.html': '/kb',
  'kb-collection.html': `/kb/${String(collection.id)}-refunds`,
  'kb-article.html': `/kb/articles/${String(article.slug)}`,
  'kb-search.html': '/kb/search?q=refunds',
  'sitemap.xml': '/sitemap.xml'
}
const summary: string[] = []
for (const [file, url] of Object.entries(pages)) {
  const res = await web.inject({ method: 'GET', url })
  summary.push(`${url} ${res.statusCode} ${String(res.headers['content-type'])}`)
  writeFileSync(join(out, file), res.body)
}
writeFileSync(join(out, 'pages.txt'), `${summary.join('\n')}\n`)

// The console's built assets: name, size, hash.
const root = new URL('../../web/dist/app/', import.meta.url).pathname
const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name)
  return statSync(path).isDirectory() ? walk(path) : [path]
})
const assets = walk(root).sort().map((path) => {
  const bytes = readFileSync(path)
  return `${relative(root, path)} ${bytes.length} ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`
})
writeFileSync(join(out, 'console-assets.txt'), `${assets.join('\n')}\n`)

for (const fn of cleanups.reverse()) await fn()
sink.close()
console.log(`wrote ${out}: ${bodies.length} webhook bodies, openapi ${openapi.body.length} bytes, ${assets.length} console assets`)
