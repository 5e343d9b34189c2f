import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, startConsole, testDialects
} from './harness.js'

for (const dialect of testDialects()) {
  describe(`ticket-page shortcuts in Chromium on ${dialect}`, () => {
    it('step through the inbox\'s tickets, reach status and assignment, switch reply and note; all listed under ?', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const categories = await server.call('GET', '/categories', undefined, customerToken) as Array<{ id: number, name: string }>
      const general = categories.find((c) => c.name === 'General')!
      const ids: number[] = []
      for (const title of ['Shortcut A', 'Shortcut B', 'Shortcut C']) {
        ids.push((await server.call('POST', '/tickets', { category: general.id, title, body: 'Body.' }, customerToken)).id)
      }
      const browser = await launchBrowser(t)
      const { page } = await openPage(browser)
      await logIn(page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await page.goto(`${server.origin}/?q=Shortcut&sort=title`)
      await page.getByRole('link', { name: `#${ids[0]} Shortcut A` }).click()
      await page.waitForURL(`${server.origin}/tickets/${ids[0]}`)
      const heading = page.getByRole('heading', { level: 1 })
      await heading.filter({ hasText: 'Shortcut A' }).waitFor()

      await page.keyboard.press('j')
      await page.waitForURL(`${server.origin}/tickets/${ids[1]}`)
      await heading.filter({ hasText: 'Shortcut B' }).waitFor()
      await page.keyboard.press('j')
      await page.waitForURL(`${server.origin}/tickets/${ids[2]}`)
      await page.keyboard.press('j')
      await page.keyboard.press('k')
      await page.waitForURL(`${server.origin}/tickets/${ids[1]}`)
      await heading.filter({ hasText: 'Shortcut B' }).waitFor()

      // A control's name; the composer's rich-text editor (a contenteditable text box) is named by its field's data-name.
      const focused = async () => await page.evaluate('document.activeElement && (document.activeElement.getAttribute("name") || document.activeElement.closest(".rich-text[data-name]")?.getAttribute("data-name") || document.activeElement.tagName)')
      const blur = async () => { await page.evaluate('document.activeElement && document.activeElement.blur()') }
      await page.locator('select[name="agent"]').waitFor()
      await page.keyboard.press('s')
      assert.equal(await focused(), 'status')
      await blur()
      await page.keyboard.press('a')
      assert.equal(await focused(), 'agent')
      await blur()
      await page.keyboard.press('n')
      assert.equal(await focused(), 'body')
      assert.equal(await page.locator('input[name="comment_type"][value="2"]').isChecked(), true, 'an internal note')
      await blur()
      await page.keyboard.press('r')
      assert.equal(await page.locator('input[name="comment_type"][value="1"]').isChecked(), true, 'a reply again')
      assert.equal(await focused(), 'body')
      await blur()

      await page.keyboard.press('?')
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
      await dialog.waitFor()
      for (const text of ['On a ticket', 'Next / previous ticket of the inbox', 'Change the status', 'Assign', 'Write a reply / an internal note']) {
        await dialog.getByText(text, { exact: true }).waitFor()
      }
      await expectAccessible(page, 'shortcuts dialog')
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'hidden' })
    })
  })
}
