import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { copyFileSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects
} from './harness.js'

const DOCS_IMAGE = fileURLToPath(new URL('../../../../docs/images/console-live-inbox.png', import.meta.url))

async function viewCount (page: Page, view: string): Promise<number> {
  return Number.parseInt(await page.locator(`button[data-view="${view}"] .view-count`).textContent() ?? '', 10)
}

async function waitForCount (page: Page, view: string, count: number): Promise<void> {
  await page.waitForFunction(([v, c]) => {
    const text = document.querySelector(`button[data-view="${v}"] .view-count`)?.textContent ?? ''
    return Number.parseInt(text, 10) === c
  }, [view, count] as const, { timeout: 5000 })
}

for (const dialect of testDialects()) {
  describe(`live inbox and views in Chromium on ${dialect}`, () => {
    it('shows a customer\'s new ticket to two agents without reload, holds it behind a bar when scrolled, counts live, and keeps a saved view in the URL', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const categories = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number, name: string }>
      const general = categories.find((c) => c.name === 'General')!
      for (let i = 1; i <= 14; i++) await server.call('POST', '/tickets', { category: general.id, title: `Earlier question ${i}`, body: 'Body.' }, customerToken)

      const browser = await launchBrowser(t)
      const first = await openPage(browser)
      const second = await openPage(browser, { viewport: { width: 1280, height: 600 } })
      await logIn(first.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await logIn(second.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      for (const { page } of [first, second]) {
        await page.goto(`${server.origin}/`)
        await page.getByRole('link', { name: /Earlier question 14/ }).waitFor()
        await page.locator('button[data-view="open"] .view-count').waitFor()
      }
      const openBefore = await viewCount(first.page, 'open')
      // The second agent reads further down the list: new tickets must not move it.
      await second.page.evaluate(() => { window.scrollTo(0, document.body.scrollHeight) })
      await second.page.waitForFunction(() => (document.querySelector('table.ticket-table')?.getBoundingClientRect().top ?? 0) < 0)

      const created = Date.now()
      const ticket = await server.call('POST', '/tickets', { category: general.id, title: 'Live question', body: 'Is anyone there?' }, customerToken)
      const row = first.page.getByRole('link', { name: `#${ticket.id} Live question` })
      await row.waitFor({ timeout: 5000 })
      const shownAfter = Date.now() - created
      assert.ok(shownAfter < 2000, `the new ticket appeared after ${shownAfter} ms`)
      const bar = second.page.getByRole('button', { name: 'New tickets: 1 (show them)' })
      await bar.waitFor({ timeout: 5000 })
      const heldAfter = Date.now() - created
      assert.ok(heldAfter < 2000, `the "N new" bar appeared after ${heldAfter} ms`)
      t.diagnostic(`${dialect}: the new ticket showed after ${shownAfter} ms, the bar after ${heldAfter} ms`)
      assert.equal(await second.page.getByRole('link', { name: `#${ticket.id} Live question` }).count(), 0, 'held back while scrolled')
      assert.ok(await second.page.evaluate(() => window.scrollY) > 0, 'the list did not jump')

      // Counts follow (throttled to one refresh every 2 s).
      await waitForCount(first.page, 'open', openBefore + 1)
      await waitForCount(second.page, 'open', openBefore + 1)
      await second.page.evaluate(() => { window.scrollTo(0, 0) })
      const image = await screenshot(second.page, 'console-live-inbox')
      mkdirSync(fileURLToPath(new URL('.', `file://${DOCS_IMAGE}`)), { recursive: true })
      copyFileSync(image, DOCS_IMAGE)
      await expectAccessible(second.page, 'live inbox')
      await bar.click()
      await second.page.getByRole('link', { name: `#${ticket.id} Live question` }).waitFor()

      // A changed ticket that no longer matches leaves the list (closed: the inbox shows open and pending).
      await server.call('PATCH', `/tickets/${ticket.id}`, { status: 3 })
      await row.waitFor({ state: 'detached', timeout: 5000 })
      await waitForCount(first.page, 'open', openBefore)
      await server.call('PATCH', `/tickets/${ticket.id}`, { status: 1 })
      await row.waitFor({ timeout: 5000 })

      // A saved view: from the current filters, shared, in the URL; a reload and the other agent's browser open it.
      const { page } = first
      await page.getByLabel('Search', { exact: true }).fill('Live')
      await page.getByRole('button', { name: 'Apply', exact: true }).click()
      await page.waitForURL(/q=Live/)
      await page.getByRole('button', { name: 'Save view' }).click()
      await page.getByLabel('View name').fill('Live ones')
      await page.getByLabel('Share with the team').check()
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await page.waitForURL(/[?&]view=\d+/)
      const url = page.url()
      const viewId = new URL(url).searchParams.get('view')!
      assert.equal(new URL(url).searchParams.get('q'), null, 'the view holds the filters')
      await waitForCount(page, viewId, 1)
      await page.reload()
      await page.locator(`button[data-view="${viewId}"][aria-current="page"]`).waitFor()
      await row.waitFor()
      assert.equal(await page.getByRole('link', { name: /Earlier question/ }).count(), 0)
      await second.page.goto(url)
      await second.page.locator(`button[data-view="${viewId}"][aria-current="page"]`).waitFor()
      await second.page.getByRole('link', { name: `#${ticket.id} Live question` }).waitFor()
      // Back returns to the view after choosing another.
      await page.locator('button[data-view="mine"]').click()
      await page.waitForURL(/view=mine/)
      await page.goBack()
      await page.waitForURL(new RegExp(`view=${viewId}`))
      await page.locator(`button[data-view="${viewId}"][aria-current="page"]`).waitFor()
      await row.waitFor()
      assert.deepEqual([...first.problems, ...second.problems].filter((p) => !p.includes('status of 401')), [], 'no errors but the login page\'s session check')
    })
  })
}
