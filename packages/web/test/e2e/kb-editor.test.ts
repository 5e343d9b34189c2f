import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, startConsole, testDialects
} from './harness.js'

for (const dialect of testDialects()) {
  describe(`knowledge-base editor in Chromium on ${dialect}`, () => {
    it('renames a collection and changes its visibility; the article editor previews and links to the published page', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const category = await server.call('POST', '/categories', { name: 'Help' })
      const collection = await server.call('POST', '/article-collections', { category_id: category.id, name: 'Guides', visibility: 1 })
      const article = await server.call('POST', '/articles', { category: category.id, collection: collection.id, title: 'Reset your password', body: '<p>Open <strong>Settings</strong>.</p>', status: 'published' })
      const browser = await launchBrowser(t)
      const { page, problems } = await openPage(browser)
      await logIn(page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await page.goto(`${server.origin}/knowledge-base`)

      // Rename and restrict the collection.
      await page.getByRole('button', { name: 'Edit Guides' }).click()
      const form = page.getByRole('form', { name: 'Edit collection “Guides”' })
      await form.getByLabel('Collection').fill('How-to guides')
      await form.getByLabel('Visibility').selectOption({ label: 'Logged-in users' })
      await form.getByRole('button', { name: 'Save' }).click()
      await page.getByRole('cell', { name: 'How-to guides', exact: true }).waitFor()
      const changed = await server.call('GET', `/article-collections/${collection.id}`)
      assert.deepEqual([changed.name, changed.visibility], ['How-to guides', 2])

      // The article editor: a live preview (sandboxed) and the published page's link.
      await page.getByRole('button', { name: 'Articles How-to guides' }).click()
      await page.getByRole('button', { name: 'Edit Reset your password' }).click()
      const preview = page.frameLocator('iframe[title="Preview"]')
      assert.equal(await preview.locator('h1').textContent(), 'Reset your password')
      assert.equal(await preview.locator('strong').textContent(), 'Settings')
      // The body is the rich-text editor: Markdown shortcuts as typed, the preview follows.
      const body = page.getByLabel('Body', { exact: true })
      await page.locator('.rich-text [contenteditable="true"]').waitFor()
      await body.click()
      await page.keyboard.press('ControlOrMeta+a')
      await page.keyboard.type('Choose *Forgot password* now.')
      await preview.locator('em', { hasText: 'Forgot password' }).waitFor()
      // The frame is sandboxed: a handler in the body (which the editor cannot produce) would not run either.
      assert.equal(await page.locator('iframe[title="Preview"]').getAttribute('sandbox'), '')
      const link = page.getByRole('link', { name: 'View the published page' })
      assert.equal(await link.getAttribute('href'), `/kb/articles/${article.slug}`)
      await expectAccessible(page, 'article editor with preview')
      const published = await page.request.get(`${server.origin}/kb/articles/${article.slug}`)
      assert.equal(published.status(), 200, 'the admin (signed in) reads the page the link names')
      assert.match(await published.text(), /Reset your password/)
      assert.deepEqual(problems.filter((p) => !p.includes('401') && !/Failed to load resource|Blocked script execution in 'about:srcdoc'/.test(p)), [])
    })
  })
}
