import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import {
  chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects
} from './harness.js'

const DOCS_IMAGE = fileURLToPath(new URL('../../../../docs/images/console-bulk.png', import.meta.url))

for (const dialect of testDialects()) {
  describe(`bulk actions in Chromium on ${dialect}`, () => {
    it('the agent selects 50 tickets (select-all, shift-click, x) and closes them in one request; the one they may no longer see is reported', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customer = await server.login(DEMO.customer.email, DEMO.customer.password)
      const categories = await server.call('GET', '/categories', undefined, customer) as Array<{ id: number, name: string }>
      const general = categories.find((c) => c.name === 'General')!
      const restricted = await server.call('POST', '/categories', { name: 'Restricted' }) as { id: number }
      const ids: number[] = []
      for (let n = 0; n < 50; n++) {
        const title = `Bulk ${String(n).padStart(2, '0')}`
        ids.push((await server.call('POST', '/tickets', { category: general.id, title, body: 'Please close me.' }, customer) as { id: number }).id)
      }

      const browser = await launchBrowser(t)
      const { page, problems } = await openPage(browser)
      await logIn(page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await page.goto(`${server.origin}/?q=Bulk&sort=title`)
      const box = (n: number) => page.getByRole('checkbox', { name: `Select #${ids[n]} Bulk ${String(n).padStart(2, '0')}` })
      await box(49).waitFor()
      const bar = page.getByRole('region', { name: 'Bulk actions' })
      /** Waits until row n's box is (un)checked: the page renders a moment after the key or click. */
      const expectChecked = async (n: number, expected: boolean, what: string) => {
        for (let i = 0; i < 50 && await box(n).isChecked() !== expected; i++) await new Promise((resolve) => setTimeout(resolve, 100))
        assert.equal(await box(n).isChecked(), expected, what)
      }

      // Shift-click selects a range: rows 2 to 6.
      await box(2).click()
      await box(6).click({ modifiers: ['Shift'] })
      await bar.getByText('5 selected').waitFor()
      for (let n = 0; n < 8; n++) assert.equal(await box(n).isChecked(), n >= 2 && n <= 6, `row ${n} after the shift-click`)
      // The docs' picture (docs/console-app.md): the bar over a range of checked rows, as the window shows it.
      if (dialect === 'sqlite') {
        await page.mouse.move(0, 0)
        await page.evaluate('window.scrollTo(0, 0)')
        await page.screenshot({ path: DOCS_IMAGE })
      }

      // `x` toggles the focused row: j/k move the focus, x adds row 0 and removes it again.
      await page.getByRole('link', { name: `#${ids[0]} Bulk 00` }).focus()
      await page.keyboard.press('x')
      await bar.getByText('6 selected').waitFor()
      await expectChecked(0, true, 'x checks the focused row')
      await page.keyboard.press('x')
      await bar.getByText('5 selected').waitFor()
      await expectChecked(0, false, 'x again unchecks it')
      await page.keyboard.press('j')
      await page.getByRole('link', { name: `#${ids[1]} Bulk 01` }).and(page.locator(':focus')).waitFor()
      await page.keyboard.press('x')
      await expectChecked(1, true, 'x on the row j moved to')
      await page.keyboard.press('?')
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
      await help.getByText('Select or unselect the focused ticket (shift-click a box selects a range)').waitFor()
      await page.keyboard.press('Escape')

      // Select all on the page: the 50 tickets.
      await page.getByRole('checkbox', { name: 'Select all 50 tickets on this page' }).check()
      await bar.getByText('50 selected').waitFor()
      await expectAccessible(page, 'inbox with 50 tickets selected')
      await screenshot(page, `bulk-selection-${dialect}`)

      // Meanwhile a colleague moves one ticket to a category the agent does not work in.
      const moved = ids[17]!
      await server.call('PATCH', `/tickets/${moved}`, { category: restricted.id })
      const requests: string[] = []
      page.on('request', (request) => { if (request.url().includes('/tickets/bulk')) requests.push(request.method()) })
      await bar.getByRole('button', { name: 'Close 50' }).click()
      const report = page.getByRole('status').filter({ hasText: '49 tickets changed, 1 failed' })
      await report.waitFor()
      await report.getByRole('listitem').filter({ hasText: `#${moved} Bulk 17: Ticket not found.` }).waitFor()
      assert.equal(await report.getByRole('listitem').count(), 1)
      assert.deepEqual(requests, ['POST'], 'one request for the 50 tickets')
      for (const id of ids) {
        const ticket = await server.call('GET', `/tickets/${id}`) as { status: number }
        assert.equal(ticket.status, id === moved ? 1 : 3, `ticket ${id}`)
      }
      // The list is refreshed: the inbox shows open and pending tickets, so the closed ones are gone and the selection is empty.
      await box(0).waitFor({ state: 'detached' })
      assert.equal(await bar.getByText(/selected/).count(), 0)
      await expectAccessible(page, 'inbox with the bulk report')
      assert.deepEqual(problems.filter((p) => !p.includes('401')), [])
    })

    it('at 360 px the bar wraps and stays usable: select two tickets and change their status', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customer = await server.login(DEMO.customer.email, DEMO.customer.password)
      const categories = await server.call('GET', '/categories', undefined, customer) as Array<{ id: number, name: string }>
      const general = categories.find((c) => c.name === 'General')!
      const ids: number[] = []
      for (const title of ['Narrow A', 'Narrow B']) ids.push((await server.call('POST', '/tickets', { category: general.id, title, body: 'Body.' }, customer) as { id: number }).id)
      const browser = await launchBrowser(t)
      const { page } = await openPage(browser, { viewport: { width: 360, height: 740 } })
      await logIn(page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await page.goto(`${server.origin}/?q=Narrow&sort=title`)
      await page.getByRole('checkbox', { name: `Select #${ids[0]} Narrow A` }).check()
      await page.getByRole('checkbox', { name: `Select #${ids[1]} Narrow B` }).check()
      const bar = page.getByRole('region', { name: 'Bulk actions' })
      await bar.getByText('2 selected').waitFor()
      const width = await page.evaluate('document.documentElement.scrollWidth')
      assert.ok(Number(width) <= 360, `the page scrolls sideways: ${String(width)} px`)
      await bar.getByLabel('Status').selectOption({ label: 'Pending' })
      await bar.getByRole('button', { name: 'Set status' }).click()
      await page.getByRole('status').filter({ hasText: '2 tickets changed.' }).waitFor()
      for (const id of ids) assert.equal((await server.call('GET', `/tickets/${id}`) as { status: number }).status, 2)
      await expectAccessible(page, 'inbox at 360 px after a bulk status change')
    })
  })
}
