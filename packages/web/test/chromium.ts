/** Debian's Chromium (never a downloaded browser) as the browser tests and the support scripts drive it. */
import { chromium, type Browser, type Page } from 'playwright-core'

export const CHROMIUM = process.env.HELPDESK_CHROMIUM ?? '/usr/bin/chromium'

/** Headless, with no sandbox (containers) and no background traffic. */
export async function launchChromium (): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
  })
}

/** Logs in through the console's login form at `origin` and waits for the signed-in layout. */
export async function logIn (page: Page, origin: string, email: string, password: string): Promise<void> {
  await page.goto(`${origin}/login`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByRole('button', { name: 'Log out' }).waitFor()
}
