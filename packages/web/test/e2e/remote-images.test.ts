import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { startImageServer } from '../server/image-server.js'
import { chromiumOrSkip, DEMO, expectAccessible, launchBrowser, logIn, openPage, screenshot, startConsole, testDialects } from './harness.js'

/** Waits until the image with this alt text has loaded (its bytes decoded). */
async function imageLoaded (page: Page, alt: string): Promise<void> {
  await page.waitForFunction((text) => {
    const img = document.querySelector<HTMLImageElement>(`img[alt="${text}"]`)
    return img?.complete === true && img.naturalWidth > 0
  }, alt)
}

for (const dialect of testDialects()) {
  describe(`remote images and Swagger UI in Chromium on ${dialect}`, () => {
    it('a remote image in a ticket is not requested until the reader asks, by staff or the customer; then through this origin', async (t) => {
      if (!chromiumOrSkip(t)) return
      const remote = await startImageServer(t)
      // The "remote" host is on 127.0.0.1: the proxy may fetch from it in this test only.
      const server = await startConsole(t, dialect, { HELPDESK_IMAGE_PROXY_ALLOW_PRIVATE_TARGETS: '1' })
      const customerToken = await server.login(DEMO.customer.email, DEMO.customer.password)
      const category = await server.call('POST', '/categories', { name: `Images ${Date.now()}` })
      const ticket = await server.call('POST', '/tickets', {
        category: category.id, title: 'Printer shows a logo', body: `<p>Hello, see our logo:</p><p><img src="${remote.origin}/pixel.png?body" alt="Company logo"></p>`
      }, customerToken)
      await server.call('POST', `/tickets/${ticket.id}/comments`, { body: `<p>Thanks, here is a diagram <img src="${remote.origin}/pixel.png?reply" alt="Diagram"></p>`, type: 1, private: false })
      const browser = await launchBrowser(t)
      const remoteAsked = (page: string[]): string[] => page.filter((url) => url.startsWith(remote.origin))

      for (const reader of [{ who: 'staff', ...DEMO.admin }, { who: 'customer', ...DEMO.customer }]) {
        await t.test(`${reader.who}: placeholders first, the image once asked for`, async () => {
          const { page, problems } = await openPage(browser)
          const requested: string[] = []
          page.on('request', (request) => { requested.push(request.url()) })
          const before = remote.requests.length
          await logIn(page, server.origin, reader.email, reader.password)
          // The login page's own check of the session (a 401) is not this test's business.
          const consoleErrors = problems.length
          await page.goto(`${server.origin}/tickets/${ticket.id}`)
          await page.getByRole('heading', { name: 'Printer shows a logo' }).waitFor()
          await page.getByText('Company logo').waitFor()
          await page.getByText('Diagram').waitFor()
          assert.equal(await page.getByRole('button', { name: 'Load remote images' }).count(), 2, 'one per message')
          await page.getByText('A remote image is not shown').first().waitFor()
          await page.waitForLoadState('networkidle')
          assert.deepEqual(remoteAsked(requested), [], 'the browser asked the remote host for nothing')
          assert.equal(remote.requests.length, before, 'and nobody did for it')
          assert.equal(await page.locator('img').count(), 0)
          await expectAccessible(page, `ticket with remote images (${reader.who})`)
          await screenshot(page, `remote-images-held-${reader.who}-${dialect}`)

          // The first message's button: its image only, fetched by the server, shown from this origin.
          await page.getByRole('button', { name: 'Load remote images' }).first().click()
          await imageLoaded(page, 'Company logo')
          const src = await page.locator('img[alt="Company logo"]').getAttribute('src')
          assert.equal(src, `/remote-image?url=${encodeURIComponent(`${remote.origin}/pixel.png?body`)}`)
          assert.deepEqual(remote.requests.slice(before).map((r) => r.url), ['/pixel.png?body'])
          assert.equal(remote.requests.at(-1)?.headers.cookie, undefined)
          assert.deepEqual(remoteAsked(requested), [], 'the browser still never spoke to the remote host')
          assert.equal(await page.getByRole('button', { name: 'Load remote images' }).count(), 1, 'the reply still holds its image')
          await page.getByRole('button', { name: 'Load remote images' }).click()
          await imageLoaded(page, 'Diagram')
          assert.deepEqual(remote.requests.slice(before).map((r) => r.url), ['/pixel.png?body', '/pixel.png?reply'])
          assert.deepEqual(problems.slice(consoleErrors), [], 'no console error (a refused image would log one)')
          await page.context().close()
        })
      }

      await t.test('the console\'s policy refuses a remote image outright', async () => {
        const res = await fetch(`${server.origin}/tickets/${ticket.id}`)
        const policy = res.headers.get('content-security-policy') ?? ''
        assert.match(policy, /img-src 'self' data:;/)
        assert.doesNotMatch(policy, /img-src[^;]*https:/)
      })

      await t.test('Swagger UI renders and runs a request under its strict policy, without a violation', async () => {
        const { page, problems } = await openPage(browser)
        const violations: string[] = []
        await page.exposeFunction('reportViolation', (text: string) => { violations.push(text) })
        await page.addInitScript(() => {
          document.addEventListener('securitypolicyviolation', (event) => {
            void (window as unknown as { reportViolation: (text: string) => Promise<void> }).reportViolation(`${event.effectiveDirective} ${event.blockedURI}`)
          })
        })
        await page.goto(`${server.origin}/docs`)
        // Swagger UI is loaded with the server's first request under /docs, and its bundle is large.
        await page.locator('.opblock').first().waitFor({ timeout: 60_000 })
        assert.ok(await page.locator('.opblock').count() > 50, 'every operation is listed')
        const ready = page.locator('.opblock').filter({ hasText: '/api/v1/ready' }).first()
        await ready.locator('.opblock-summary').click()
        await ready.getByRole('button', { name: 'Try it out' }).click()
        await ready.getByRole('button', { name: 'Execute' }).click()
        const status = ready.locator('.live-responses-table tbody .response-col_status').first()
        await status.waitFor()
        assert.equal((await status.textContent())?.trim(), '200')
        await page.getByRole('button', { name: /Authorize/ }).first().click()
        await page.locator('.auth-container input').first().fill('not-a-real-token')
        await page.locator('.auth-container .auth-btn-wrapper button.authorize').click()
        await page.getByRole('button', { name: 'Remove authorization' }).waitFor()
        assert.equal(await page.evaluate(() => window.localStorage.length), 0, 'the token is not persisted')
        await screenshot(page, `swagger-ui-${dialect}`)
        assert.deepEqual(violations, [])
        assert.deepEqual(problems, [])
      })
    })
  })
}
