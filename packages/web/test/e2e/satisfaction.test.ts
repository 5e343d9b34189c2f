import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { captureSmtp } from '../../../fastify/test/mail-fixtures.js'
import { freePort } from '../../../fastify/test/free-port.js'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects
} from './harness.js'

/** Waits until `check` answers something (polling), for mails the server's job runner sends. */
async function eventually<T> (check: () => T | undefined, ms = 15_000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const value = check()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

for (const dialect of testDialects()) {
  describe(`customer satisfaction in Chromium on ${dialect}`, () => {
    it('the customer rates from the closing mail\'s link, changes it in the portal, staff see it, and the administrator words the survey', async (t) => {
      if (!chromiumOrSkip(t)) return
      const smtp = await captureSmtp(t)
      const port = await freePort()
      const origin = `http://127.0.0.1:${port}`
      const server = await startConsole(t, dialect, {
        HELPDESK_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, HELPDESK_MAIL_FROM: 'Support <support@example.com>', HELPDESK_PUBLIC_URL: `${origin}/api/v1`
      }, port)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const agentToken = await server.login(DEMO.agent.email, DEMO.agent.password)
      const [category] = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number }>
      const title = `Scanner jams ${Date.now()}`
      const ticket = await server.call('POST', '/tickets', { category: category!.id, title, body: 'Every third page.' }, customerToken) as { id: number }
      const agent = (await server.call('GET', '/auth/me', undefined, agentToken)) as { id: number }
      await server.call('PUT', `/tickets/${ticket.id}/agents`, { agent: agent.id })
      await server.call('POST', `/tickets/${ticket.id}/comments`, { body: 'Cleaned the rollers.', type: 1, private: false, close: true }, agentToken)

      const mail = await eventually(() => smtp.mails.find((m) => m.envelope.to.includes(DEMO.customer.email) && (m.parsed.text ?? '').includes('/satisfaction#token=')))
      const bad = /https?:\/\/\S+\/satisfaction#token=[\w.]+&rating=bad/.exec(mail.parsed.text ?? '')?.[0]
      assert.ok(bad !== undefined, mail.parsed.text)
      assert.ok(bad.startsWith(`${origin}/satisfaction#token=`), bad)
      const browser = await launchBrowser(t)

      // From the mail, signed out: the choice is shown preselected, and nothing is rated before the button.
      const visitor = await openPage(browser)
      await visitor.page.goto(bad)
      await visitor.page.getByRole('heading', { name: 'Rate the support you received' }).waitFor()
      await visitor.page.getByText(`Ticket #${ticket.id}: ${title}`).waitFor()
      assert.equal(await visitor.page.getByRole('radio', { name: 'Bad, I\'m unsatisfied' }).isChecked(), true)
      assert.equal((await server.call('GET', `/tickets/${ticket.id}/satisfaction`, undefined, customerToken)).rating, null, 'opening the link rated nothing')
      await expectAccessible(visitor.page, 'satisfaction link')
      await visitor.page.getByLabel('Comment (optional)').fill('Took two days.')
      await visitor.page.getByRole('button', { name: 'Send my rating' }).click()
      await visitor.page.getByRole('status').filter({ hasText: 'Thank you' }).waitFor()
      await screenshot(visitor.page, `console-satisfaction-link-${dialect}`)
      const rated = await server.call('GET', `/tickets/${ticket.id}/satisfaction`, undefined, customerToken)
      assert.deepEqual([rated.rating.rating, rated.rating.comment, rated.rating.channel], ['bad', 'Took two days.', 'mail'])

      // In the portal: the closed ticket shows the rating, changeable.
      const customer = await openPage(browser)
      await logIn(customer.page, server.origin, DEMO.customer.email, DEMO.customer.password)
      await customer.page.goto(`${server.origin}/portal/tickets/${ticket.id}`)
      const panel = customer.page.getByRole('region', { name: 'Your opinion' })
      await panel.waitFor()
      assert.equal(await panel.getByRole('radio', { name: 'Bad, I\'m unsatisfied' }).isChecked(), true)
      assert.equal(await panel.getByLabel('Comment (optional)').inputValue(), 'Took two days.')
      await panel.getByRole('radio', { name: 'Good, I\'m satisfied' }).check()
      await panel.getByLabel('Comment (optional)').fill('Works now, thanks.')
      await panel.getByRole('button', { name: 'Change my rating' }).click()
      await panel.getByRole('status').filter({ hasText: 'Thank you' }).waitFor()
      await expectAccessible(customer.page, 'portal ticket with its rating')
      await screenshot(customer.page, `console-satisfaction-portal-${dialect}`)

      // Staff see it on the ticket.
      const staff = await openPage(browser)
      await logIn(staff.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await staff.page.goto(`${server.origin}/tickets/${ticket.id}`)
      const ratings = staff.page.getByRole('list', { name: 'Ratings' })
      await ratings.getByText('Works now, thanks.').waitFor()
      await ratings.getByText('Good, I\'m satisfied').waitFor()
      assert.equal(await staff.page.getByRole('button', { name: 'Change my rating' }).count(), 0, 'staff do not rate')
      await screenshot(staff.page, `console-satisfaction-staff-${dialect}`)

      // The administrator rewords the survey; the customer's page follows.
      const admin = await openPage(browser)
      await logIn(admin.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      // The sign-in screen saves its own settings only: a survey setting changed meanwhile stays.
      await admin.page.getByRole('link', { name: 'Sign-in' }).click()
      await admin.page.getByRole('checkbox', { name: 'Staff sign in only with single sign-on' }).waitFor()
      await server.call('PATCH', '/settings', { 'satisfaction.notify_on_bad': false })
      await admin.page.getByRole('form', { name: 'Sign-in settings' }).getByRole('button', { name: 'Save' }).click()
      await admin.page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor()
      assert.equal((await server.call('GET', '/settings'))['satisfaction.notify_on_bad'], false)
      await admin.page.getByRole('link', { name: 'Surveys' }).click()
      await admin.page.getByLabel('Question').fill('Did we solve your problem?')
      await admin.page.getByRole('button', { name: 'Save' }).click()
      await admin.page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor()
      await expectAccessible(admin.page, 'survey settings')
      await customer.page.reload()
      await customer.page.getByRole('group', { name: 'Did we solve your problem?' }).waitFor()
      for (const page of [visitor, customer, staff, admin]) assert.deepEqual(page.problems.filter((problem) => !problem.includes('401')), [])
    })
  })
}
