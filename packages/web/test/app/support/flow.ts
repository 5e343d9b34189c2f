/**
 * Drives the main scenario through the console in Chromium, for checking the screens work together:
 *   PREVIEW_URL=... node --import tsx packages/web/test/app/support/flow.ts /tmp/shots
 */
import type { Page } from 'playwright-core'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import assert from 'node:assert/strict'
import { launchChromium, logIn } from '../../chromium.js'

const base = process.env.PREVIEW_URL ?? 'http://127.0.0.1:3000'
const out = process.argv[2] ?? '/tmp/helpdesk-shots'
const browser = await launchChromium()

async function fresh (): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  pages.push(page)
  page.on('pageerror', (error) => { console.log(`page error: ${error.message}`) })
  page.on('console', (message) => { if (message.type() === 'error' && !message.text().includes('Failed to load resource')) console.log(`console: ${message.text()}`) })
  return page
}

const pages: Page[] = []

async function main (): Promise<void> {
const stamp = Date.now()
// A customer registers and raises a ticket with a custom field and an attachment.
const customer = await fresh()
await customer.goto(`${base}/register`)
await customer.getByLabel('First name').fill('Robin')
await customer.getByLabel('Last name').fill('Reader')
await customer.getByLabel('Email').fill(`robin${stamp}@example.com`)
await customer.getByLabel('Password', { exact: true }).fill('robin-password')
await customer.getByLabel('Confirm password').fill('robin-password')
await customer.getByRole('button', { name: 'Create account' }).click()
await customer.getByRole('heading', { name: 'My tickets' }).waitFor()
await customer.getByRole('link', { name: 'New ticket' }).first().click()
await customer.getByLabel('Category').selectOption({ label: 'General' })
await customer.getByLabel('Subject').fill(`Printer on fire ${stamp}`)
await customer.getByLabel('Describe the problem').fill('It smokes when I print.')
await customer.getByLabel('Operating system').selectOption('Linux')
const file = join(out, 'steps.txt')
writeFileSync(file, 'Steps to reproduce\n')
await customer.getByLabel('Attach files').setInputFiles(file)
await customer.getByText('steps.txt').waitFor()
await customer.getByRole('button', { name: 'Submit ticket' }).click()
await customer.getByRole('heading', { name: new RegExp(`Printer on fire ${stamp}`) }).waitFor()
const ticketUrl = customer.url()
await customer.screenshot({ path: join(out, 'flow-customer-ticket.png'), fullPage: true })

// An agent finds it, answers with a canned response and adds a note.
const agent = await fresh()
await logIn(agent, base, 'admin@example.com', 'admin-password')
// Keyboard: ? opens the help panel, Escape closes it; j moves down, r opens the ticket with the composer focused.
await agent.getByRole('table', { name: 'Tickets' }).waitFor()
await agent.keyboard.press('?')
await agent.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor()
await agent.keyboard.press('Escape')
await agent.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'hidden' })
await agent.keyboard.press('j')
await agent.keyboard.press('r')
await agent.getByRole('heading', { name: 'Reply', exact: true }).waitFor()
assert.equal(await agent.evaluate(() => document.activeElement?.tagName), 'TEXTAREA')
await agent.goBack()
await agent.getByLabel('Search').fill(`Printer on fire ${stamp}`)
await agent.getByRole('button', { name: 'Apply' }).click()
await agent.getByRole('link', { name: new RegExp(`Printer on fire ${stamp}`) }).click()
await agent.getByRole('heading', { name: new RegExp(`Printer on fire ${stamp}`) }).waitFor()
await agent.getByLabel('Canned response').selectOption({ label: 'Password reset' })
await agent.getByRole('button', { name: 'Insert into reply' }).click()
await agent.locator('.composer [contenteditable="true"]').waitFor()
assert.match(await agent.getByLabel('Your reply').textContent() ?? '', /Hello Robin/)
await agent.getByRole('button', { name: 'Send reply' }).click()
await agent.getByText('Reply sent.').waitFor()
await agent.getByLabel('Internal note (staff only)').check()
await agent.getByLabel('Your note').fill('Secret: customer uses an old driver.')
await agent.getByRole('button', { name: 'Add note' }).click()
await agent.getByText('Note added.').waitFor()
await agent.getByText('Secret: customer uses an old driver.').waitFor()
await agent.screenshot({ path: join(out, 'flow-agent-ticket.png'), fullPage: true })

// The customer sees the reply and not the note, then closes the ticket.
await customer.goto(ticketUrl)
await customer.getByText('Hello Robin').waitFor()
assert.equal(await customer.getByText('Secret: customer uses an old driver.').count(), 0)
await customer.getByLabel('Your reply').fill('Thanks, that fixed it.')
await customer.getByLabel('Close the ticket with this reply').check()
await customer.getByRole('button', { name: 'Send and close' }).click()
await customer.getByText('Reply sent.').waitFor()
await customer.locator('.ticket-meta').getByText('Closed').waitFor()
await customer.screenshot({ path: join(out, 'flow-customer-closed.png'), fullPage: true })

// Validation: a 422 marks the fields.
await customer.getByRole('link', { name: 'New ticket' }).first().click()
await customer.getByRole('button', { name: 'Submit ticket' }).click()
await customer.locator('[aria-invalid="true"]').first().waitFor()
await customer.screenshot({ path: join(out, 'flow-validation.png'), fullPage: true })

// Administration: a draft article is created and reordered; an import runs to completion with progress.
await agent.goto(`${base}/knowledge-base`)
await agent.getByRole('button', { name: 'Articles Getting started' }).click()
await agent.getByRole('button', { name: 'New article' }).click()
await agent.getByLabel('Title').fill(`Draft ${stamp}`)
await agent.getByLabel('Body', { exact: true }).fill('Not yet.')
await agent.getByRole('button', { name: 'Save' }).click()
await agent.locator('tr', { hasText: `Draft ${stamp}` }).waitFor()
await agent.getByRole('button', { name: `Move “Draft ${stamp}” up` }).click()
await agent.getByText('Order saved.').waitFor()
const articleRows = agent.locator('table').nth(1).locator('tbody tr')
await articleRows.nth((await articleRows.count()) - 2).filter({ hasText: `Draft ${stamp}` }).waitFor()
await agent.screenshot({ path: join(out, 'flow-kb-editor.png'), fullPage: true })
await agent.goto(`${base}/imports`)
const importFile = join(out, 'import.jsonl')
writeFileSync(importFile, [
  { type: 'category', id: `c${stamp}`, name: `Imported ${stamp}` },
  { type: 'customer', id: `u${stamp}`, first_name: 'Ima', last_name: 'Port', email: `ima${stamp}@example.com` }
].map((r) => JSON.stringify(r)).join('\n') + '\n')
await agent.getByLabel('File to import').setInputFiles(importFile)
await agent.getByRole('button', { name: 'Start import' }).click()
await agent.getByRole('status').filter({ hasText: 'Completed' }).waitFor({ timeout: 15000 })
await agent.screenshot({ path: join(out, 'flow-import.png'), fullPage: true })

// Log out revokes the session.
await customer.getByRole('button', { name: 'Log out' }).click()
await customer.getByRole('heading', { name: 'Log in' }).waitFor()
}

try {
  await main()
  console.log('flow ok')
} catch (error) {
  console.log(String(error))
  for (const [index, page] of pages.entries()) await page.screenshot({ path: join(out, `flow-failure-${index}.png`), fullPage: true }).catch(() => {})
  process.exitCode = 1
} finally {
  await browser.close()
}
