import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { copyFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects } from './harness.js'

const DOCS_IMAGE = fileURLToPath(new URL('../../../../docs/images/console-reports.png', import.meta.url))

/** Polls `check` until it holds (the server's reports.update job runs a second after changes). */
async function eventually (check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms
  while (!await check()) {
    if (Date.now() > until) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

for (const dialect of testDialects()) {
  describe(`reports in Chromium on ${dialect}`, () => {
    it('the administrator reads the reports screen with its charts and CSV links; an agent sees their own figures at home', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const customer = await server.login(DEMO.customer.email, DEMO.customer.password)
      const agentToken = await server.login(DEMO.agent.email, DEMO.agent.password)
      const agent = (await server.call('GET', '/auth/me', undefined, agentToken)) as { id: number }
      const categories = await server.call('GET', '/categories', undefined, customer) as Array<{ id: number }>
      for (const [i, category] of categories.slice(0, 2).entries()) {
        for (let n = 0; n < 3 + i; n++) {
          const ticket = await server.call('POST', '/tickets', { category: category.id, title: `Printer ${i}.${n}`, body: 'It jams.' }, customer) as { id: number }
          await server.call('PUT', `/tickets/${ticket.id}/agents`, { agent: agent.id })
          await server.call('POST', `/tickets/${ticket.id}/comments`, { body: 'Looking into it.', type: 1, private: false }, agentToken)
          if (n % 2 === 0) await server.call('POST', `/tickets/${ticket.id}/comments`, { body: 'Fixed.', type: 1, private: false, close: true }, agentToken)
          // One urgent ticket per category: the reports group it by priority.
          if (n === 1) await server.call('PATCH', `/tickets/${ticket.id}`, { priority: 'urgent' })
        }
      }
      // Four weeks of history, imported (answered and resolved after minutes to days), so the charts have something to show.
      const day = 86_400_000
      const stamp = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')
      const lines: object[] = [
        { type: 'category', id: 'hw', name: 'Hardware' }, { type: 'category', id: 'acc', name: 'Accounts' },
        { type: 'agent', id: 'gus', first_name: 'Demo', last_name: 'Agent', email: DEMO.agent.email },
        ...[1, 2, 3].map((n) => ({ type: 'customer', id: `c${n}`, first_name: `Client${n}`, last_name: 'Example', email: `client${n}@reports.example` }))
      ]
      const midnight = Math.floor(Date.now() / day) * day
      for (let n = 0; n < 60; n++) {
        const created = midnight - (28 - (n % 28)) * day + (8 + (n * 7) % 9) * 3_600_000
        const answered = created + (10 + (n * 37) % 300) * 60_000
        const resolved = answered + (1 + (n * 13) % 50) * 3_600_000
        const closed = n % 4 !== 0 && resolved < Date.now()
        lines.push({
          type: 'ticket', id: `h${n}`, customer: `c${1 + n % 3}`, category: n % 3 === 0 ? 'acc' : 'hw', agent: 'gus', title: `History ${n}`, body: 'Imported.',
          status: closed ? 'closed' : 'pending', created_at: stamp(created), updated_at: stamp(closed ? resolved : answered),
          comments: [{ body: 'On it.', agent: 'gus', created_at: stamp(answered) }]
        })
      }
      const form = new FormData()
      form.append('file', new Blob([lines.map((l) => JSON.stringify(l)).join('\n')]), 'history.jsonl')
      const upload = await fetch(`${server.api}/imports`, { method: 'POST', headers: { authorization: `Bearer ${server.adminToken}` }, body: form })
      assert.ok(upload.status < 300, await upload.text())
      // A ticket rated good and one rated bad.
      const rated = await server.call('GET', '/tickets?filter[status]=3&per_page=100', undefined, customer) as Array<{ id: number }>
      for (const [i, ticket] of rated.slice(0, 2).entries()) await server.call('PUT', `/tickets/${ticket.id}/satisfaction`, { rating: i === 0 ? 'good' : 'bad' }, customer)
      const from = new Date(midnight - 30 * day).toISOString().slice(0, 10)
      const today = new Date().toISOString().slice(0, 10)
      await eventually(async () => {
        const volume = await server.call('GET', `/reports/volume?from=${from}&to=${today}`) as { rows: Array<{ created: number }> }
        const urgent = await server.call('GET', `/reports/volume?from=${from}&to=${today}&priority=urgent`) as { rows: Array<{ created: number }> }
        return volume.rows.reduce((n, r) => n + r.created, 0) >= 60 && urgent.rows.reduce((n, r) => n + r.created, 0) === 2
      })

      const browser = await launchBrowser(t)
      const staff = await openPage(browser)
      await logIn(staff.page, server.origin, DEMO.admin.email, DEMO.admin.password)
      await staff.page.getByRole('link', { name: 'Reports' }).click()
      await staff.page.getByRole('heading', { name: 'Reports' }).waitFor()
      await staff.page.getByRole('heading', { name: 'Summary' }).waitFor()
      await staff.page.getByRole('heading', { name: 'SLA attainment' }).waitFor()
      // Business time: the response and resolution columns switch to the SLA calendar's time (the demo's default policy is 24/7).
      await staff.page.getByLabel('Times in').selectOption('business')
      await staff.page.getByRole('heading', { name: 'Summary' }).waitFor()
      await staff.page.getByRole('img', { name: 'Tickets created and solved per period' }).locator('canvas').waitFor()
      // By priority: a row per priority, named as the ticket screens name them.
      await staff.page.getByLabel('Group by').selectOption('priority')
      await staff.page.getByRole('columnheader', { name: 'Priority' }).first().waitFor()
      await staff.page.getByRole('rowheader', { name: 'Urgent' }).first().waitFor()
      await staff.page.getByRole('rowheader', { name: 'Normal' }).first().waitFor()
      // Narrowed to one priority: the reports are asked with priority=urgent, and only the urgent row is left.
      const summaryGroups = async () => await staff.page.locator('.report-table').first().getByRole('rowheader').allTextContents()
      assert.ok((await summaryGroups()).length > 1, 'every priority with tickets has its row')
      const narrowed = staff.page.waitForRequest((request) => /\/api\/v1\/reports\/first-response-time\?[^#]*\bpriority=urgent\b/.test(request.url()))
      await staff.page.getByLabel('Priority', { exact: true }).selectOption('urgent')
      await narrowed
      await eventually(async () => JSON.stringify(await summaryGroups()) === '["Urgent"]', 10_000)
      assert.match(await staff.page.getByRole('link', { name: 'Ticket-level rows' }).getAttribute('href') ?? '', /[?&]priority=urgent(&|$)/, 'the CSV downloads are narrowed too')
      await staff.page.getByLabel('Priority', { exact: true }).selectOption('')
      await staff.page.getByRole('rowheader', { name: 'Normal' }).first().waitFor()
      await staff.page.getByLabel('Group by').selectOption('category')
      await staff.page.getByRole('columnheader', { name: 'Category' }).waitFor()
      const csv = await staff.page.getByRole('link', { name: 'Ticket-level rows' }).getAttribute('href')
      assert.match(csv ?? '', /\/api\/v1\/reports\/tickets\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&time_zone=Europe%2FBerlin&format=csv/)
      const download = await staff.page.evaluate(async (url) => { const res = await fetch(url); return [res.status, res.headers.get('content-type'), (await res.text()).split('\r\n')[0]] }, csv ?? '')
      assert.deepEqual(download, [200, 'text/csv; charset=utf-8', 'ticket_id,category_id,agent_id,channel,priority,status,created_at,first_response_at,resolved_at,first_response_s,resolution_s,replies,reopens,rating,' +
        'first_response_bs,resolution_bs,sla_first_response,sla_next_response,sla_resolution'])
      await expectAccessible(staff.page, 'reports')
      const shot = await screenshot(staff.page, `console-reports-${dialect}`)
      if (dialect === 'sqlite') copyFileSync(shot, DOCS_IMAGE)
      // The 401 is the session check before logging in; the live event stream (/events) may be cut while the page stays open.
      assert.deepEqual(staff.problems.filter((p) => !/\b401\b|ERR_INCOMPLETE_CHUNKED_ENCODING/.test(p)), [], 'no CSP violation or script error')

      const home = await openPage(browser)
      await logIn(home.page, server.origin, DEMO.agent.email, DEMO.agent.password)
      const figures = home.page.getByRole('region', { name: 'My last 30 days' })
      await figures.waitFor()
      assert.match(await figures.textContent() ?? '', /Solved\d+/)
    })
  })
}
