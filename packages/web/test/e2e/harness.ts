/**
 * Browser tests: Debian's Chromium (never a downloaded browser) driven by
 * playwright-core against a real `helpdesk serve` process on port 0, on
 * SQLite and PostgreSQL; axe-core checks every page; screenshots go to
 * packages/web/test/output/ (gitignored).
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { testDialects } from '@helpdesk/store-knex'
import { bin, deployment, killServer, startServer, type ServerProcess } from '../../../cli/test/server-process.js'
import { CHROMIUM, launchChromium } from '../chromium.js'

export { testDialects, CHROMIUM }
export { logIn } from '../chromium.js'

const require = createRequire(import.meta.url)
export const OUTPUT_DIR = fileURLToPath(new URL('../output/', import.meta.url))
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/** The demo accounts of `helpdesk seed`. */
export const DEMO = {
  admin: { email: 'admin@example.com', password: 'admin-password' },
  agent: { email: 'agent@example.com', password: 'agent-password' },
  customer: { email: 'customer@example.com', password: 'customer-password' }
} as const

/**
 * Whether the browser tests can run. Without Chromium they are skipped on a
 * developer's machine, and fail under CI=true (CI must install it: `.ci/run`).
 */
export function chromiumOrSkip (t: TestContext): boolean {
  if (existsSync(CHROMIUM)) return true
  if (process.env.CI === 'true' || process.env.CI === '1') assert.fail(`Chromium is missing at ${CHROMIUM}: apt-get install chromium (CI must run the browser tests)`)
  t.skip(`no Chromium at ${CHROMIUM}`)
  return false
}

export interface ConsoleServer {
  process: ServerProcess
  /** `http://127.0.0.1:PORT` */
  origin: string
  /** `http://127.0.0.1:PORT/api/v1` */
  api: string
  /** A bearer token of the demo administrator, to set data up through the API. */
  adminToken: string
  /** Calls the API with the administrator's (or another) bearer token; answers `data`. */
  call: (method: string, path: string, body?: unknown, token?: string) => Promise<any>
  /** A bearer token for a user, by logging in. */
  login: (email: string, password: string) => Promise<string>
}

/** `helpdesk seed`, then `helpdesk serve` on a fresh database of `dialect` (with `env` added to its environment); stopped and dropped after the test. */
export async function startConsole (t: TestContext, dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}, port = 0): Promise<ConsoleServer> {
  const { databaseUrl, storage } = await deployment(t, dialect)
  await promisify(execFile)(process.execPath, [bin, 'seed', '--database', databaseUrl], { env: { ...process.env, HELPDESK_QUIET: '1' } })
  const server = await startServer(databaseUrl, storage, env, undefined, port)
  t.after(async () => { await killServer(server) })
  const api = server.url
  const login = async (email: string, password: string): Promise<string> => {
    const res = await fetch(`${api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
    assert.equal(res.status, 200, await res.clone().text())
    return ((await res.json()) as { data: { token: string } }).data.token
  }
  const adminToken = await login(DEMO.admin.email, DEMO.admin.password)
  const call: ConsoleServer['call'] = async (method, path, body, token = adminToken) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {})
    })
    const text = await res.text()
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${text}`)
    return text === '' ? null : (JSON.parse(text) as { data?: unknown }).data
  }
  return { process: server, origin: api.replace(/\/api\/v1$/, ''), api, adminToken, call, login }
}

/** Headless Chromium with a fresh profile (playwright-core's temporary user-data-dir), closed after the test. */
export async function launchBrowser (t: TestContext): Promise<Browser> {
  const browser = await launchChromium()
  t.after(async () => { await browser.close() })
  return browser
}

export interface BrowserPage {
  context: BrowserContext
  page: Page
  /** Console errors and failed requests the page logged (a CSP violation shows up here). */
  problems: string[]
}

/** A new browser context (own cookies) and page; JavaScript on unless `javaScript: false`. */
export async function openPage (browser: Browser, options: { javaScript?: boolean, viewport?: { width: number, height: number } } = {}): Promise<BrowserPage> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScript ?? true,
    viewport: options.viewport ?? { width: 1280, height: 860 },
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin'
  })
  // Generous: two browser tests, their servers and PostgreSQL share a 2-vCPU CI machine, where a lazy chunk or a
  // navigation has taken over 15 s. A control that never appears still fails, only later.
  context.setDefaultTimeout(30_000)
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`) })
  page.on('pageerror', (error) => { problems.push(`page error: ${error.message}`) })
  return { context, page, problems }
}

interface AxeViolation { id: string, impact: string | null, help: string, nodes: Array<{ target: string[] }> }

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, which
 * the page's CSP does not block) and fails on any serious or critical
 * violation of WCAG 2 A/AA rules.
 */
export async function expectAccessible (page: Page, label: string): Promise<void> {
  await page.evaluate(AXE_SOURCE)
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }))
  }) as AxeViolation[]
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  assert.deepEqual(serious.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), [], `axe on ${label}`)
}

/**
 * Waits until a form control shows `expected` (the console renders state it
 * reads from the URL after the URL changes), then asserts it, so a control
 * that never gets there fails with both values.
 */
export async function expectValue (control: Locator, expected: string, timeout = 10_000): Promise<void> {
  const until = Date.now() + timeout
  while (await control.inputValue() !== expected && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50))
  assert.equal(await control.inputValue(), expected)
}

/** Saves a full-page screenshot as packages/web/test/output/<name>.png. */
export async function screenshot (page: Page, name: string): Promise<string> {
  mkdirSync(OUTPUT_DIR, { recursive: true })
  const path = join(OUTPUT_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}
