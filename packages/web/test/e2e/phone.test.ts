import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import {
  chromiumOrSkip, DEMO, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects
} from './harness.js'

const PHONE = { width: 360, height: 740 }

/** In the page: the viewport's width, the page's, and the visible elements that reach past the viewport. */
const MEASURE = `(() => {
  const width = document.documentElement.clientWidth
  const hidden = (el) => {
    for (let node = el; node !== null; node = node.parentElement) {
      if (node.matches('.visually-hidden, .skip-link, dialog:not([open])')) return true
      const style = getComputedStyle(node)
      if (style.clip !== 'auto' && style.position === 'absolute') return true
    }
    return false
  }
  const offenders = []
  for (const el of Array.from(document.querySelectorAll('body *'))) {
    const rect = el.getBoundingClientRect()
    if (rect.width === 0 || rect.height === 0) continue
    if (rect.right <= width + 0.5 && rect.left >= -0.5) continue
    if (hidden(el)) continue
    const classes = typeof el.className === 'string' && el.className.trim() !== '' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''
    offenders.push(el.tagName.toLowerCase() + (el.id !== '' ? '#' + el.id : '') + classes + ' [' + Math.round(rect.left) + ', ' + Math.round(rect.right) + '] "' + (el.textContent ?? '').trim().slice(0, 40) + '"')
  }
  return { width, scrollWidth: document.documentElement.scrollWidth, offenders }
})()`

/**
 * Every element of the page within the viewport's width (what a visually
 * hidden or clipped element holds aside): the page never scrolls sideways and
 * nothing is cut off at its right edge.
 */
async function nothingWiderThanViewport (page: Page, screen: string): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {})
  // A string, evaluated as is: the test's compiler would wrap named functions in helpers the page lacks.
  const result = await page.evaluate(MEASURE) as { width: number, scrollWidth: number, offenders: string[] }
  assert.ok(result.scrollWidth <= result.width, `${screen}: the page is ${result.scrollWidth} px wide at ${result.width} px`)
  assert.deepEqual(result.offenders.slice(0, 8), [], `${screen}: elements wider than the ${result.width} px viewport`)
}

for (const dialect of testDialects()) {
  describe(`phone width (360 × 740) in Chromium on ${dialect}`, () => {
    it('no screen has an element wider than the viewport; tables become cards', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const categories = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number, name: string }>
      const ticket = await server.call('POST', '/tickets', { category: categories[0]!.id, title: 'Phone-sized ticket with a rather long subject line', body: 'Body.' }, customerToken)
      const customers = await server.call('GET', '/customers?per_page=1') as Array<{ id: number }>
      await server.call('POST', '/fields', { title: 'Operating system', type: 'select-box', options: ['Linux', 'macOS', 'Windows'], categories: [categories[0]!.id] })
      const collection = await server.call('POST', '/article-collections', { category_id: categories[0]!.id, name: 'Phone guides', visibility: 1 })
      const article = await server.call('POST', '/articles', { category: categories[0]!.id, collection: collection.id, title: 'Phone first steps', body: '<p>Hello.</p>', status: 'published' })
      const browser = await launchBrowser(t)
      const visit = async (page: Page, path: string, prepare?: () => Promise<void>) => {
        await page.goto(`${server.origin}${path}`)
        await prepare?.()
        await nothingWiderThanViewport(page, path)
      }

      // Signed out, and the public knowledge base.
      const visitor = await openPage(browser, { viewport: PHONE })
      for (const path of ['/login', '/register', '/forgot-password', '/reset-password', '/sign-in/email', '/satisfaction', '/kb', `/kb/articles/${article.slug}`, '/kb/search?q=steps']) {
        await visit(visitor.page, path)
      }

      // An administrator sees every staff screen.
      const admin = await openPage(browser, { viewport: PHONE })
      await logIn(admin.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      const adminScreens = ['/', `/tickets/${ticket.id}`, '/customers', `/customers/${customers[0]!.id}`, '/agents', '/categories', '/fields',
        '/canned-responses', '/knowledge-base', '/imports', '/notifications', '/sessions', '/security', '/sign-in-settings', '/survey-settings', '/no-such-screen']
      for (const path of adminScreens) await visit(admin.page, path)
      // Screens with more opened: the menu, a collection's articles and the article editor, an agent's access.
      await visit(admin.page, '/', async () => { await admin.page.getByRole('button', { name: 'Menu' }).click() })
      await visit(admin.page, '/knowledge-base', async () => {
        await admin.page.getByRole('button', { name: 'Articles Phone guides' }).click()
        await admin.page.getByRole('button', { name: 'Edit Phone first steps' }).click()
      })
      await visit(admin.page, '/agents', async () => { await admin.page.getByRole('button', { name: /^Permissions and categories of/ }).first().click() })
      await admin.page.goto(`${server.origin}/categories`)
      await admin.page.locator('.data-table').waitFor()
      assert.equal(await admin.page.evaluate('getComputedStyle(document.querySelector(".data-table tr")).display'), 'block', 'a table row is a card')
      await screenshot(admin.page, `console-phone-categories-${dialect}`)

      // A customer's portal.
      const customer = await openPage(browser, { viewport: PHONE })
      await logIn(customer.page, server.origin, DEMO.customer.email, DEMO.customer.password)
      for (const path of ['/portal', '/portal/new', `/portal/tickets/${ticket.id}`, '/notifications', '/sessions', '/security']) await visit(customer.page, path)
    })
  })
}
