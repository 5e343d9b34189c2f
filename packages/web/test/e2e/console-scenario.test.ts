import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects, type ConsoleServer
} from './harness.js'

/** A category with a custom field, a canned response, an agent working in it (without manage_articles), and a KB collection. */
async function setUp (server: ConsoleServer, stamp: number) {
  const category = await server.call('POST', '/categories', { name: `Printers ${stamp}` })
  await server.call('POST', '/fields', { title: 'Operating system', type: 'select-box', options: ['Linux', 'macOS', 'Windows'], required: true, categories: [category.id] })
  await server.call('POST', '/canned-responses', { name: 'Printer help', body: '<p>Hello {{customer.first_name}}, please update the printer driver.</p>', global: true })
  const agent = { first_name: 'Alex', last_name: 'Agent', email: `alex${stamp}@example.com`, password: 'alex-password' }
  const created = await server.call('POST', '/agents', { ...agent, password_confirmation: agent.password })
  await server.call('PUT', `/agents/${created.id}/categories`, { categories: [category.id] })
  const collection = await server.call('POST', '/article-collections', { category_id: category.id, name: 'Printing', visibility: 1 })
  await server.call('POST', '/articles', { category: category.id, collection: collection.id, title: 'Clearing a paper jam', body: '<p>Open the tray.</p>', status: 'published' })
  return { category, agent, collection }
}

