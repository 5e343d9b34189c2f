import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Dialog, Page } from 'playwright-core'
import { chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects } from './harness.js'

/** The rich-text composer's paragraphs, as text (the editor loads as its own chunk). */
const COMPOSER = '.composer [contenteditable="true"]'

/** Waits until the composer's paragraphs are `expected` (the draft is restored after the ticket loads). */
async function composerHolds (page: Page, expected: string[]): Promise<void> {
  await page.waitForFunction((text) => {
    const paragraphs = [...document.querySelectorAll('.composer [contenteditable="true"] p')].map((p) => p.textContent ?? '')
    return JSON.stringify(paragraphs) === text
  }, JSON.stringify(expected))
}

/** The composer's text. */
async function composerText (page: Page): Promise<string> {
  return (await page.locator(COMPOSER).textContent() ?? '').trim()
}

/** Waits until the server holds `body` as the draft (autosave runs about a second after typing stops, maybe mid-way on a slow machine). */
async function draftStored (call: () => Promise<unknown>, body: string): Promise<{ body: string, type: number }> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const draft = await call() as { body: string, type: number } | null
    if (draft?.body === body || Date.now() > deadline) return draft ?? { body: '', type: 0 }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** The next dialog the page opens: its type and message, answered with `accept`. */
async function nextDialog (page: Page, accept: boolean): Promise<{ type: string, message: string }> {
  return await new Promise((resolve) => {
    page.once('dialog', (dialog: Dialog) => {
      resolve({ type: dialog.type(), message: dialog.message() })
      void (accept ? dialog.accept() : dialog.dismiss())
    })
  })
}

for (const dialect of testDialects()) {
  describe(`reply drafts in Chromium on ${dialect}`, () => {
    it('a typed draft survives a reload and shows on the agent\'s second device; leaving with unsaved text asks first; sending clears it', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const agentToken = await server.login(DEMO.agent.email, DEMO.agent.password)
      const customer = await server.login(DEMO.customer.email, DEMO.customer.password)
      const [category] = await server.call('GET', '/categories', undefined, customer) as Array<{ id: number }>
      const ticket = await server.call('POST', '/tickets', { category: category!.id, title: `Drafts ${Date.now()}`, body: 'The printer is offline.' }, customer) as { id: number }
      const agent = await server.call('GET', '/auth/me', undefined, agentToken) as { id: number }
      await server.call('PUT', `/tickets/${ticket.id}/agents`, { agent: agent.id })
      const browser = await launchBrowser(t)

      // First device: typing is saved on the server about a second after it stops.
      const first = await openPage(browser)
      await logIn(first.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await first.page.goto(`${server.origin}/tickets/${ticket.id}`)
      await first.page.locator(COMPOSER).waitFor()
      const reply = first.page.getByLabel('Your reply')
      await reply.pressSequentially('Restarted the spooler.\nTry again?')
      await first.page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor()
      const stored = await draftStored(async () => await server.call('GET', `/tickets/${ticket.id}/draft`, undefined, agentToken), '<p>Restarted the spooler.</p><p>Try again?</p>')
      assert.deepEqual([stored.body, stored.type], ['<p>Restarted the spooler.</p><p>Try again?</p>', 1])
      assert.equal(await server.call('GET', `/tickets/${ticket.id}/draft`, undefined, server.adminToken), null, 'another person sees no draft')
      await expectAccessible(first.page, 'composer with a saved draft')
      await screenshot(first.page, `console-draft-saved-${dialect}`)

      // A reload restores it (saved, so leaving does not ask).
      await first.page.reload()
      await first.page.locator(COMPOSER).waitFor()
      await composerHolds(first.page, ['Restarted the spooler.', 'Try again?'])

      // Second device (another browser context, the same agent): the same draft.
      const second = await openPage(browser)
      await logIn(second.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await second.page.goto(`${server.origin}/tickets/${ticket.id}`)
      await composerHolds(second.page, ['Restarted the spooler.', 'Try again?'])

      // Text not saved yet (the saves fail: offline): a link inside the console asks; staying keeps the page and the text.
      await second.page.route('**/api/v1/tickets/*/draft', async (route) => {
        if (route.request().method() === 'PUT') await route.abort('internetdisconnected')
        else await route.continue()
      })
      await second.page.locator(COMPOSER).click()
      await second.page.keyboard.press('Control+End')
      await second.page.keyboard.type(' Or unplug it.')
      await second.page.getByRole('status').filter({ hasText: 'Draft not saved yet' }).waitFor()
      const asked = nextDialog(second.page, false)
      await second.page.getByRole('link', { name: 'Inbox', exact: true }).click()
      assert.deepEqual(await asked, { type: 'confirm', message: 'Your reply has not been saved as a draft yet. Leave this page anyway?' })
      assert.equal(new URL(second.page.url()).pathname, `/tickets/${ticket.id}`)
      assert.match(await composerText(second.page), /Or unplug it\.$/)
      // Closing the tab asks too (beforeunload).
      const unload = nextDialog(second.page, true)
      await second.page.close({ runBeforeUnload: true })
      assert.equal((await unload).type, 'beforeunload')

      // Sending from the first device clears the draft everywhere (the server deletes it with the comment).
      await first.page.getByRole('button', { name: 'Send reply' }).click()
      await first.page.getByRole('status').filter({ hasText: 'Reply sent.' }).waitFor()
      assert.equal(await server.call('GET', `/tickets/${ticket.id}/draft`, undefined, agentToken), null)
      assert.equal(await composerText(first.page), '')

      // Discard: typed, saved, then thrown away.
      await first.page.getByLabel('Your reply').pressSequentially('Never mind.')
      await first.page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor()
      await first.page.getByRole('button', { name: 'Discard draft' }).click()
      await first.page.getByRole('status').filter({ hasText: 'Draft discarded.' }).waitFor()
      assert.equal(await server.call('GET', `/tickets/${ticket.id}/draft`, undefined, agentToken), null)
      assert.equal(await composerText(first.page), '')
      assert.deepEqual(first.problems.filter((problem) => !problem.includes('401') && !problem.includes('ERR_INCOMPLETE_CHUNKED_ENCODING')), [], 'no CSP violation or script error')
    })
  })
}
