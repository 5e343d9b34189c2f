import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { chromiumOrSkip, DEMO, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects } from './harness.js'

for (const dialect of testDialects()) {
  describe(`merging tickets in Chromium on ${dialect}`, () => {
    it('staff merge a ticket into another found by its number; the merged one shows where it went', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const [category] = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number }>
      const source = await server.call('POST', '/tickets', { category: category!.id, title: `Printer jams ${Date.now()}`, body: 'Paper stuck.' }, customerToken) as { id: number }
      const target = await server.call('POST', '/tickets', { category: category!.id, title: `Printer again ${Date.now()}`, body: 'Still stuck.' }, customerToken) as { id: number }
      await server.call('POST', `/tickets/${source.id}/comments`, { body: 'Tried a new tray.', type: 1, private: false }, customerToken)
      const browser = await launchBrowser(t)

      const staff = await openPage(browser)
      staff.page.on('dialog', (dialog) => { void dialog.accept() })
      await logIn(staff.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await staff.page.goto(`${server.origin}/tickets/${source.id}`)
      await staff.page.getByLabel('Merge into…').fill(`#${target.id}`)
      await staff.page.getByRole('button', { name: 'Find' }).click()
      await staff.page.getByRole('button', { name: `Merge into #${target.id}` }).click()
      await staff.page.waitForURL(`**/tickets/${target.id}`)
      await staff.page.getByText('Tried a new tray.').waitFor()
      await staff.page.locator('.history-line[data-field="merged_from"]').filter({ hasText: `merged #${source.id}` }).waitFor()

      await staff.page.goto(`${server.origin}/tickets/${source.id}`)
      const banner = staff.page.locator(`[data-merged-into="${target.id}"]`)
      await banner.waitFor()
      assert.match(await banner.textContent() ?? '', new RegExp(`merged into\\s+#${target.id}`))
      await screenshot(staff.page, `console-merged-${dialect}`)
    })
  })
}
