import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { testDialects } from '../src/testing.js'

function withDialects<T> (value: string | undefined, fn: () => T): T {
  const saved = process.env.HELPDESK_TEST_DIALECTS
  if (value === undefined) delete process.env.HELPDESK_TEST_DIALECTS
  else process.env.HELPDESK_TEST_DIALECTS = value
  try {
    return fn()
  } finally {
    if (saved === undefined) delete process.env.HELPDESK_TEST_DIALECTS
    else process.env.HELPDESK_TEST_DIALECTS = saved
  }
}

describe('testDialects', () => {
  it('covers both databases by default and honours a valid list', () => {
    assert.deepEqual(withDialects(undefined, testDialects), ['sqlite', 'postgres'])
    assert.deepEqual(withDialects(' postgres ', testDialects), ['postgres'])
    assert.deepEqual(withDialects('sqlite,postgres,sqlite', testDialects), ['sqlite', 'postgres'])
  })

  it('fails loudly on a name it does not know, instead of running no storage suite', () => {
    assert.throws(() => withDialects('postgresql', testDialects), /unknown: postgresql/)
    assert.throws(() => withDialects('sqlite,pg', testDialects), /unknown: pg/)
    assert.throws(() => withDialects('', testDialects), /HELPDESK_TEST_DIALECTS/)
  })
})
