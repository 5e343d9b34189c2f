import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects } from './harness.js'

for (const dialect of testDialects()) {
  describe(`triggers, automations and the away switch in Chromium on ${dialect}`, () => {
    it('an administrator builds a trigger row by row, dry-runs it, saves it; an agent switches away and back', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const [category] = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number }>
      await server.call('POST', '/tickets', { category: category!.id, title: 'Refund for order 42', body: 'Charged twice.' }, customerToken)
      const browser = await launchBrowser(t)

      const admin = await openPage(browser)
      await logIn(admin.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await admin.page.getByRole('link', { name: 'Triggers' }).click()
      await admin.page.getByRole('heading', { name: 'Triggers' }).waitFor()
      const form = admin.page.getByRole('form', { name: 'New trigger' })
      await form.getByLabel('Name').fill('Refunds')
      await form.getByRole('button', { name: 'Add a condition' }).first().click()
      await form.locator('.rule-row').first().getByLabel('Value').fill('refund')
      await form.locator('.rule-row').nth(1).getByLabel('Value').fill('refund')
      await form.getByRole('button', { name: 'Dry run on the last 50 tickets' }).click()
      await form.getByRole('status').filter({ hasText: 'match' }).waitFor()
      assert.match(await form.getByRole('status').textContent() ?? '', /1 of the last \d+ tickets match/)
      await form.getByRole('button', { name: 'Create' }).click()
      await admin.page.getByRole('cell', { name: 'Refunds', exact: true }).waitFor()
      await expectAccessible(admin.page, 'triggers')
      await screenshot(admin.page, `console-triggers-${dialect}`)
      const saved = await server.call('GET', '/triggers') as Array<{ name: string, conditions: unknown, actions: unknown }>
      assert.deepEqual(saved.map((x) => [x.name, x.conditions, x.actions]), [['Refunds', { all: [{ field: 'subject', operator: 'contains_word', value: 'refund' }], any: [] }, [{ type: 'add_tags', value: ['refund'] }]]])

      await admin.page.getByRole('link', { name: 'Automations' }).click()
      await admin.page.getByRole('heading', { name: 'Automations' }).waitFor()
      const auto = admin.page.getByRole('form', { name: 'New automation' })
      await auto.getByLabel('Name').fill('Close pending after 7 days')
      await auto.getByRole('button', { name: 'Create' }).click()
      await admin.page.locator('.card h2', { hasText: 'Close pending after 7 days' }).waitFor()

      const agent = await openPage(browser)
      await logIn(agent.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await agent.page.getByRole('button', { name: /Available/ }).click()
      await agent.page.getByRole('button', { name: /Away/ }).waitFor()
      await agent.page.getByRole('button', { name: /Away/ }).click()
      await agent.page.getByRole('button', { name: /Available/ }).waitFor()
    })
  })
}
