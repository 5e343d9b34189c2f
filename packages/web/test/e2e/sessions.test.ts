import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects
} from './harness.js'

for (const dialect of testDialects()) {
  describe(`the console's sessions screen in Chromium on ${dialect}`, () => {
    it('lists the person\'s sessions and signs another one out: its cookie stops working at once', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const browser = await launchBrowser(t)
      const laptop = await openPage(browser)
      const phone = await openPage(browser, { viewport: { width: 390, height: 844 } })
      await logIn(phone.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await logIn(laptop.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      // The phone's cookie works before.
      assert.equal((await phone.context.request.get(`${server.api}/auth/me`)).status(), 200)

      const page = laptop.page
      await page.getByRole('link', { name: 'Sessions' }).click()
      await page.getByRole('heading', { name: 'Your sessions' }).waitFor()
      const list = page.getByRole('list', { name: 'Your sessions' })
      await list.getByRole('listitem').nth(1).waitFor()
      assert.equal(await list.getByRole('listitem').count(), 2)
      const current = list.getByRole('listitem').filter({ hasText: 'This session' })
      assert.equal(await current.count(), 1)
      assert.equal(await current.getByRole('button', { name: /^Sign out/ }).count(), 0, 'the current session has no sign-out button of its own')
      await expectAccessible(page, 'sessions')
      await screenshot(page, `console-sessions-${dialect}`)

      const other = list.getByRole('listitem').filter({ hasNotText: 'This session' })
      await other.getByRole('button', { name: /^Sign out/ }).click()
      await page.getByRole('status').filter({ hasText: 'Session signed out.' }).waitFor()
      await page.waitForFunction(() => document.querySelectorAll('ul.card-list > li').length === 1)

      // The phone still sends its cookie, and the server refuses it.
      assert.match(JSON.stringify(await phone.context.cookies()), /helpdesk_session/)
      assert.equal((await phone.context.request.get(`${server.api}/auth/me`)).status(), 401)
      await phone.page.reload()
      await phone.page.getByRole('button', { name: 'Log in' }).waitFor()
      // The laptop is still signed in.
      assert.equal((await laptop.context.request.get(`${server.api}/auth/me`)).status(), 200)
      assert.deepEqual([...laptop.problems, ...phone.problems].filter((problem) => !problem.includes('401')), [])

      // Signing out all the others (a second phone login) leaves only this session.
      await logIn(phone.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await page.reload()
      await list.getByRole('listitem').nth(1).waitFor()
      await page.getByRole('button', { name: 'Sign out all other sessions' }).click()
      await page.getByRole('status').filter({ hasText: 'All other sessions signed out.' }).waitFor()
      assert.equal((await phone.context.request.get(`${server.api}/auth/me`)).status(), 401)
      assert.equal((await laptop.context.request.get(`${server.api}/auth/me`)).status(), 200)
    })
  })
}
