import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { en as publicTexts } from '../../src/messages/en.js'
import { enConsole } from '../../src/messages/en-console.js'
import { t, setCatalogue } from '../../src/messages/index.js'
import { interpolate } from '../../src/messages/format.js'

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/app')

function sources (dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

/** The whole English catalogue: the public texts and the signed-in console's. */
const en = { ...publicTexts, ...enConsole }

const code = sources(appDir).map((file) => readFileSync(file, 'utf8')).join('\n')

test('every literal key the app passes to t() is in the catalogue', () => {
  const used = [...code.matchAll(/\bt\('([^']+)'/g)].map((m) => m[1] as string)
  assert.ok(used.length > 100, 'the scan finds the app\'s messages')
  const missing = [...new Set(used)].filter((key) => !(key in en))
  assert.deepEqual(missing, [])
})

test('keys built from a prefix (t(`person.status.${n}`)) have an entry for every value the API sends', () => {
  const families: Record<string, Array<string | number>> = {
    'person.status.': [1, 2, 3],
    'person.role.': [1, 2],
    'categories.verification.': [0, 1, 2],
    'kb.visibility.': [1, 2, 3, 4],
    'fields.type.': ['text', 'text-area', 'select-box'],
    'imports.status.': ['queued', 'running', 'completed', 'failed'],
    'permission.': ['view_all_tickets', 'manage_customers', 'manage_articles', 'assign_tickets', 'delete_tickets'],
    'reports.group.': ['category', 'agent', 'channel'],
    'reports.csv.': ['volume', 'first-response-time', 'resolution-time', 'replies', 'reopen-rate', 'satisfaction', 'backlog', 'tickets']
  }
  for (const [prefix, values] of Object.entries(families)) {
    assert.ok(code.includes(`t(\`${prefix}\${`), `the app builds keys from ${prefix}`)
    for (const value of values) assert.ok(`${prefix}${value}` in en, `${prefix}${value} is missing`)
  }
})

test('no catalogue entry is unused, so the catalogue stays the list of what a translator must do', () => {
  const dynamicPrefixes = [...code.matchAll(/t\(`([a-zA-Z.]+)\$\{/g)].map((m) => m[1] as string)
  const unused = Object.keys(en).filter((key) => !code.includes(`'${key}'`) && !dynamicPrefixes.some((prefix) => key.startsWith(prefix)))
  assert.deepEqual(unused, [])
})

test('no user-facing English sits in JSX outside the catalogue', () => {
  // Text between tags that has letters and is not an expression: `<h1>Inbox</h1>` would be caught.
  const offenders = sources(appDir).filter((f) => f.endsWith('.tsx')).flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return [...text.matchAll(/(?<![=-])>([^<>{}()=;\n]*[A-Za-z]{2,}[^<>{}()=;\n]*)<[/A-Za-z]/g)].map((m) => `${file}: ${m[1]}`)
  })
  assert.deepEqual(offenders, [])
})

test('t fills {name} tokens and a translation falls back to English for missing keys', () => {
  assert.equal(t('nav.unreadCount', { count: 3 }), '3 unread')
  assert.equal(interpolate('{a} and {b}', { a: 1 }), '1 and {b}')
  setCatalogue({ 'nav.inbox': 'Posteingang' })
  try {
    assert.equal(t('nav.inbox'), 'Posteingang')
    assert.equal(t('nav.logOut'), 'Log out')
  } finally {
    setCatalogue({})
  }
})
