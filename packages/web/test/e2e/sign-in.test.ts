import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { captureSmtp } from '../../../fastify/test/mail-fixtures.js'
import { freePort } from '../../../fastify/test/free-port.js'
import { startIdentityProvider } from '../../../fastify/test/oidc-provider-fixture.js'
import { totp } from '../../../fastify/test/totp.js'
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
  describe(`signing in from the console in Chromium on ${dialect}`, () => {
    it('resets a forgotten password end to end, the link arriving by SMTP', async (t) => {
      if (!chromiumOrSkip(t)) return
      const smtp = await captureSmtp(t)
      const port = await freePort()
      const origin = `http://127.0.0.1:${port}`
      const server = await startConsole(t, dialect, {
        HELPDESK_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, HELPDESK_MAIL_FROM: 'Support <support@example.com>', HELPDESK_PUBLIC_URL: `${origin}/api/v1`
      }, port)
      const browser = await launchBrowser(t)
      const { page, problems } = await openPage(browser)
      await page.goto(`${server.origin}/login`)
      await page.getByRole('link', { name: 'Forgot your password?' }).click()
      await page.getByLabel('Email').fill(DEMO.customer.email)
      await page.getByRole('button', { name: 'Send the link' }).click()
      await page.getByRole('status').filter({ hasText: 'If the address belongs to an account' }).waitFor()
      await expectAccessible(page, 'forgot-password')

      const mail = await eventually(() => smtp.mails.find((m) => m.envelope.to.includes(DEMO.customer.email)))
      assert.equal(mail.parsed.subject, 'Reset your password')
      const link = /https?:\/\/\S+\/reset-password#token=[\w-]+/.exec(mail.parsed.text ?? '')?.[0]
      assert.ok(link !== undefined, mail.parsed.text)
      assert.ok(link.startsWith(`${origin}/reset-password#token=`))
      await page.goto(link)
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor()
      // The token leaves the address bar once read.
      await page.waitForFunction(() => window.location.hash === '')
      await page.getByLabel('New password', { exact: true }).fill('a-brand-new-password')
      await page.getByLabel('New password again').fill('a-brand-new-password')
      await page.getByRole('button', { name: 'Set the password' }).click()
      await page.getByRole('status').filter({ hasText: 'Your password is set' }).waitFor()
      await screenshot(page, `console-password-reset-${dialect}`)
      await logIn(page, server.origin, DEMO.customer.email, 'a-brand-new-password')
      assert.deepEqual(problems.filter((problem) => !problem.includes('401')), [])
    })

    it('enrols an authenticator app from the security screen, then signs in with a code', async (t) => {
      if (!chromiumOrSkip(t)) return
      const server = await startConsole(t, dialect)
      const browser = await launchBrowser(t)
      const { page, problems } = await openPage(browser)
      await logIn(page, server.origin, DEMO.agent.email, DEMO.agent.password)
      await page.getByRole('link', { name: 'Security' }).click()
      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click()
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor()
      await expectAccessible(page, 'two-factor-enrolment')
      await screenshot(page, `console-two-factor-qr-${dialect}`)
      const secret = (await page.getByTestId('totp-secret').textContent()) ?? ''
      assert.match(secret, /^[A-Z2-7]{32}$/)
      await page.getByLabel('Code', { exact: true }).fill(totp(secret, Date.now()))
      await page.getByRole('button', { name: 'Turn on' }).click()
      const codes = page.getByRole('list', { name: 'Your recovery codes' })
      await codes.getByRole('listitem').nth(9).waitFor()
      assert.equal(await codes.getByRole('listitem').count(), 10)
      await page.getByRole('button', { name: 'I have saved them' }).click()
      await page.getByTestId('two-factor-status').filter({ hasText: 'Recovery codes left: 10' }).waitFor()

      await page.getByRole('button', { name: 'Log out' }).click()
      await page.getByLabel('Email').fill(DEMO.agent.email)
      await page.getByLabel('Password').fill(DEMO.agent.password)
      await page.getByRole('button', { name: 'Log in' }).click()
      await page.getByRole('heading', { name: 'Enter your code' }).waitFor()
      // The next step's code: the enrolment used this one.
      await page.getByLabel('Code', { exact: true }).fill(totp(secret, Date.now(), 1))
      await page.getByRole('button', { name: 'Verify' }).click()
      await page.getByRole('button', { name: 'Log out' }).waitFor()
      assert.deepEqual(problems.filter((problem) => !problem.includes('401')), [])
    })

    it('signs an agent in through an OpenID Provider from the sign-in page\'s button', async (t) => {
      if (!chromiumOrSkip(t)) return
      const port = await freePort()
      const origin = `http://127.0.0.1:${port}`
      const idp = await startIdentityProvider(t, `${origin}/api/v1/auth/sso/company/callback`, {
        'gus-sub': { email: 'gus@example.com', email_verified: true, given_name: 'Gus', family_name: 'Grant', groups: ['helpdesk-agents'] }
      })
      const server = await startConsole(t, dialect, { HELPDESK_PUBLIC_URL: `${origin}/api/v1` }, port)
      await server.call('POST', '/sso/providers', {
        slug: 'company', name: 'Company login', issuer: idp.issuer, client_id: 'helpdesk', client_secret: 'helpdesk-client-secret',
        scopes: 'openid email profile groups', staff: true, customers: false, create_users: true, link_by_email: false,
        mapping: { claim: 'groups', admin: [], agent: ['helpdesk-agents'] }
      })
      const browser = await launchBrowser(t)
      const { page } = await openPage(browser)
      await page.goto(`${server.origin}/login`)
      await expectAccessible(page, 'login-with-sso')
      await screenshot(page, `console-login-sso-${dialect}`)
      await page.getByRole('link', { name: 'Sign in with Company login' }).click()
      // The provider's own (development) sign-in and consent pages.
      await page.locator('input[name="login"]').fill('gus-sub')
      await page.locator('input[name="password"]').fill('anything')
      await page.locator('button[type="submit"]').click()
      await page.locator('button[type="submit"]').click()
      await page.getByRole('button', { name: 'Log out' }).waitFor()
      const me = await page.context().request.get(`${server.api}/auth/session`)
      assert.equal(me.status(), 200)
      const body = await me.json() as { data: { user: { email: string, type: string } } }
      assert.equal(body.data.user.email, 'gus@example.com')
      assert.equal(body.data.user.type, 'agent')
    })
  })
}
