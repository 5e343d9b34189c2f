import { fileURLToPath } from 'node:url'
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects } from './harness.js'

const DOCS_IMAGE = fileURLToPath(new URL('../../../../docs/images/console-presence.png', import.meta.url))

/** Collects the `client_id` of each presence beat `page` sends on `ticketId`. */
function recordTabIds (page: Page, ticketId: number, into: Set<string>): void {
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith(`/tickets/${ticketId}/presence`)) into.add((request.postDataJSON() as { client_id: string }).client_id)
  })
}

for (const dialect of testDialects()) {
  describe(`collision detection in Chromium on ${dialect}`, () => {
    it('two agents on one ticket see each other viewing and typing; a reply drafted meanwhile warns with the other\'s reply; a closed page drops out', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const categories = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number, name: string }>
      const general = categories.find((c) => c.name === 'General')!
      const ticket = await server.call('POST', '/tickets', { category: general.id, title: 'Invoice twice', body: 'I was charged twice.' }, customerToken)
      const browser = await launchBrowser(t)

      const admin = await openPage(browser)
      await logIn(admin.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await admin.page.goto(`${server.origin}/tickets/${ticket.id}`)
      // The agent works on a phone-sized screen.
      const agent = await openPage(browser, { viewport: { width: 360, height: 780 } })
      await logIn(agent.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      const tabIds = new Set<string>()
      recordTabIds(agent.page, ticket.id, tabIds)
      await agent.page.goto(`${server.origin}/tickets/${ticket.id}`)

      const adminSees = admin.page.getByRole('status', { name: 'Others on this ticket' })
      const agentSees = agent.page.getByRole('status', { name: 'Others on this ticket' })
      await adminSees.getByText('Alan Agent is viewing').waitFor()
      await agentSees.getByText('Ada Admin is viewing').waitFor()
      assert.equal(await adminSees.getAttribute('aria-live'), 'polite')

      // The agent opens the ticket in a second tab (same session), then closes it: the first tab keeps the agent
      // present for the administrator (presence is per tab; the second tab's DELETE removes only its own row).
      const secondTab = await agent.context.newPage()
      recordTabIds(secondTab, ticket.id, tabIds)
      const secondBeat = secondTab.waitForResponse((response) => response.request().method() === 'PUT' && response.url().endsWith(`/tickets/${ticket.id}/presence`))
      await secondTab.goto(`${server.origin}/tickets/${ticket.id}`)
      assert.equal((await secondBeat).status(), 200)
      assert.equal(tabIds.size, 2, `each tab beats under its own id: ${[...tabIds].join(', ')}`)
      await secondTab.close()
      const closedAt = Date.now()
      while (Date.now() - closedAt < 3_000) {
        assert.ok(await adminSees.getByText('Alan Agent is viewing').isVisible(), 'the agent never drops out while a tab is open')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const listed = await server.call('GET', `/tickets/${ticket.id}/presence`) as { entries: Array<{ user: { first_name: string } }> }
      assert.deepEqual(listed.entries.map((e) => e.user.first_name), ['Alan'])

      // The agent starts a reply: the administrator sees it typing, live.
      await agent.page.getByLabel('Your reply').fill('We refunded the second charge.')
      await adminSees.getByText('Alan Agent is typing…').waitFor()
      // Meanwhile the administrator answers first.
      await admin.page.getByLabel('Your reply').fill('Refund issued today, sorry for the trouble.')
      await admin.page.getByRole('button', { name: 'Send reply' }).click()
      await admin.page.getByText('Reply sent.').waitFor()

      // The agent sends: the API refuses the stale draft (409) and the console shows the administrator's reply.
      await agent.page.getByRole('button', { name: 'Send reply' }).click()
      const warning = agent.page.getByRole('alert').filter({ hasText: 'Not sent yet' })
      await warning.waitFor()
      await warning.getByText('Refund issued today, sorry for the trouble.').waitFor()
      await warning.getByText('Ada Admin wrote:').waitFor()
      let replies = (await server.call('GET', `/tickets/${ticket.id}/comments?per_page=100`) as Array<{ body: string }>).map((c) => c.body)
      assert.equal(replies.length, 1, 'the stale reply was not written')
      await expectAccessible(agent.page, 'ticket with presence and a collision warning')
      const phoneWidth = await agent.page.evaluate(() => document.documentElement.scrollWidth)
      assert.ok(phoneWidth <= 360, `no sideways scrolling at 360 px (${phoneWidth})`)
      const shot = await screenshot(agent.page, `console-presence-${dialect}`)
      // The docs show the top of the phone screen: who is here, the thread, the warning.
      if (dialect === 'sqlite') await agent.page.screenshot({ path: DOCS_IMAGE, fullPage: true, clip: { x: 0, y: 0, width: 360, height: 960 } })
      assert.ok(shot.endsWith('.png'))

      // Send anyway: both replies are there.
      await warning.getByRole('button', { name: 'Send anyway' }).click()
      await agent.page.getByText('Reply sent.').waitFor()
      replies = (await server.call('GET', `/tickets/${ticket.id}/comments?per_page=100`) as Array<{ body: string }>).map((c) => c.body)
      assert.equal(replies.length, 2)
      assert.ok(replies.some((body) => body.includes('We refunded the second charge.')))

      // The agent closes the page: it leaves the administrator's list at once (well within the 30 s expiry).
      const closed = Date.now()
      await agent.page.close()
      await adminSees.getByText('Alan Agent', { exact: false }).waitFor({ state: 'detached', timeout: 30_000 })
      assert.ok(Date.now() - closed < 30_000)

      // A tab that dies without a word (one heartbeat through the API, then silence) drops out when it expires.
      const agentToken = await server.login(DEMO.agent.email, DEMO.agent.password)
      await server.call('PUT', `/tickets/${ticket.id}/presence`, { state: 'viewing' }, agentToken)
      await adminSees.getByText('Alan Agent is viewing').waitFor()
      await adminSees.getByText('Alan Agent is viewing').waitFor({ state: 'detached', timeout: 40_000 })
      // (The session check before logging in answers 401: expected; an event stream cut on close may log a chunk error.)
      assert.deepEqual([...admin.problems, ...agent.problems].filter((p) => !/\b401\b|\b409\b|ERR_INCOMPLETE_CHUNKED_ENCODING/.test(p)), [])
    })
  })
}
