import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { KB_CONTENT_SECURITY_POLICY } from '../../src/server/index.js'
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'
import { anonymous, articleList, createHelpdesk, parseListQuery } from '@helpdesk/core'
import { createKnexStore } from '@helpdesk/store-knex'
import { resolveOptions } from '../../src/server/options.js'
import { KnowledgeBaseReader } from '../../src/server/kb/reader.js'
import { SitemapCache, SITEMAP_MAX_AGE_MS, SITEMAP_STAMP_MS } from '../../src/server/kb/sitemap.js'
import { buildWebApp, eachDialect, expectHtml, type WebTestApp } from './helpers.js'

const REDIS_URL = process.env.HELPDESK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Whether a Redis answers PING at `url`. */
async function redisAnswers (url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return await new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379), timeout: 1000 })
    socket.once('connect', () => { socket.write('PING\r\n') })
    socket.once('data', (data) => { socket.destroy(); resolve(data.toString().startsWith('+PONG')) })
    socket.once('error', () => { resolve(false) })
    socket.once('timeout', () => { socket.destroy(); resolve(false) })
  })
}

/** A public and a signed-in-only collection, each with a published article, plus a draft in the public one. */
async function knowledgeBase (h: WebTestApp) {
  const admin = await h.user('admin')
  const category = await h.api('POST', '/categories', admin.token, { name: 'Billing & Plans' })
  const open = await h.api('POST', '/article-collections', admin.token, { category_id: category.id, name: 'Getting &lt;started&gt;', visibility: 1 })
  const members = await h.api('POST', '/article-collections', admin.token, { category_id: category.id, name: 'Members area', visibility: 2 })
  const article = (collection: number, title: string, status: string, body: string) =>
    h.api('POST', '/articles', admin.token, { category: category.id, collection, title, body, status })
  const published = await article(open.id, 'Reset your password', 'published', '<p>Open <strong>Settings</strong> &amp; choose reset. Unicorn.</p>')
  const draft = await article(open.id, 'Secret roadmap', 'draft', '<p>Unicorn plans nobody may read yet.</p>')
  const membersOnly = await article(members.id, 'Members discount', 'published', '<p>Unicorn discount for members.</p>')
  return { admin, category, open, members, published, draft, membersOnly }
}

