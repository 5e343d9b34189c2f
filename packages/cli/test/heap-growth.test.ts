import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { CliError } from '../src/config-file.js'
import { DEFAULT_HEAP_GROWTH_PERCENT, heapGrowthFlag } from '../src/heap-growth.js'

const bin = fileURLToPath(new URL('../bin/helpdesk.js', import.meta.url))

describe('heap growth of helpdesk serve', () => {
  it('lets the old generation grow by half by default', () => {
    assert.equal(DEFAULT_HEAP_GROWTH_PERCENT, 50)
    assert.equal(heapGrowthFlag({}, []), '--heap-growing-percent=50')
  })

  it('takes HELPDESK_HEAP_GROWTH_PERCENT, 0 leaving V8 its own default', () => {
    assert.equal(heapGrowthFlag({ HELPDESK_HEAP_GROWTH_PERCENT: '25' }, []), '--heap-growing-percent=25')
    assert.equal(heapGrowthFlag({ HELPDESK_HEAP_GROWTH_PERCENT: '0' }, []), null)
  })

  it('keeps a growth the operator gave V8 on the command line or in NODE_OPTIONS', () => {
    assert.equal(heapGrowthFlag({}, ['--heap-growing-percent=80']), null)
    assert.equal(heapGrowthFlag({}, ['--heap_growing_percent=80']), null)
    assert.equal(heapGrowthFlag({ NODE_OPTIONS: '--max-old-space-size=512 --heap-growing-percent=10', HELPDESK_HEAP_GROWTH_PERCENT: '30' }, []), null)
    // Other V8 flags do not count as a choice of growth.
    assert.equal(heapGrowthFlag({ NODE_OPTIONS: '--max-old-space-size=512' }, ['--max-semi-space-size=8']), '--heap-growing-percent=50')
  })

  it('refuses anything but a whole percentage', () => {
    for (const value of ['', 'half', '-5', '1.5', '1000']) {
      assert.throws(() => heapGrowthFlag({ HELPDESK_HEAP_GROWTH_PERCENT: value }, []), (error: unknown) =>
        error instanceof CliError && error.message.includes('HELPDESK_HEAP_GROWTH_PERCENT'), value)
    }
  })

  it('makes serve exit with the message on a bad value, before opening anything', () => {
    const result = spawnSync(process.execPath, [bin, 'serve', '--database', 'sqlite::memory:', '--port', '0'], {
      env: { ...process.env, HELPDESK_HEAP_GROWTH_PERCENT: 'lots', HELPDESK_QUIET: '1' }, encoding: 'utf8', timeout: 30_000
    })
    assert.equal(result.status, 1, result.stderr)
    assert.match(result.stderr, /HELPDESK_HEAP_GROWTH_PERCENT must be a whole percentage/)
  })
})
