import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects
} from './harness.js'

const LITERAL = 'Template shows <div class="x"> literally'
/** One unbroken 1,000-character word (for bodies), and the longest subject, one word of 250. */
const LONG_WORD = `Unbroken${'x'.repeat(992)}`
const LONG_SUBJECT = LONG_WORD.slice(0, 250)

/** The page never scrolls sideways: nothing is wider than the viewport. */
async function keepsViewportWidth (page: Page, label: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }))
  assert.ok(scrollWidth <= clientWidth, `${label}: the page is ${scrollWidth} px wide in a viewport of ${clientWidth} px`)
}

for (const dialect of testDialects()) {
  describe(`text fidelity in Chromium on ${dialect}`, () => {
    it('a subject that looks like HTML round-trips as typed everywhere, and a 1,000-character word wraps on every screen', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const browser = await launchBrowser(t)

      // Typed by a customer in the portal's form: stored as text (`<` escaped on the wire, CONTRACT §17), shown as typed.
      const customer = await openPage(browser)
      await logIn(customer.page, server.origin, DEMO.customer.email, DEMO.customer.password)
      await customer.page.goto(`${server.origin}/portal/new`)
      await customer.page.getByLabel('Category').selectOption({ label: 'General' })
      await customer.page.getByLabel('Subject').fill(LITERAL)
      await customer.page.getByLabel('Describe the problem').fill('The <div> shows up in the page.')
      await customer.page.getByRole('button', { name: 'Submit ticket' }).click()
      const heading = customer.page.getByRole('heading', { level: 1 })
      await heading.filter({ hasText: 'Template shows' }).waitFor()
      assert.match(await heading.textContent() ?? '', /^#\d+ Template shows <div class="x"> literally$/)
      const id = Number(/^#(\d+)/.exec(await heading.textContent() ?? '')![1])
      const stored = await server.call('GET', `/tickets/${id}`)
      assert.equal(stored.title, 'Template shows &lt;div class="x"&gt; literally', 'the API answers the text, < and > escaped: never stripped')
      assert.equal(await customer.page.locator('div.x').count(), 0, 'nothing of the subject became an element')

      const categories = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number, name: string }>
      const general = categories.find((c) => c.name === 'General')!
      const long = await server.call('POST', '/tickets', { category: general.id, title: LONG_SUBJECT, body: `<p>${LONG_WORD}</p>` }, customerToken)

      // The agent's inbox and ticket page, wide and on a phone.
      for (const viewport of [{ width: 1280, height: 860 }, { width: 360, height: 740 }]) {
        const agent = await openPage(browser, { viewport })
        await logIn(agent.page, server.origin, DEMO.agent.email, DEMO.agent.password)
        await agent.page.getByRole('link', { name: LITERAL }).waitFor()
        await agent.page.getByRole('link', { name: LONG_SUBJECT }).waitFor()
        await keepsViewportWidth(agent.page, `inbox at ${viewport.width} px`)
        if (viewport.width === 1280) {
          await expectAccessible(agent.page, 'inbox with long subjects')
          await screenshot(agent.page, `console-long-subject-${dialect}`)
        }
        await agent.page.goto(`${server.origin}/tickets/${long.id}`)
        await agent.page.getByRole('heading', { level: 1, name: new RegExp(LONG_SUBJECT) }).waitFor()
        await agent.page.getByText(LONG_WORD).first().waitFor()
        await keepsViewportWidth(agent.page, `ticket at ${viewport.width} px`)
        await agent.page.goto(`${server.origin}/tickets/${id}`)
        assert.equal(await agent.page.getByRole('heading', { level: 1 }).filter({ hasText: 'Template shows' }).textContent(), `#${id} ${LITERAL}`)
        await agent.context.close()
      }

      // The public knowledge base: an article's title and a collection's name as typed.
      const collection = await server.call('POST', '/article-collections', { category_id: general.id, name: 'Using <template> tags', visibility: 1 })
      await server.call('POST', '/articles', { category: general.id, collection: collection.id, title: `${LITERAL} in mail`, body: `<p>${LONG_WORD}</p>`, status: 'published' })
      const reader = await openPage(browser, { javaScript: false, viewport: { width: 360, height: 740 } })
      await reader.page.goto(`${server.origin}/kb`)
      await reader.page.getByRole('link', { name: 'Using <template> tags' }).click()
      await reader.page.getByRole('link', { name: `${LITERAL} in mail` }).click()
      assert.equal(await reader.page.locator('main h1').textContent(), `${LITERAL} in mail`)
      await keepsViewportWidth(reader.page, 'knowledge-base article at 360 px')
      assert.deepEqual(customer.problems.filter((p) => !p.includes('401')), [])
    })
  })
}
