/**
 * Screenshots of the console's main screens in Debian's Chromium, for looking at them:
 *   PREVIEW_URL=http://127.0.0.1:NNNN node --import tsx packages/web/test/app/support/look.ts /tmp/shots
 * Prints browser console errors (CSP violations included) and failed requests.
 */
import type { Page } from 'playwright-core'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { launchChromium, logIn } from '../../chromium.js'

const base = process.env.PREVIEW_URL ?? 'http://127.0.0.1:3000'
const out = process.argv[2] ?? '/tmp/helpdesk-shots'
const only = process.argv[3]
mkdirSync(out, { recursive: true })

const browser = await launchChromium()

async function session (email: string, password: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  page.on('console', (message) => { if (message.type() === 'error' || message.type() === 'warning') console.log(`[${email}] console ${message.type()}: ${message.text()}`) })
  page.on('pageerror', (error) => { console.log(`[${email}] page error: ${error.message}`) })
  page.on('response', (response) => { if (response.status() >= 400 && response.url().includes('/api/')) console.log(`[${email}] ${response.status()} ${response.request().method()} ${response.url()}`) })
  await logIn(page, base, email, password)
  return page
}

async function shot (page: Page, name: string, path: string, waitFor?: string): Promise<void> {
  if (only !== undefined && !name.includes(only)) return
  await page.goto(`${base}${path}`)
  if (waitFor !== undefined) await page.getByRole('heading', { name: waitFor }).first().waitFor({ timeout: 5000 }).catch(() => { console.log(`${name}: heading "${waitFor}" not found`) })
  await page.waitForTimeout(400)
  await page.screenshot({ path: join(out, `${name}.png`), fullPage: true })
}

const admin = await session('admin@example.com', 'admin-password')
await shot(admin, 'inbox', '/', 'Inbox')
await shot(admin, 'ticket', '/tickets/1')
await shot(admin, 'customers', '/customers', 'Customers')
await shot(admin, 'agents', '/agents', 'Agents')
await shot(admin, 'categories', '/categories', 'Categories')
await shot(admin, 'fields', '/fields', 'Custom fields')
await shot(admin, 'canned', '/canned-responses', 'Canned responses')
await shot(admin, 'kb-editor', '/knowledge-base', 'Knowledge base editor')
await shot(admin, 'imports', '/imports', 'Imports')
await shot(admin, 'notifications', '/notifications', 'Notifications')

const customer = await session('customer@example.com', 'customer-password')
await shot(customer, 'portal', '/portal', 'My tickets')
await shot(customer, 'portal-new', '/portal/new', 'New ticket')

const phone = await session('agent@example.com', 'agent-password', { width: 390, height: 844 })
await shot(phone, 'phone-inbox', '/', 'Inbox')
await shot(phone, 'phone-ticket', '/tickets/1')

const anonymous = await browser.newPage()
if (only === undefined || 'login'.includes(only)) {
  await anonymous.goto(`${base}/login`)
  await anonymous.getByRole('heading', { name: 'Log in' }).waitFor()
  await anonymous.screenshot({ path: join(out, 'login.png') })
}
await browser.close()
console.log(`screenshots in ${out}`)
