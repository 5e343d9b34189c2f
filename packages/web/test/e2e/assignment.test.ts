import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, startConsole, testDialects
} from './harness.js'

for (const dialect of testDialects()) {
  describe(`assignment in Chromium on ${dialect}`, () => {
    it('an administrator gives a new category to agents and marks one as covering all; the demo agent assigns a colleague and unassigns', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const cora = await server.call('POST', '/agents', { first_name: 'Cora', last_name: 'Colleague', email: 'cora@example.com', password: 'cora-password', password_confirmation: 'cora-password' })
      const otto = await server.call('POST', '/agents', { first_name: 'Otto', last_name: 'Outsider', email: 'otto@example.com', password: 'otto-password', password_confirmation: 'otto-password' })
      const browser = await launchBrowser(t)

      // The administrator creates a category and chooses who gets it.
      const admin = await openPage(browser)
      await logIn(admin.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await admin.page.goto(`${server.origin}/categories`)
      await admin.page.getByLabel('Name').fill('Refunds')
      await admin.page.getByRole('checkbox', { name: 'Cora Colleague' }).check()
      await admin.page.getByRole('button', { name: 'Create' }).click()
      await admin.page.getByRole('cell', { name: 'Refunds', exact: true }).waitFor()
      await expectAccessible(admin.page, 'categories with agents')
      const coraCategories = await server.call('GET', `/agents/${cora.id}/categories`) as Array<{ name: string }>
      assert.deepEqual(coraCategories.map((c) => c.name), ['Refunds'])
      assert.deepEqual(await server.call('GET', `/agents/${otto.id}/categories`), [])

      // Otto has more categories than one page of the list holds (100): the access form, which sends the whole list back, keeps them all.
      const areas: number[] = []
      for (let i = 0; i < 101; i++) areas.push((await server.call('POST', '/categories', { name: `Area ${i}` }) as { id: number }).id)
      await server.call('PUT', `/agents/${otto.id}/categories`, { categories: areas })

      // ...and marks Otto as covering all categories.
      await admin.page.goto(`${server.origin}/agents`)
      await admin.page.getByRole('button', { name: /Otto Outsider/ }).first().click()
      const access = admin.page.getByRole('form', { name: /Otto Outsider/ })
      await access.getByRole('checkbox', { name: 'Covers all categories (present and future)' }).check()
      await access.getByRole('button', { name: 'Save' }).click()
      await access.getByRole('status').waitFor()
      assert.deepEqual(await server.call('GET', `/agents/${otto.id}/coverage`), { all_categories: true })
      assert.equal((await server.call('GET', `/agents/${otto.id}/categories?per_page=100&page=2`) as unknown[]).length, 1, 'the 101st category kept')

      // The demo agent (a real agent's permissions) assigns a ticket of a demo category to a colleague, then unassigns it.
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const categories = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number, name: string }>
      const general = categories.find((c) => c.name === 'General')!
      const ticket = await server.call('POST', '/tickets', { category: general.id, title: 'Printer offline', body: 'Since Monday.' }, customerToken)
      const agent = await openPage(browser)
      await logIn(agent.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await agent.page.goto(`${server.origin}/tickets/${ticket.id}`)
      const select = agent.page.getByLabel('Assigned agent')
      await select.locator('option', { hasText: 'Otto Outsider' }).waitFor({ state: 'attached' })
      const options = await select.locator('option').allTextContents()
      assert.deepEqual(options.sort(), ['Ada Admin', 'Alan Agent', 'Otto Outsider', 'Unassigned'], 'the staff of the category: Cora has only Refunds')
      await select.selectOption({ label: 'Otto Outsider' })
      await agent.page.getByRole('status').filter({ hasText: 'Saved' }).waitFor()
      assert.equal((await server.call('GET', `/tickets/${ticket.id}`)).assigned_agent_id, otto.id)
      await select.selectOption({ label: 'Unassigned' })
      for (let i = 0; i < 100 && (await server.call('GET', `/tickets/${ticket.id}`)).assigned_agent_id !== null; i++) await new Promise((resolve) => setTimeout(resolve, 100))
      assert.equal((await server.call('GET', `/tickets/${ticket.id}`)).assigned_agent_id, null)
      await expectAccessible(agent.page, 'ticket with the assign control')
      // (The session check before logging in answers 401: expected.)
      assert.deepEqual([...admin.problems, ...agent.problems].filter((p) => !p.includes('401')), [])
    })
  })
}
