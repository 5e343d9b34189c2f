/**
 * Runs axe-core on the console's main screens in Chromium and prints serious and critical violations:
 *   PREVIEW_URL=... node --import tsx packages/web/test/app/support/axe.ts
 */
import type { Page } from 'playwright-core'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { launchChromium, logIn } from '../../chromium.js'

const base = process.env.PREVIEW_URL ?? 'http://127.0.0.1:3000'
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const browser = await launchChromium()

interface Violation { id: string, impact: string, help: string, nodes: Array<{ target: string[] }> }

async function check (page: Page, path: string, heading: string, viewport = { width: 1280, height: 900 }): Promise<number> {
  await page.setViewportSize(viewport)
  await page.goto(`${base}${path}`)
  await page.getByRole('heading', { name: heading }).first().waitFor({ timeout: 10000 })
  await page.waitForTimeout(300)
  // CSP forbids inline scripts in the page, so axe runs from an isolated evaluate.
  const violations = await page.evaluate(async (source) => {
    // eslint-disable-next-line no-new-func
    new Function(source)()
    const result = await (window as unknown as { axe: { run: (opts: unknown) => Promise<{ violations: unknown[] }> } }).axe.run({ resultTypes: ['violations'] })
    return result.violations
  }, axeSource) as Violation[]
  if (process.env.AXE_VERBOSE === '1') console.log(path, violations.map((v) => `${v.impact} ${v.id}`).join(', ') || 'no violations')
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  for (const v of bad) console.log(`${path} [${viewport.width}px]: ${v.impact} ${v.id}: ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`)
  return bad.length
}

async function signedIn (email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await logIn(page, base, email, password)
  return page
}

let total = 0
const anonymous = await (await browser.newContext()).newPage()
total += await check(anonymous, '/login', 'Log in')
total += await check(anonymous, '/register', 'Create an account')
const admin = await signedIn('admin@example.com', 'admin-password')
for (const [path, heading] of [['/', 'Inbox'], ['/tickets/1', 'App crashes'], ['/customers', 'Customers'], ['/customers/3', 'Customer'], ['/agents', 'Agents'], ['/categories', 'Categories'], ['/fields', 'Custom fields'], ['/canned-responses', 'Canned responses'], ['/knowledge-base', 'Knowledge base editor'], ['/imports', 'Imports'], ['/notifications', 'Notifications']] as const) {
  total += await check(admin, path, heading)
}
total += await check(admin, '/', 'Inbox', { width: 390, height: 844 })
total += await check(admin, '/tickets/1', 'App crashes', { width: 390, height: 844 })
const customer = await signedIn('customer@example.com', 'customer-password')
total += await check(customer, '/portal', 'My tickets')
total += await check(customer, '/portal/new', 'New ticket')
total += await check(customer, '/portal/tickets/1', 'App crashes')
await browser.close()
console.log(`${total} serious or critical violation(s)`)
process.exitCode = total === 0 ? 0 : 1
