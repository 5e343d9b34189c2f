import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects, type ConsoleServer
} from './harness.js'

/** Posts one raw mail through the inbound-parse door, as the demo administrator. */
async function receive (server: ConsoleServer, headers: Record<string, string>, text: string): Promise<{ id: number, status: string, ticket_id: number | null }> {
  const raw = `${Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n`
  const res = await fetch(`${server.api}/mail/inbound`, { method: 'POST', headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'message/rfc822' }, body: raw })
  assert.equal(res.status, 200, await res.clone().text())
  return ((await res.json()) as { data: { id: number, status: string, ticket_id: number | null } }).data
}

/** Inbound mail on (no SMTP: sent mail stays queued): `support@example.com` opens tickets in the first demo category. */
const MAIL = { HELPDESK_MAIL_FROM: 'support@example.com', HELPDESK_MAIL_INBOUND: 'support@example.com=1' }

for (const dialect of testDialects()) {
  describe(`the console's held-mail screen in Chromium on ${dialect}`, () => {
    it('lists held mail with its reason; posting one puts it on its ticket, discarding one keeps it off', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect, MAIL)
      const date = new Date().toUTCString()
      const opened = await receive(server, { From: 'Mia <mia@senders.test>', To: 'support@example.com', Subject: 'Printer on fire', 'Message-ID': '<first@senders.test>', Date: date }, 'It smokes.')
      assert.equal(opened.status, 'created', JSON.stringify(opened))
      const ticketId = opened.ticket_id as number
      // Two replies by someone the ticket's mail never went to: held, not posted.
      const kept = await receive(server, { From: 'stranger@senders.test', To: 'support@example.com', Subject: 'Re: Printer on fire', 'In-Reply-To': '<first@senders.test>', 'Message-ID': '<second@senders.test>', Date: date }, 'Mine too.')
      const spam = await receive(server, { From: 'spam@senders.test', To: 'support@example.com', Subject: 'Re: Printer on fire <b>cheap</b>', 'In-Reply-To': '<first@senders.test>', 'Message-ID': '<third@senders.test>', Date: date }, 'Buy now.')
      assert.equal(kept.status, 'held')
      assert.equal(spam.status, 'held')
      const bodies = async (): Promise<string[]> => ((await server.call('GET', `/tickets/${ticketId}/comments`)) as Array<{ body: string }>).map((c) => c.body)
      assert.equal((await bodies()).length, 0, 'a held mail is not posted')

      const browser = await launchBrowser(t)
      const { page, problems } = await openPage(browser)
      await logIn(page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await page.getByRole('link', { name: 'Held mail' }).click()
      await page.getByRole('heading', { name: 'Held mail' }).waitFor()
      const list = page.getByRole('list', { name: 'Held mail' })
      await list.getByRole('listitem').nth(1).waitFor()
      assert.equal(await list.getByRole('listitem').count(), 2)
      const spamItem = list.getByRole('listitem').filter({ hasText: 'spam@senders.test' })
      // The subject is text: what looks like markup is shown as typed.
      assert.equal(await spamItem.locator('strong').textContent(), 'Re: Printer on fire <b>cheap</b>')
      assert.equal(await spamItem.locator('b').count(), 0)
      const keptItem = list.getByRole('listitem').filter({ hasText: 'stranger@senders.test' })
      assert.match((await keptItem.textContent()) ?? '', /Held because:\s+\S/, 'the reason is shown')
      assert.equal(await keptItem.getByRole('link', { name: `ticket #${ticketId}` }).count(), 1)
      const original = await keptItem.getByRole('link', { name: 'Download the original' }).getAttribute('href')
      const raw = await page.context().request.get(new URL(original as string, server.origin).href)
      assert.equal(raw.status(), 200)
      assert.match(await raw.text(), /Mine too\./)
      await expectAccessible(page, 'held mail')
      await screenshot(page, `console-held-mail-${dialect}`)

      await spamItem.getByRole('button', { name: /^Discard/ }).click()
      await page.getByRole('status').filter({ hasText: 'Discarded: Re: Printer on fire <b>cheap</b>' }).waitFor()
      await page.waitForFunction(() => document.querySelectorAll('ul.card-list > li').length === 1)
      await keptItem.getByRole('button', { name: /^Post on its ticket/ }).click()
      await page.getByRole('status').filter({ hasText: 'Posted: Re: Printer on fire' }).waitFor()
      await page.getByText('No mail is held.').waitFor()

      assert.deepEqual(await bodies(), ['<p>Mine too.</p>'], 'the released mail is posted, the discarded one is not')
      const discarded = (await server.call('GET', '/mail/inbound?filter[status]=discarded')) as Array<{ id: number }>
      assert.deepEqual(discarded.map((mail) => mail.id), [spam.id])
      // 401: the session check before logging in; a cut event stream is the network's, not the page's.
      assert.deepEqual(problems.filter((problem) => !problem.includes('401') && !problem.includes('ERR_INCOMPLETE_CHUNKED_ENCODING')), [], 'no CSP violation or script error')
    })

    it('is for administrators only: an agent has no link and the API refuses the list', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const agentToken = await server.login(DEMO.agent.email, DEMO.agent.password)
      const res = await fetch(`${server.api}/mail/inbound?filter[status]=held`, { headers: { authorization: `Bearer ${agentToken}` } })
      assert.equal(res.status, 403)
      const browser = await launchBrowser(t)
      const { page } = await openPage(browser)
      await logIn(page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await page.getByRole('link', { name: 'Sessions' }).waitFor()
      assert.equal(await page.getByRole('link', { name: 'Held mail' }).count(), 0)
    })
  })
}
