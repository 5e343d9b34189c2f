import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { gzipSync } from 'node:zlib'
import { join, dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The reports screen's chunk (its charting library, uPlot, included), gzipped, must stay within this. */
const REPORTS_BUDGET_BYTES = 60 * 1024

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const appDir = join(packageDir, 'dist/app')

test(`the reports screen loads its charts in a chunk of its own, at most ${REPORTS_BUDGET_BYTES / 1024} KB gzipped, and no other chunk has them`, () => {
  if (!existsSync(join(appDir, 'index.html'))) execFileSync('pnpm', ['run', 'build:app'], { cwd: packageDir, stdio: 'inherit' })
  const html = readFileSync(join(appDir, 'index.html'), 'utf8')
  const chunks = readdirSync(join(appDir, 'assets')).filter((f) => f.endsWith('.js'))
  const reports = chunks.find((f) => f.startsWith('Reports-'))
  assert.ok(reports !== undefined, 'Reports has its own chunk')
  assert.ok(!html.includes(reports), 'the reports chunk is not in the initial load')
  const size = gzipSync(readFileSync(join(appDir, 'assets', reports)), { level: 9 }).length
  console.log(`reports chunk: ${(size / 1024).toFixed(1)} KB gzipped`)
  assert.ok(size <= REPORTS_BUDGET_BYTES, `${(size / 1024).toFixed(1)} KB gzipped`)
  // uPlot's own class names: only the reports chunk carries the library.
  const withChart = chunks.filter((f) => readFileSync(join(appDir, 'assets', f), 'utf8').includes('u-over'))
  assert.deepEqual(withChart, [reports])
})
