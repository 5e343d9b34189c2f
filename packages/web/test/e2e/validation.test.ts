import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, startConsole, testDialects
} from './harness.js'

for (const dialect of testDialects()) {
  describe(`validation messages in Chromium on ${dialect}`, () => {
    it('name the form\'s own labels and clear as soon as the field is valid', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const browser = await launchBrowser(t)
      const { page } = await openPage(browser)
      await logIn(page, server.origin, DEMO.customer.email, DEMO.customer.password)
      await page.goto(`${server.origin}/portal/new`)
      await page.getByRole('button', { name: 'Submit ticket' }).click()

      const subject = page.getByLabel('Subject')
      const errorOf = (label: string) => page.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error')
      await errorOf('Subject').waitFor()
      assert.equal(await errorOf('Subject').textContent(), 'Subject is required.')
      assert.equal(await errorOf('Category').textContent(), 'Category is required.')
      assert.equal(await page.getByRole('alert').textContent(), 'Please correct the marked fields.')
      assert.equal(await page.getByText(/The title field/).count(), 0, 'never the API\'s name of the field')
      assert.equal(await subject.getAttribute('aria-invalid'), 'true')
      await expectAccessible(page, 'new ticket with validation messages')

      // Typing makes the subject valid: its message goes at once, before anything is sent again.
      await subject.fill('Printer offline')
      assert.equal(await errorOf('Subject').count(), 0)
      assert.equal(await subject.getAttribute('aria-invalid'), null)
      assert.equal(await errorOf('Category').textContent(), 'Category is required.', 'the other field is still wrong')
      await subject.fill('   ')
      assert.equal(await errorOf('Subject').textContent(), 'Subject is required.', 'blank again: said again')
      await subject.fill('Printer offline')
      await page.getByLabel('Category').selectOption({ label: 'General' })
      assert.equal(await errorOf('Category').count(), 0)
    })
  })
}
