import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects
} from './harness.js'

for (const dialect of testDialects()) {
  describe(`SLA in Chromium on ${dialect}`, () => {
    it('the administrator sets up a calendar and a policy; staff see coloured due badges, the "breaching soon" view and the ticket\'s badge; customers see none', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const [category] = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number, name: string }>
      const browser = await launchBrowser(t)

      // The administrator's screen: a calendar (24/7) and a policy for the category with a 30-minute first response.
      const admin = await openPage(browser)
      await logIn(admin.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await admin.page.getByRole('link', { name: 'SLA policies' }).click()
      await admin.page.getByRole('heading', { name: 'SLA policies and business hours' }).waitFor()
      const calendarForm = admin.page.getByRole('form', { name: 'New calendar' })
      await calendarForm.getByLabel('Name').fill('Around the clock')
      await calendarForm.getByLabel('Time zone').fill('Europe/Berlin')
      await calendarForm.getByLabel('Open around the clock (24/7)').check()
      await calendarForm.getByRole('button', { name: 'Create' }).click()
      await admin.page.getByRole('list', { name: 'Calendars' }).getByRole('strong').filter({ hasText: 'Around the clock' }).waitFor()
      const calendars = (await server.call('GET', '/sla/calendars')) as Array<{ id: number, name: string }>
      const calendar = calendars.find((c) => c.name === 'Around the clock')
      assert.ok(calendar !== undefined)

      const policyForm = admin.page.getByRole('form', { name: 'New policy' })
      await policyForm.getByLabel('Name').fill('Fast lane')
      await policyForm.getByLabel('Categories (none: any)').selectOption(String(category!.id))
      await policyForm.getByLabel('First response (minutes)').fill('30')
      await policyForm.getByLabel('Calendar').selectOption(String(calendar.id))
      await policyForm.getByRole('button', { name: 'Create' }).click()
      await admin.page.getByRole('list', { name: 'Policies' }).getByRole('strong').filter({ hasText: 'Fast lane' }).waitFor()
      await expectAccessible(admin.page, 'SLA settings')
      await screenshot(admin.page, `console-sla-settings-${dialect}`)

      // A new ticket in that category is due within the hour: amber in the inbox and in the "breaching soon" view.
      const title = `Printer on fire ${Date.now()}`
      const ticket = await server.call('POST', '/tickets', { category: category!.id, title, body: 'Smoke.' }, customerToken) as { id: number }
      await admin.page.getByRole('link', { name: 'Inbox' }).click()
      const row = admin.page.getByRole('row').filter({ hasText: title })
      await row.waitFor()
      const badge = row.locator('.badge-sla')
      assert.equal(await badge.getAttribute('data-sla'), 'soon')
      assert.match(await badge.textContent() ?? '', /First response due in \d+ min/)
      await admin.page.getByLabel('View', { exact: true }).selectOption('breaching')
      await admin.page.getByRole('row').filter({ hasText: title }).waitFor()
      await expectAccessible(admin.page, 'inbox breaching soon')
      await screenshot(admin.page, `console-sla-inbox-${dialect}`)
      await admin.page.getByRole('link', { name: new RegExp(`#${ticket.id}`) }).click()
      await admin.page.locator('.badge-sla').waitFor()

      // The customer's portal shows no SLA.
      const customer = await openPage(browser)
      await logIn(customer.page, server.origin, DEMO.customer.email, DEMO.customer.password)
      await customer.page.goto(`${server.origin}/portal/tickets/${ticket.id}`)
      await customer.page.getByRole('heading', { name: title }).waitFor()
      assert.equal(await customer.page.locator('.badge-sla').count(), 0)
    })
  })
}
