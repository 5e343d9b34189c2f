import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects } from './harness.js'

for (const dialect of testDialects()) {
  describe(`ticket history and the audit log in Chromium on ${dialect}`, () => {
    it('the ticket view interleaves changes with the conversation; administrators filter the audit log', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const agentToken = await server.login(DEMO.agent.email, DEMO.agent.password)
      const [category] = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number }>
      const ticket = await server.call('POST', '/tickets', { category: category!.id, title: `Printer offline ${Date.now()}`, body: 'Since Monday.' }, customerToken) as { id: number }
      await server.call('POST', `/tickets/${ticket.id}/comments`, { body: 'Restarted the spooler.', type: 1, private: false, close: true }, agentToken)
      await server.call('POST', '/categories', { name: `Audited ${Date.now()}` })
      const browser = await launchBrowser(t)

      const staff = await openPage(browser)
      await logIn(staff.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await staff.page.goto(`${server.origin}/tickets/${ticket.id}`)
      const line = staff.page.locator('.history-line[data-field="status"]')
      await line.filter({ hasText: 'changed the status from Open to Closed (api)' }).waitFor()
      // The change comes after the reply that caused it.
      const order = await staff.page.locator('.thread > *').evaluateAll((nodes) => nodes.map((n) => n.classList.contains('history-line') ? 'change' : 'comment'))
      assert.deepEqual(order, ['comment', 'change'])
      await screenshot(staff.page, `console-history-${dialect}`)

      const admin = await openPage(browser)
      await logIn(admin.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await admin.page.getByRole('link', { name: 'Audit log' }).click()
      await admin.page.getByRole('heading', { name: 'Audit log' }).waitFor()
      await admin.page.getByLabel('Action').fill('category.created')
      await admin.page.getByRole('button', { name: 'Filter' }).click()
      // The unfiltered page already shows the new category's entry: wait for the filtered list to replace it.
      await admin.page.waitForFunction(() => document.querySelectorAll('tbody tr:not([data-action="category.created"])').length === 0, undefined, { timeout: 10_000 })
      assert.ok(await admin.page.locator('tbody tr[data-action="category.created"]').count() > 0)
      await expectAccessible(admin.page, 'audit log')
      await screenshot(admin.page, `console-audit-log-${dialect}`)
    })
  })
}
