import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { gzipSync } from 'node:zlib'
import { join, dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The console's initial JavaScript (entry script and what it preloads), gzipped, must stay within this. */
const BUDGET_BYTES = 120 * 1024

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const appDir = join(packageDir, 'dist/app')

function built (): string {
  const index = join(appDir, 'index.html')
  if (!existsSync(index)) execFileSync('pnpm', ['run', 'build:app'], { cwd: packageDir, stdio: 'inherit' })
  return readFileSync(index, 'utf8')
}

function initialScripts (html: string): string[] {
  const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"[^>]*>/g)].map((m) => m[1] as string)
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"[^>]*>/g)].map((m) => m[1] as string)
  return [...scripts, ...preloads]
}

test(`the initial JavaScript of the console is at most ${BUDGET_BYTES / 1024} KB gzipped`, () => {
  const html = built()
  const files = initialScripts(html)
  assert.ok(files.length > 0, 'index.html loads the app')
  const sizes = files.map((file) => gzipSync(readFileSync(join(appDir, file.replace(/^\.?\//, ''))), { level: 9 }).length)
  const total = sizes.reduce((a, b) => a + b, 0)
  console.log(`initial JavaScript: ${(total / 1024).toFixed(1)} KB gzipped in ${files.length} file(s)`)
  assert.ok(total <= BUDGET_BYTES, `initial JavaScript is ${(total / 1024).toFixed(1)} KB gzipped, over the ${BUDGET_BYTES / 1024} KB budget`)
})

test('screens are split into their own chunks, loaded on first visit', () => {
  const html = built()
  const initial = new Set(initialScripts(html).map((f) => f.replace(/^\.?\//, '')))
  const chunks = readdirSync(join(appDir, 'assets')).filter((f) => f.endsWith('.js'))
  for (const screen of ['Inbox', 'TicketView', 'KnowledgeBase', 'NewTicket']) {
    const chunk = chunks.find((f) => f.startsWith(`${screen}-`))
    assert.ok(chunk !== undefined, `${screen} has its own chunk`)
    assert.ok(!initial.has(`assets/${chunk}`), `${screen} is not in the initial load`)
  }
})

test('index.html has no inline script or style, so a strict CSP (script-src/style-src \'self\') holds', () => {
  const html = built()
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    assert.match(match[1] ?? '', /\bsrc=/, 'every script is an external file')
    assert.equal((match[2] ?? '').trim(), '', 'no inline script body')
  }
  assert.doesNotMatch(html, /<style\b/, 'no inline <style>')
  assert.doesNotMatch(html, /\sstyle="/, 'no style attributes')
  assert.doesNotMatch(html, /\son[a-z]+="/i, 'no inline event handlers')
  assert.match(html, /<meta name="helpdesk-api" content="[^"]+">/, 'the API prefix is configurable through a meta tag')
})
