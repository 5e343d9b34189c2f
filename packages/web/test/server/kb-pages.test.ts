import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { CONTENT_SECURITY_POLICY } from '../../src/server/index.js'
import { buildWebApp, eachDialect, expectHtml, type WebTestApp } from './helpers.js'

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
      const h = await buildWebApp(t, dialect)
      const kb = await knowledgeBase(h)
      const res = await h.app.inject({ method: 'GET', url: '/kb', headers: { host: 'help.example.com', 'x-forwarded-proto': 'https' } })
      const page = expectHtml(res)
      assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY)
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
      const sitemap = await h.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'help.example.com', cookie } })
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
  })
})