eachDialect((dialect) => {
  describe(`knowledge-base pages on ${dialect}`, () => {
    it('lists the collections an anonymous reader may see, grouped by category, with title, description, canonical and lang', async (t) => {
      const h = await buildWebApp(t, dialect, { baseUrl: 'https://help.example.com' })
      const kb = await knowledgeBase(h)
      const res = await h.app.inject({ method: 'GET', url: '/kb', headers: { host: 'evil.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'http' } })
      const page = expectHtml(res)
      assert.equal(res.headers['content-security-policy'], KB_CONTENT_SECURITY_POLICY)
      assert.equal(res.headers['x-frame-options'], 'DENY')
      assert.ok(res.headers['referrer-policy'] !== undefined)
      assert.match(page, /^<!doctype html>\n<html lang="en">/)
      assert.match(page, /<title>Knowledge base · Help desk<\/title>/)
      assert.match(page, /<meta name="description" content="[^"]+">/)
      assert.match(page, /<link rel="canonical" href="https:\/\/help\.example\.com\/kb">/)
      assert.match(page, /<main id="main"/)
      assert.match(page, /<h2 id="cat-\d+">Billing &amp; Plans<\/h2>/)
      assert.ok(page.includes(`href="/kb/${kb.open.id}-getting-started">Getting &lt;started&gt;</a>`), 'names are escaped')
      assert.ok(!page.includes('Members area'), 'a level-2 collection is not shown to anonymous readers')
      assert.ok(!/<script/i.test(page) && !/ style=/i.test(page), 'no inline script or style')
    })

    it('shows a signed-in-only collection to a reader with a session cookie, not to an anonymous one', async (t) => {
      const h = await buildWebApp(t, dialect)
      const kb = await knowledgeBase(h)
      const customer = await h.user('customer')
      const cookie = await h.sessionCookie(customer.email)
      const signedIn = expectHtml(await h.app.inject({ method: 'GET', url: '/kb', headers: { cookie } }))
      assert.ok(signedIn.includes('Members area'))
      assert.ok(signedIn.includes('Signed in as'))
      const path = `/kb/${kb.members.id}-members-area`
      assert.ok(expectHtml(await h.app.inject({ method: 'GET', url: path, headers: { cookie } })).includes('Members discount'))
      expectHtml(await h.app.inject({ method: 'GET', url: path }), 404)
      expectHtml(await h.app.inject({ method: 'GET', url: '/kb/articles/members-discount' }), 404)
      assert.ok(expectHtml(await h.app.inject({ method: 'GET', url: '/kb/articles/members-discount', headers: { cookie } })).includes('Unicorn discount'))
      // A revoked session reads as anonymous again.
      const csrf = (await h.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } })).json().data.csrf_token
      await h.app.inject({ method: 'DELETE', url: '/api/v1/auth/session', headers: { cookie, 'x-csrf-token': csrf } })
      assert.ok(!expectHtml(await h.app.inject({ method: 'GET', url: '/kb', headers: { cookie } })).includes('Members area'))
    })

    it('never shows a draft: not on the collection page, the article page, search or the sitemap, even to staff', async (t) => {
      const h = await buildWebApp(t, dialect)
      const kb = await knowledgeBase(h)
      const cookie = await h.sessionCookie((await h.user('admin')).email)
      for (const headers of [{}, { cookie }]) {
        const collection = expectHtml(await h.app.inject({ method: 'GET', url: `/kb/${kb.open.id}-getting-started`, headers }))
        assert.ok(collection.includes('Reset your password') && !collection.includes('Secret roadmap'))
        expectHtml(await h.app.inject({ method: 'GET', url: `/kb/articles/${kb.draft.slug}`, headers }), 404)
        const search = expectHtml(await h.app.inject({ method: 'GET', url: '/kb/search?q=unicorn', headers }))
        assert.ok(search.includes('Reset your password'))
        assert.ok(!search.includes('Secret roadmap'))
      }
      const withSitemap = await h.anotherInstance({ baseUrl: 'http://help.example.com' })
      const sitemap = await withSitemap.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { cookie } })
      assert.equal(sitemap.statusCode, 200)
      assert.match(String(sitemap.headers['content-type']), /^application\/xml/)
      assert.ok(sitemap.body.includes(`<loc>http://help.example.com/kb/articles/${kb.published.slug}</loc>`))
      assert.ok(sitemap.body.includes(`<loc>http://help.example.com/kb/${kb.open.id}-getting-started</loc>`))
      assert.ok(!sitemap.body.includes(kb.draft.slug), 'no draft in the sitemap')
      assert.ok(!sitemap.body.includes('members'), 'no signed-in-only collection or article in the sitemap')
    })

    it('renders an article with its sanitised body, breadcrumb and canonical URL', async (t) => {
      const h = await buildWebApp(t, dialect, { baseUrl: 'https://kb.example.org/' })
      const kb = await knowledgeBase(h)
      const page = expectHtml(await h.app.inject({ method: 'GET', url: `/kb/articles/${kb.published.slug}` }))
      assert.match(page, /<title>Reset your password · Help desk<\/title>/)
      assert.match(page, /<meta name="description" content="Open Settings &amp; choose reset\. Unicorn\.">/)
      assert.ok(page.includes(`<link rel="canonical" href="https://kb.example.org/kb/articles/${kb.published.slug}">`))
      assert.ok(page.includes('<strong>Settings</strong>'))
      assert.match(page, /<nav aria-label="Breadcrumb"/)
      assert.match(page, /<h1>Reset your password<\/h1>/)
    })

    it('answers a 404 page for unknown collections and slugs, and redirects a collection to its canonical slug', async (t) => {
      const h = await buildWebApp(t, dialect)
      const kb = await knowledgeBase(h)
      for (const url of ['/kb/articles/no-such-article', '/kb/99999-nothing', '/kb/not-a-collection', '/kb/articles/%3Cscript%3E', '/kb/a/b/c']) {
        const page = expectHtml(await h.app.inject({ method: 'GET', url }), 404)
        assert.match(page, /<h1>Page not found<\/h1>/)
        assert.match(page, /<meta name="robots" content="noindex">/)
      }
      const moved = await h.app.inject({ method: 'GET', url: `/kb/${kb.open.id}-old-name` })
      assert.equal(moved.statusCode, 301)
      assert.equal(moved.headers.location, `/kb/${kb.open.id}-getting-started`)
      const search = expectHtml(await h.app.inject({ method: 'GET', url: '/kb/search?q=%3Cimg%20src%3Dx%3E' }))
      assert.ok(search.includes('value="&lt;img src=x&gt;"') && !search.includes('<img src=x>'), 'the query is escaped')
      const css = await h.app.inject({ method: 'GET', url: '/kb/static/kb.css' })
      assert.equal(css.statusCode, 200)
      assert.match(String(css.headers['content-type']), /^text\/css/)
    })

    it('never takes Host or X-Forwarded-Host for canonical links or the sitemap: the configured baseUrl, else none (issue 29)', async (t) => {
      const forged = { host: 'evil.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' }
      const h = await buildWebApp(t, dialect)
      const kb = await knowledgeBase(h)
      // Without a public URL: no canonical link (the page stays indexable), and no sitemap.
      for (const url of ['/kb', `/kb/articles/${kb.published.slug}`, `/kb/${kb.open.id}-getting-started`]) {
        const page = expectHtml(await h.app.inject({ method: 'GET', url, headers: forged }))
        assert.doesNotMatch(page, /rel="canonical"|evil\.test/, url)
        assert.doesNotMatch(page, /noindex/, url)
      }
      const none = await h.app.inject({ method: 'GET', url: '/sitemap.xml', headers: forged })
      assert.equal(none.statusCode, 404)
      assert.doesNotMatch(none.body, /evil\.test/)
      // With one: that origin, whatever the request says.
      const configured = await h.anotherInstance({ baseUrl: 'https://help.example.com/' })
      const page = expectHtml(await configured.app.inject({ method: 'GET', url: `/kb/articles/${kb.published.slug}`, headers: forged }))
      assert.ok(page.includes(`<link rel="canonical" href="https://help.example.com/kb/articles/${kb.published.slug}">`))
      assert.doesNotMatch(page, /evil\.test/)
      const sitemap = await configured.app.inject({ method: 'GET', url: '/sitemap.xml', headers: forged })
      assert.equal(sitemap.statusCode, 200)
      assert.equal(sitemap.headers['cache-control'], 'public, max-age=600')
      assert.doesNotMatch(sitemap.body, /evil\.test/)
      assert.deepEqual([...sitemap.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => new URL(m[1]!).origin).filter((o) => o !== 'https://help.example.com'), [])
      assert.throws(() => resolveOptions({ baseUrl: 'help.example.com' }, '/app'), /baseUrl must be an http/)
      assert.throws(() => resolveOptions({ baseUrl: 'javascript:alert(1)' }, '/app'), /baseUrl must be an http/)
      assert.equal(resolveOptions({ baseUrl: 'https://example.com/help/' }, '/app').baseUrl, 'https://example.com/help')
    })

    it('builds the sitemap once per change: a cached answer costs a few queries at most, and a change through another instance shows within SITEMAP_STAMP_MS', async (t) => {
      const h = await buildWebApp(t, dialect, { baseUrl: 'https://help.example.com' })
      const kb = await knowledgeBase(h)
      // 150 more public articles: two cursor pages for a build.
      for (let i = 0; i < 150; i++) await h.api('POST', '/articles', kb.admin.token, { category: kb.category.id, collection: kb.open.id, title: `Bulk ${i}`, body: '<p>Bulk.</p>', status: 'published' })
      const get = async (headers: Record<string, string> = {}) => await h.app.inject({ method: 'GET', url: '/sitemap.xml', headers })
      const first = await h.countQueries(get)
      assert.equal([...first.result.body.matchAll(/<loc>/g)].length, 1 + 1 + 151, '/kb, one collection, 151 articles')
      const cached = await h.countQueries(get)
      assert.equal(cached.result.body, first.result.body)
      assert.ok(cached.queries <= 6 && cached.queries < first.queries - 1, `a cached answer reads the stamp only: ${cached.queries} queries (the build: ${first.queries})`)
      const etag = String(first.result.headers.etag)
      assert.match(etag, /^"[\w-]+"$/)
      const notModified = await get({ 'if-none-match': etag })
      assert.equal(notModified.statusCode, 304)
      assert.equal(notModified.body, '')

      // Changes made through another instance (its own process memory) show here once the stamp is read again.
      const other = await h.anotherInstance()
      const otherApi = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
        const res = await other.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${kb.admin.token}` }, ...(payload !== undefined ? { payload } : {}) })
        assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
        return res.statusCode === 204 ? null : res.json().data
      }
      let now = 1_000_000
      const cache = new SitemapCache(h.helpdesk, 'https://help.example.com', '', () => now)
      const built = (await cache.get()).xml
      const within = await h.countQueries(async () => await cache.get())
      assert.equal(within.queries, 0, `the stamp is trusted for ${SITEMAP_STAMP_MS} ms`)
      const next = async (): Promise<string> => {
        now += SITEMAP_STAMP_MS
        return (await cache.get()).xml
      }
      assert.equal(await next(), built)
      const loc = (path: string) => `<loc>https://help.example.com${path}</loc>`
      const added = await otherApi('POST', '/articles', { category: kb.category.id, collection: kb.open.id, title: 'Brand new', body: '<p>New.</p>', status: 'published' })
      assert.ok((await next()).includes(loc(`/kb/articles/${added.slug}`)), 'a new article')
      await otherApi('PATCH', `/articles/${added.id}`, { slug: 'renamed-article' })
      let body = await next()
      assert.ok(body.includes(loc('/kb/articles/renamed-article')) && !body.includes(added.slug), 'a new slug')
      await otherApi('PATCH', `/articles/${kb.published.id}`, { status: 'draft' })
      assert.ok(!(await next()).includes(kb.published.slug), 'an article back to draft')
      await otherApi('DELETE', `/articles/${added.id}`)
      assert.ok(!(await next()).includes('renamed-article'), 'a deleted article')
      await otherApi('PATCH', `/article-collections/${kb.open.id}`, { name: 'Starting out' })
      body = await next()
      assert.ok(body.includes(loc(`/kb/${kb.open.id}-starting-out`)), 'a renamed collection')
      await otherApi('PATCH', `/article-collections/${kb.open.id}`, { visibility: 2 })
      body = await next()
      assert.equal([...body.matchAll(/<loc>/g)].length, 1, 'a collection no longer public: only /kb is left')
    })

    it('keeps a sitemap at most SITEMAP_MAX_AGE_MS when two articles change within one second (the stamp\'s blind spot)', async (t) => {
      const h = await buildWebApp(t, dialect)
      const kb = await knowledgeBase(h)
      // Every write in the same second: the article that loses the tie for "changed last" hides its change.
      const clock = { now: () => new Date(Date.UTC(2031, 0, 1)) }
      const frozenStore = createKnexStore({ url: h.databaseUrl, clock })
      t.after(async () => { await frozenStore.close() })
      const helpdesk = createHelpdesk({ store: frozenStore, clock })
      const admin = kb.admin.user
      const input = { category: kb.category.id, collection: kb.open.id, body: '<p>Same second.</p>', status: 'published' as const }
      await helpdesk.articles.create(admin, { ...input, title: 'First twin' })
      await helpdesk.articles.create(admin, { ...input, title: 'Second twin' })
      let now = 1_000_000
      const cache = new SitemapCache(helpdesk, 'https://help.example.com', '', () => now)
      const before = (await cache.get()).xml
      const latest = (await (await KnowledgeBaseReader.for(helpdesk, anonymous())).articleStamp()).latest!
      const hidden = latest.slug === 'first-twin' ? 'second-twin' : 'first-twin'
      const [article] = (await helpdesk.articles.list(admin, parseListQuery(articleList, { filters: { slug: hidden } }))).items
      await helpdesk.articles.update(admin, article!.id, { slug: `${hidden}-renamed` })
      now += SITEMAP_STAMP_MS
      assert.equal((await cache.get()).xml, before, 'the stamp did not move')
      now += SITEMAP_MAX_AGE_MS - SITEMAP_STAMP_MS - 1
      assert.equal((await cache.get()).xml, before)
      now += 1
      assert.ok((await cache.get()).xml.includes(`${hidden}-renamed`), 'rebuilt once the sitemap is SITEMAP_MAX_AGE_MS old')
    })

    it('limits pages and the sitemap, and searches apart, per client IP: 429 with Retry-After (issue 29)', async (t) => {
      const h = await buildWebApp(t, dialect, { baseUrl: 'https://help.example.com', rateLimit: { max: 3, searchMax: 2 } })
      await knowledgeBase(h)
      const get = async (url: string, ip = '203.0.113.7') => await h.app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': ip } })
      for (const url of ['/kb', '/sitemap.xml', '/kb/no-such-page']) assert.ok([200, 404].includes((await get(url)).statusCode), url)
      const limited = await get('/kb/articles/anything')
      const page = expectHtml(limited, 429)
      assert.match(page, /<h1>Too many requests<\/h1>/)
      assert.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60)
      assert.equal((await get('/sitemap.xml')).statusCode, 429, 'the sitemap counts against the same budget')
      assert.equal((await get('/kb', '203.0.113.8')).statusCode, 200, 'another IP has its own budget')
      // Searches have a budget of their own.
      assert.equal((await get('/kb/search?q=a')).statusCode, 200)
      assert.equal((await get('/kb/search?q=b')).statusCode, 200)
      assert.equal((await get('/kb/search?q=c')).statusCode, 429)
      // The console and its assets are not limited.
      assert.equal((await get('/')).statusCode, 200)
      const off = await h.anotherInstance({ rateLimit: false })
      for (let i = 0; i < 5; i++) assert.equal((await off.app.inject({ method: 'GET', url: '/kb' })).statusCode, 200)
    })

    it('shares the page budget between instances through Redis', async (t) => {
      if (!await redisAnswers(REDIS_URL)) {
        assert.notEqual(process.env.CI, 'true', `no Redis at ${REDIS_URL}`)
        t.skip(`no Redis at ${REDIS_URL}`)
        return
      }
      const rateLimit = { max: 3, redis: REDIS_URL, keyPrefix: `helpdesk-web-test-${randomBytes(6).toString('hex')}:` }
      const h = await buildWebApp(t, dialect, { rateLimit })
      const other = await h.anotherInstance({ rateLimit })
      const statuses: number[] = []
      for (const app of [h.app, other.app, h.app, other.app]) statuses.push((await app.inject({ method: 'GET', url: '/kb', headers: { 'x-forwarded-for': '198.51.100.4' } })).statusCode)
      assert.deepEqual(statuses, [200, 200, 200, 429])
    })
  })
})
