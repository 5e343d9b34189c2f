import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, expectValue, launchBrowser, logIn, openPage, startConsole, testDialects, type ConsoleServer
} from './harness.js'

async function until<T> (check: () => Promise<T | undefined>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function notificationOf (server: ConsoleServer, token: string, ticketId: number): Promise<{ id: string, read_at: string | null } | undefined> {
  const list = await server.call('GET', '/notifications?per_page=100', undefined, token) as Array<{ id: string, read_at: string | null, data: { ticket?: { id: number } } }>
  return list.find((n) => n.data.ticket?.id === ticketId)
}

for (const dialect of testDialects()) {
  describe(`notifications and inbox filters in Chromium on ${dialect}`, () => {
    it('opening a notification reads it; the inbox\'s filters, sort and search live in the URL and the back button', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const agentToken = await server.login(DEMO.agent.email, DEMO.agent.password)
      const categories = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number, name: string }>
      const billing = categories.find((c) => c.name === 'Billing')!
      const ticket = await server.call('POST', '/tickets', { category: billing.id, title: 'Invoice twice', body: 'Charged twice.' }, customerToken)
      const notification = await until(async () => await notificationOf(server, agentToken, ticket.id), 'the new-ticket notification')
      assert.equal(notification.read_at, null)

      const browser = await launchBrowser(t)
      const { page } = await openPage(browser)
      await logIn(page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await page.goto(`${server.origin}/notifications`)
      await page.getByRole('link', { name: `#${ticket.id} Invoice twice` }).click()
      await page.waitForURL(`${server.origin}/tickets/${ticket.id}`)
      await until(async () => (await notificationOf(server, agentToken, ticket.id))?.read_at ?? undefined, 'the notification to be read')

      // Filters in the URL.
      await page.goto(server.origin)
      await page.getByRole('link', { name: `#${ticket.id} Invoice twice` }).waitFor()
      await page.getByLabel('Status').selectOption({ label: 'Closed' })
      await page.waitForURL(/\?status=3$/)
      await page.getByLabel('Category', { exact: true }).selectOption({ label: 'Billing' })
      await page.waitForURL(new RegExp(`\\?status=3&category=${billing.id}$`))
      await page.getByLabel('Status').selectOption({ label: 'Open and pending' })
      await page.getByLabel('Search').fill('Invoice')
      await page.getByRole('button', { name: 'Apply' }).click()
      await page.waitForURL(new RegExp(`\\?category=${billing.id}&q=Invoice$`))
      await page.getByRole('link', { name: `#${ticket.id} Invoice twice` }).waitFor()

      // Shared: the same URL in another browser shows the same filters.
      const other = await openPage(browser)
      await logIn(other.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await other.page.goto(`${server.origin}/?category=${billing.id}&q=Invoice&sort=title`)
      // The categories' options arrive with their list.
      await other.page.getByLabel('Category', { exact: true }).locator('option', { hasText: 'Billing' }).waitFor({ state: 'attached' })
      await other.page.getByRole('link', { name: `#${ticket.id} Invoice twice` }).waitFor()
      await expectValue(other.page.getByLabel('Search'), 'Invoice')
      await expectValue(other.page.getByLabel('Sort by'), 'title')
      await expectValue(other.page.getByLabel('Category', { exact: true }), String(billing.id))
      await other.page.getByRole('link', { name: `#${ticket.id} Invoice twice` }).waitFor()
      await expectAccessible(other.page, 'inbox with filters from the URL')

      // Back: the search goes, then the status comes back.
      await page.goBack()
      await page.waitForURL(new RegExp(`\\?category=${billing.id}$`))
      await expectValue(page.getByLabel('Search'), '')
      await page.goBack()
      await page.waitForURL(new RegExp(`\\?status=3&category=${billing.id}$`))
      await expectValue(page.getByLabel('Status'), '3')
      await page.getByRole('status').filter({ hasText: 'No tickets' }).or(page.getByRole('table')).first().waitFor()
    })
  })
}