for (const dialect of testDialects()) {
  describe(`the console in Chromium on ${dialect}`, () => {
    it('customer raises a ticket, agent answers with a canned response and a note, customer sees only the reply', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect, { HELPDESK_WEB_URL: 'https://help.example.test' })
      const stamp = Date.now()
      const { agent, collection } = await setUp(server, stamp)
      const browser = await launchBrowser(t)
      const dir = mkdtempSync(join(tmpdir(), 'helpdesk-e2e-'))
      t.after(() => { rmSync(dir, { recursive: true, force: true }) })
      const title = `Printer on fire ${stamp}`
      const customer = await openPage(browser)
      const staff = await openPage(browser)
      let ticketPath = ''

      await t.test('a customer registers and raises a ticket with a custom field and an attachment', async () => {
        const page = customer.page
        await page.goto(`${server.origin}/register`)
        await expectAccessible(page, 'registration')
        await page.getByLabel('First name').fill('Robin')
        await page.getByLabel('Last name').fill('Reader')
        await page.getByLabel('Email').fill(`robin${stamp}@example.com`)
        await page.getByLabel('Password', { exact: true }).fill('robin-password')
        await page.getByLabel('Confirm password').fill('robin-password')
        await page.getByRole('button', { name: 'Create account' }).click()
        await page.getByRole('heading', { name: 'My tickets' }).waitFor()
        await page.getByRole('link', { name: 'New ticket' }).first().click()
        await page.getByLabel('Category').selectOption({ label: `Printers ${stamp}` })
        await page.getByLabel('Subject').fill(title)
        await page.getByLabel('Describe the problem').fill('It smokes when I print.')
        await page.getByLabel('Operating system').selectOption('Linux')
        const file = join(dir, 'steps.txt')
        writeFileSync(file, 'Steps to reproduce\n')
        await page.getByLabel('Attach files').setInputFiles(file)
        await page.getByText('steps.txt').waitFor()
        await expectAccessible(page, 'new ticket')
        await screenshot(page, `console-portal-new-ticket-${dialect}`)
        await page.getByRole('button', { name: 'Submit ticket' }).click()
        await page.getByRole('heading', { name: title }).waitFor()
        ticketPath = new URL(page.url()).pathname
        await page.getByText('steps.txt').first().waitFor()
      })

      await t.test('an agent finds it in the inbox, answers with a canned response and adds a note', async () => {
        const page = staff.page
        await logIn(page, server.origin, agent.email, agent.password)
        await page.getByRole('table', { name: 'Tickets' }).waitFor()
        await page.getByRole('link', { name: title }).waitFor()
        await expectAccessible(page, 'inbox')
        await screenshot(page, `console-inbox-${dialect}`)
        await page.getByRole('link', { name: title }).click()
        await page.getByRole('heading', { name: title }).waitFor()
        assert.equal(/\/(\d+)$/.exec(page.url())?.[1], /\/(\d+)$/.exec(ticketPath)?.[1], 'the same ticket')
        await page.getByText('Linux').first().waitFor()
        await page.getByLabel('Canned response').selectOption({ label: 'Printer help' })
        await page.getByRole('button', { name: 'Insert into reply' }).click()
        // The reply is the rich-text editor's text box once its chunk has loaded.
        await page.locator('.composer [contenteditable="true"]').waitFor()
        assert.match(await page.getByLabel('Your reply').textContent() ?? '', /Hello Robin, please update the printer driver/)
        await page.getByRole('button', { name: 'Send reply' }).click()
        await page.getByText('Reply sent.').waitFor()
        await page.getByLabel('Internal note (staff only)').check()
        await page.getByLabel('Your note').fill('Secret: the customer uses an old driver.')
        await page.getByRole('button', { name: 'Add note' }).click()
        await page.getByText('Note added.').waitFor()
        await page.getByText('Secret: the customer uses an old driver.').waitFor()
        await expectAccessible(page, 'ticket view')
        await screenshot(page, `console-ticket-${dialect}`)
      })

      await t.test('the customer sees the reply and not the note', async () => {
        const page = customer.page
        await page.goto(`${server.origin}${ticketPath}`)
        await page.getByText('please update the printer driver').waitFor()
        assert.equal(await page.getByText('Secret: the customer uses an old driver.').count(), 0)
        await expectAccessible(page, 'customer ticket view')
        await screenshot(page, `console-portal-ticket-${dialect}`)
      })

      await t.test('an agent without manage_articles sees no knowledge-base editor; an administrator does', async () => {
        const page = staff.page
        await page.goto(`${server.origin}/`)
        await page.getByRole('table', { name: 'Tickets' }).waitFor()
        assert.equal(await page.getByRole('link', { name: 'Knowledge base editor' }).count(), 0)
        assert.equal(await page.getByRole('button', { name: 'New article' }).count(), 0)
        await page.goto(`${server.origin}/knowledge-base`)
        await page.getByRole('main').waitFor()
        assert.equal(await page.getByRole('button', { name: 'New article' }).count(), 0, 'no editor at its URL either')
      })

      await t.test('a draft written in the editor is not on the public pages', async () => {
        const admin = await openPage(browser)
        await logIn(admin.page, server.origin, DEMO.admin.email, DEMO.admin.password)
        await admin.page.getByRole('link', { name: 'Knowledge base editor' }).click()
        await admin.page.getByRole('button', { name: 'Articles Printing' }).click()
        await admin.page.getByRole('button', { name: 'New article' }).click()
        await admin.page.getByLabel('Title').fill(`Draft ${stamp}`)
        await admin.page.getByLabel('Body', { exact: true }).fill('Not yet.')
        await admin.page.getByRole('button', { name: 'Save' }).click()
        await admin.page.locator('tr', { hasText: `Draft ${stamp}` }).waitFor()
        await screenshot(admin.page, `console-kb-editor-${dialect}`)
        const kb = await openPage(browser, { javaScript: false })
        await kb.page.goto(`${server.origin}/kb/${collection.id}-printing`)
        await kb.page.getByRole('link', { name: 'Clearing a paper jam' }).waitFor()
        assert.equal(await kb.page.getByText(`Draft ${stamp}`).count(), 0)
        const search = await kb.page.goto(`${server.origin}/kb/search?q=${encodeURIComponent(`Draft ${stamp}`)}`)
        assert.equal(search?.status(), 200)
        assert.equal(await kb.page.locator('main ol.articles li').count(), 0)
        const sitemap = await fetch(`${server.origin}/sitemap.xml`)
        assert.equal(sitemap.status, 200)
        assert.ok(!(await sitemap.text()).includes(`draft-${stamp}`))
      })

      await t.test('logging out revokes the session at once', async () => {
        const page = customer.page
        const cookie = (await customer.context.cookies()).find((c) => c.name === 'helpdesk_session')
        assert.ok(cookie?.httpOnly)
        await page.getByRole('button', { name: 'Log out' }).click()
        await page.getByRole('heading', { name: 'Log in' }).waitFor()
        const replay = await fetch(`${server.api}/auth/session`, { headers: { cookie: `helpdesk_session=${cookie.value}` } })
        assert.equal(replay.status, 401, 'the old cookie is dead')
        assert.deepEqual([...customer.problems, ...staff.problems].filter((p) => !/40[134]/.test(p)), [], 'no CSP violation or script error')
      })
    })
  })
}
