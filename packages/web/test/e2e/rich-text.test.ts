import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects
} from './harness.js'

/** A 1 × 1 PNG, as a screenshot pasted from the clipboard. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

const editorChunk = (url: string): boolean => /\/assets\/RichTextEditor-[^/]*\.js$/.test(url)

for (const dialect of testDialects()) {
  describe(`rich-text editor in Chromium on ${dialect}`, () => {
    it('Markdown shortcuts, the toolbar and a pasted image make a reply whose stored HTML has the tags; an article is written and published with it', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const category = await server.call('POST', '/categories', { name: 'Editor' })
      const ticket = await server.call('POST', '/tickets', { category: category.id, title: 'Formatting please', body: 'Can you format?' }, customerToken)
      const collection = await server.call('POST', '/article-collections', { category_id: category.id, name: 'Formatting guides', visibility: 1 })
      const browser = await launchBrowser(t)
      const { page, problems } = await openPage(browser)
      const requested: string[] = []
      page.on('request', (request) => { requested.push(request.url()) })

      // The login screen never downloads the editor.
      await page.goto(`${server.origin}/login`)
      await page.getByLabel('Email').waitFor()
      await page.waitForLoadState('networkidle')
      assert.deepEqual(requested.filter(editorChunk), [], 'the login screen does not load the editor chunk')
      await logIn(page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await page.waitForLoadState('networkidle')
      assert.deepEqual(requested.filter(editorChunk), [], 'nor does the inbox')

      await page.goto(`${server.origin}/tickets/${ticket.id}`)
      await page.getByRole('heading', { name: 'Formatting please' }).waitFor()
      const editor = page.getByRole('textbox', { name: 'Your reply' })
      await page.locator('.composer [contenteditable="true"]').waitFor()
      assert.equal(requested.filter(editorChunk).length, 1, 'the composer loaded the editor chunk')
      const toolbar = page.getByRole('toolbar', { name: 'Formatting' })

      // Markdown shortcuts as typed.
      await editor.click()
      await page.keyboard.type('Hello **bold** and `npm ci` here')
      await page.keyboard.press('Enter')
      await page.keyboard.type('- first')
      await page.keyboard.press('Enter')
      await page.keyboard.type('second')
      await page.keyboard.press('Enter')
      await page.keyboard.press('Enter')
      // The toolbar: a link on selected text (Ctrl+K opens the same form), bold by its button.
      await page.keyboard.type('the guide')
      await page.keyboard.press('Shift+Home')
      await toolbar.getByRole('button', { name: 'Link (Ctrl+K)' }).click()
      await page.getByLabel('Link address').fill('example.com/guide')
      await page.getByLabel('Link address').press('Enter')
      await editor.press('End')
      await page.keyboard.press('Enter')
      const bold = toolbar.getByRole('button', { name: 'Bold (Ctrl+B)' })
      await bold.click()
      assert.equal(await bold.getAttribute('aria-pressed'), 'true')
      await page.keyboard.type('loud')
      await bold.click()
      await page.keyboard.press('Enter')
      await page.keyboard.type('> quoted words')
      // The toolbar by keyboard: Alt+F10 reaches it, arrow keys move along it, Escape returns.
      await page.keyboard.press('Alt+F10')
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Bold (Ctrl+B)')
      await page.keyboard.press('ArrowRight')
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Italic (Ctrl+I)')
      await page.keyboard.press('Escape')
      await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'textbox')

      // A pasted image is uploaded as an attachment and shown where it was pasted.
      const paste = async (name: string) => {
        await page.evaluate(async ([base64, file]) => {
          const bytes = Uint8Array.from(atob(base64 as string), (c) => c.charCodeAt(0))
          const data = new DataTransfer()
          data.items.add(new File([bytes], file as string, { type: 'image/png' }))
          document.querySelector('.composer [contenteditable="true"]')?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
        }, [PNG, name])
      }
      await page.keyboard.press('ControlOrMeta+End')
      // One pasted and then removed from the attachment list leaves the text too.
      await paste('mistake.png')
      await page.locator('.composer [contenteditable="true"] img[alt="mistake.png"]').waitFor()
      await page.getByRole('button', { name: 'Remove mistake.png' }).click()
      await page.locator('.composer [contenteditable="true"] img[alt="mistake.png"]').waitFor({ state: 'detached' })
      await editor.focus()
      await page.keyboard.press('ControlOrMeta+End')
      await paste('screenshot.png')
      await page.locator('.composer [contenteditable="true"] img[alt="screenshot.png"]').waitFor()
      await page.locator('.composer .dropzone').getByText('screenshot.png').waitFor()
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.composer [contenteditable="true"] img')
        return img?.complete === true && img.naturalWidth === 1
      })
      await expectAccessible(page, 'ticket with the rich-text composer')
      await screenshot(page, `rich-text-composer-${dialect}`)
      await page.getByRole('button', { name: 'Send reply' }).click()
      await page.getByText('Reply sent.').waitFor()

      const comments = await server.call('GET', `/tickets/${ticket.id}/comments?include=attachments`) as Array<{ body: string, attachments?: Array<{ id: string, name: string }> }>
      const reply = comments.at(-1)!
      assert.match(reply.body, /^<p>Hello <strong>bold<\/strong> and <code>npm ci<\/code> here<\/p>/)
      assert.match(reply.body, /<ul><li><p>first<\/p><\/li><li><p>second<\/p><\/li><\/ul>/)
      assert.match(reply.body, /<p><a href="https:\/\/example\.com\/guide" rel="noopener noreferrer nofollow">the guide<\/a><\/p>/)
      assert.match(reply.body, /<p><strong>loud<\/strong><\/p>/)
      assert.match(reply.body, /<blockquote><p>quoted words<\/p>/)
      assert.deepEqual(reply.attachments?.map((a) => a.name), ['screenshot.png'], 'the pasted image is an attachment of the reply')
      assert.match(reply.body, new RegExp(`<img src="/api/v1/attachments/${reply.attachments?.[0]?.id}/download" alt="screenshot.png" />`))
      // The thread shows the formatting and the image (of this origin: not held back as a remote image).
      const entry = page.locator('.entry').filter({ hasText: 'quoted words' })
      await entry.locator('blockquote').waitFor()
      await entry.locator('img[alt="screenshot.png"]').waitFor()
      assert.equal(await entry.locator('strong', { hasText: 'loud' }).count(), 1)
      // The composer is empty again and ready for the next reply.
      assert.equal((await editor.textContent() ?? '').trim(), '')
      assert.equal(await page.getByRole('button', { name: 'Send reply' }).isDisabled(), true)

      // The article editor: the same editor (with headings), the preview and the published page follow it.
      // An older body with formatting the editor cannot hold (a table) says so before a save would drop it.
      await server.call('POST', '/articles', { category: category.id, collection: collection.id, title: 'Old table', body: '<table><tbody><tr><td>cell</td></tr></tbody></table>', status: 'draft' })
      await page.goto(`${server.origin}/knowledge-base`)
      await page.getByRole('button', { name: 'Articles Formatting guides' }).click()
      await page.getByRole('button', { name: 'Edit Old table' }).click()
      await page.getByText('This text has formatting the editor cannot keep').waitFor()
      await page.getByRole('button', { name: 'Cancel', exact: true }).click()
      await page.getByRole('button', { name: 'New article' }).click()
      await page.getByLabel('Title', { exact: true }).fill('Formatting in replies')
      const body = page.getByRole('textbox', { name: 'Body', exact: true })
      await page.locator('.rich-text [contenteditable="true"]').waitFor()
      await body.click()
      await page.keyboard.type('## Steps')
      await page.keyboard.press('Enter')
      await page.keyboard.type('1. Open **Settings** first')
      await page.keyboard.press('Enter')
      await page.keyboard.type('Save')
      const preview = page.frameLocator('iframe[title="Preview"]')
      await preview.locator('ol strong', { hasText: 'Settings' }).waitFor()
      assert.equal(await preview.locator('h2').textContent(), 'Steps')
      await page.getByLabel('Status').selectOption({ label: 'Published' })
      await expectAccessible(page, 'article editor')
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByText('Saved.').waitFor()
      const articles = (await server.call('GET', `/articles?filter[collection]=${collection.id}`) as Array<{ title: string, slug: string, body: string }>)
        .filter((a) => a.title === 'Formatting in replies')
      assert.equal(articles[0]?.body, '<h2>Steps</h2><ol><li><p>Open <strong>Settings</strong> first</p></li><li><p>Save</p></li></ol>')
      const published = await page.request.get(`${server.origin}/kb/articles/${articles[0]?.slug}`)
      assert.equal(published.status(), 200)
      const html = await published.text()
      assert.match(html, /<h2>Steps<\/h2><ol><li><p>Open <strong>Settings<\/strong> first<\/p><\/li>/)

      // Nothing on the way broke the page's CSP (Tiptap's inline <style> is off) or threw.
      assert.deepEqual(problems.filter((p) => !p.includes('401') && !/Failed to load resource/.test(p)), [])
    })

    it('at 360 px the toolbar wraps inside the composer and the page does not scroll sideways', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const categories = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number }>
      const ticket = await server.call('POST', '/tickets', { category: categories[0]!.id, title: 'Small screen', body: 'Phone.' }, customerToken)
      const browser = await launchBrowser(t)
      const { page } = await openPage(browser, { viewport: { width: 360, height: 740 } })
      await logIn(page, server.origin, DEMO.customer.email, DEMO.customer.password)
      await page.goto(`${server.origin}/tickets/${ticket.id}`)
      await page.locator('.composer [contenteditable="true"]').waitFor()
      await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Link (Ctrl+K)' }).click()
      await page.getByLabel('Link address').waitFor()
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        toolbar: document.querySelector('.rich-text-toolbar')?.getBoundingClientRect().right ?? 0,
        link: document.querySelector('.rich-text-link')?.getBoundingClientRect().right ?? 0
      }))
      assert.ok(widths.page <= 360 && widths.toolbar <= 360 && widths.link <= 360, JSON.stringify(widths))
      await expectAccessible(page, 'composer at 360 px (customer)')
      await screenshot(page, `rich-text-phone-${dialect}`)
    })
  })
}
