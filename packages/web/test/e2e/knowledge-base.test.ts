import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, openPage, screenshot, startConsole, testDialects, type ConsoleServer
} from './harness.js'

/** A public collection with a published article and a draft, and a signed-in-only collection. */
async function knowledgeBase (server: ConsoleServer) {
  const category = await server.call('POST', '/categories', { name: 'Getting help' })
  const open = await server.call('POST', '/article-collections', { category_id: category.id, name: 'Accounts and billing', visibility: 1 })
  const members = await server.call('POST', '/article-collections', { category_id: category.id, name: 'Members only', visibility: 2 })
  const article = async (collection: number, title: string, status: string, body: string) =>
    await server.call('POST', '/articles', { category: category.id, collection, title, body, status })
  const published = await article(open.id, 'Resetting a forgotten password',
    'published', '<p>Open <strong>Settings</strong>, then <em>Security</em>, and choose <a href="https://example.com/reset">Reset password</a>.</p><ul><li>The link is valid for an hour.</li><li>Check the spam folder.</li></ul>')
  await article(open.id, 'Downloading invoices', 'published', '<p>Invoices are under Billing, then Invoices, as PDF files.</p>')
  const draft = await article(open.id, 'Unreleased pricing', 'draft', '<p>Password prices nobody may read yet.</p>')
  const membersOnly = await article(members.id, 'Members discount code', 'published', '<p>Use the password discount at checkout.</p>')
  return { open, members, published, draft, membersOnly }
}

for (const dialect of testDialects()) {
  describe(`knowledge-base pages in Chromium on ${dialect}`, () => {
    it('work without JavaScript, hide drafts, and show more to a signed-in reader until logout', async (t) => {
      if (!chromiumOrSkip(t)) return
      // The public URL readers use (a proxy's, say): canonical links and the sitemap name it, not the address the test connects to.
      const publicUrl = 'https://help.example.test'
      const server = await startConsole(t, dialect, { HELPDESK_WEB_URL: publicUrl })
      const kb = await knowledgeBase(server)
      const browser = await launchBrowser(t)

      await t.test('browsing and searching with JavaScript off', async () => {
        const { page } = await openPage(browser, { javaScript: false })
        await page.goto(`${server.origin}/kb`)
        assert.equal(await page.title(), 'Knowledge base · Help desk')
        assert.equal(await page.getAttribute('link[rel=canonical]', 'href'), `${publicUrl}/kb`)
        assert.equal(await page.locator('main h1').textContent(), 'Knowledge base')
        assert.equal(await page.getByRole('link', { name: 'Members only' }).count(), 0)

        await page.getByRole('link', { name: 'Accounts and billing' }).click()
        assert.equal(new URL(page.url()).pathname, `/kb/${kb.open.id}-accounts-and-billing`)
        assert.equal(await page.getByRole('link', { name: 'Unreleased pricing' }).count(), 0, 'no draft in the collection')
        await page.getByRole('link', { name: 'Resetting a forgotten password' }).click()
        assert.equal(await page.locator('main h1').textContent(), 'Resetting a forgotten password')
        assert.match(await page.getAttribute('meta[name=description]', 'content') ?? '', /^Open Settings, then Security/)

        await page.getByRole('searchbox', { name: 'Search articles' }).fill('password')
        await page.getByRole('button', { name: 'Search' }).click()
        assert.equal(new URL(page.url()).pathname, '/kb/search')
        const results = await page.locator('main ol.articles a').allTextContents()
        assert.deepEqual(results, ['Resetting a forgotten password'], 'the draft and the members-only article are not found')

        const draft = await page.goto(`${server.origin}/kb/articles/${kb.draft.slug}`)
        assert.equal(draft?.status(), 404)
        const sitemap = await (await fetch(`${server.origin}/sitemap.xml`)).text()
        assert.ok(sitemap.includes(`<loc>${publicUrl}/kb/articles/${kb.published.slug}</loc>`))
        assert.ok(!sitemap.includes(kb.draft.slug) && !sitemap.includes(kb.membersOnly.slug))
      })

      await t.test('every page passes axe-core (no serious or critical violation), on a desktop and a phone', async () => {
        // axe-core runs as a script, so this pass has JavaScript on; the pages themselves have none.
        const pages: Array<[string, string]> = [
          ['kb-collections', '/kb'],
          ['kb-collection', `/kb/${kb.open.id}-accounts-and-billing`],
          ['kb-article', `/kb/articles/${kb.published.slug}`],
          ['kb-search', '/kb/search?q=password'],
          ['kb-not-found', '/kb/articles/no-such-article']
        ]
        for (const viewport of [{ width: 1280, height: 860 }, { width: 390, height: 844 }]) {
          const { page, problems } = await openPage(browser, { viewport })
          for (const [name, path] of pages) {
            await page.goto(`${server.origin}${path}`)
            await expectAccessible(page, `${path} at ${viewport.width}px`)
            await screenshot(page, `${name}-${viewport.width}-${dialect}`)
          }
          assert.deepEqual(problems.filter((p) => !p.includes('404')), [], 'no CSP violation or script error')
        }
      })

      await t.test('a session cookie in the browser: HttpOnly, shows members-only pages, ends at logout', async () => {
        const { context, page, problems } = await openPage(browser)
        await page.goto(`${server.origin}/kb`)
        const session = await page.evaluate(async (credentials) => {
          const res = await fetch('/api/v1/auth/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })
          return { status: res.status, body: await res.json() as { data: { csrf_token: string } }, cookie: document.cookie }
        }, DEMO.customer)
        assert.equal(session.status, 200)
        assert.ok(!session.cookie.includes('helpdesk_session'), 'scripts cannot read the session cookie')
        const [cookie] = (await context.cookies()).filter((c) => c.name === 'helpdesk_session')
        assert.ok(cookie?.httpOnly && cookie.sameSite === 'Lax' && cookie.path === '/')

        await page.goto(`${server.origin}/kb`)
        await page.getByRole('link', { name: 'Members only' }).click()
        await page.getByRole('link', { name: 'Members discount code' }).click()
        assert.equal(await page.locator('main h1').textContent(), 'Members discount code')
        assert.match(await page.locator('.account').textContent() ?? '', /Signed in as/)

        const withoutCsrf = await page.evaluate(async () => (await fetch('/api/v1/auth/session', { method: 'DELETE' })).status)
        assert.equal(withoutCsrf, 403, 'logout needs the CSRF token')
        const out = await page.evaluate(async (csrf) => (await fetch('/api/v1/auth/session', { method: 'DELETE', headers: { 'x-csrf-token': csrf } })).status, session.body.data.csrf_token)
        assert.equal(out, 200)
        await page.goto(`${server.origin}/kb`)
        assert.equal(await page.getByRole('link', { name: 'Members only' }).count(), 0)
        assert.equal((await page.goto(`${server.origin}/kb/articles/${kb.membersOnly.slug}`))?.status(), 404)
        assert.deepEqual(problems.filter((p) => !p.includes('403') && !p.includes('404')), [])
      })
    })
  })
}
