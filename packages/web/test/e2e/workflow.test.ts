import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects
} from './harness.js'

for (const dialect of testDialects()) {
  describe(`priorities, tags and macros in the console, in Chromium on ${dialect}`, () => {
    it('sets priority and tags in the ticket view, manages a macro, applies it, and filters the inbox by them', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const categories = (await server.call('GET', '/categories')) as Array<{ id: number }>
      assert.ok(categories[0] !== undefined)
      const ticket = (await server.call('POST', '/tickets', { category: categories[0].id, email: DEMO.customer.email, title: 'Invoice twice', body: 'I was charged twice.' })) as { id: number }

      const browser = await launchBrowser(t)
      const { page, problems } = await openPage(browser)
      await logIn(page, server.origin, DEMO.admin.email, DEMO.admin.password)

      // A shared macro, made on the Macros screen.
      await page.getByRole('link', { name: 'Macros' }).click()
      await page.getByRole('heading', { name: 'Macros', level: 1 }).waitFor()
      await page.getByLabel('Name').fill('Escalate billing')
      await page.getByLabel('Shared with every agent').check()
      await page.getByLabel('Internal note').fill('Escalated by {{ agent.first_name }}.')
      await page.getByLabel('Priority', { exact: true }).selectOption({ label: 'Urgent' })
      await page.getByLabel('Add tags').fill('vip, Escalated')
      await page.getByRole('button', { name: 'Create' }).click()
      const card = page.getByRole('list', { name: 'Macros' }).getByRole('listitem').filter({ hasText: 'Escalate billing' })
      await card.waitFor()
      assert.match((await card.textContent()) ?? '', /Priority: Urgent · Add tags: vip, escalated · Internal note/)
      await expectAccessible(page, 'macros')
      await screenshot(page, `console-macros-${dialect}`)

      // The ticket view: priority and tags by hand, then the macro.
      await page.goto(`${server.origin}/tickets/${ticket.id}`)
      await page.getByRole('heading', { name: `#${ticket.id} Invoice twice` }).waitFor()
      await page.getByLabel('Priority', { exact: true }).selectOption({ label: 'High' })
      await page.locator('.ticket-meta .badge-priority-high').waitFor()
      await page.getByPlaceholder('billing, refund').fill('billing')
      await page.getByRole('button', { name: 'Add tags' }).click()
      await page.getByRole('button', { name: 'Remove tag billing' }).waitFor()
      await page.getByLabel('Macro', { exact: true }).selectOption({ label: 'Escalate billing' })
      await page.getByRole('button', { name: 'Apply', exact: true }).click()
      await page.getByText('Applied “Escalate billing”.').waitFor()
      await page.locator('.ticket-meta .badge-priority-urgent').waitFor()
      await page.getByText(/Escalated by \S+\./).first().waitFor()
      await page.getByRole('button', { name: 'Remove tag vip' }).waitFor()
      await expectAccessible(page, 'ticket view with macro picker')
      await screenshot(page, `console-ticket-workflow-${dialect}`)
      const viewed = (await server.call('GET', `/tickets/${ticket.id}?include=tags`)) as { priority: string, tags: Array<{ name: string }> }
      assert.equal(viewed.priority, 'urgent')
      assert.deepEqual(viewed.tags.map((tag) => tag.name), ['billing', 'escalated', 'vip'])

      // The inbox: the priority column, the tag chips, the filters.
      await page.goto(`${server.origin}/`)
      const table = page.getByRole('table', { name: 'Tickets' })
      await table.waitFor()
      await page.getByLabel('Priority', { exact: true }).selectOption({ label: 'Urgent' })
      const row = table.getByRole('row').filter({ hasText: 'Invoice twice' })
      await row.getByText('Urgent').waitFor()
      await row.getByRole('list', { name: 'Tags' }).getByText('vip').waitFor()
      await page.getByLabel('Tag', { exact: true }).fill('nothing-like-it')
      await page.getByRole('button', { name: 'Apply' }).click()
      await page.getByText('No tickets match these filters.').waitFor()
      await expectAccessible(page, 'inbox with priority and tags')
      assert.deepEqual(problems.filter((problem) => !problem.includes('401') && !problem.includes('ERR_INCOMPLETE_CHUNKED_ENCODING')), [], 'no CSP violation or script error')
    })
  })
}
