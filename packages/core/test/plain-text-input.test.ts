import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { displayText, escapeHtml, plainTextInput } from '../src/html.js'
import { requiredPlainText } from '../src/text-input.js'
import { ticketSubject } from '../src/mail/mail-headers.js'
import { renderTemplate } from '../src/mail/mail-templates.js'

const LITERAL = 'Template shows <div class="x"> literally'

/** Issue 35: plain-text fields are text — validated and escaped on output, never stripped. */
describe('plain-text input', () => {
  it('keeps what was typed, escaping < and >, and is idempotent', () => {
    const stored = plainTextInput(`  ${LITERAL}\n`)
    assert.equal(stored, 'Template shows &lt;div class="x"&gt; literally')
    assert.equal(plainTextInput(stored), stored)
    assert.equal(displayText(stored), LITERAL)
    assert.equal(plainTextInput('a & b &amp; c'), 'a & b &amp; c', 'ampersands are text too')
    assert.equal(plainTextInput('<script>alert(1)</script>'), '&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('validates: blank and too long are errors; markup is not', () => {
    const errors: Record<string, string[]> = {}
    assert.equal(requiredPlainText(errors, 'title', '<b></b>', 250), '&lt;b&gt;&lt;/b&gt;')
    assert.deepEqual(errors, {})
    requiredPlainText(errors, 'title', ' \n ', 250)
    requiredPlainText(errors, 'name', 'x'.repeat(251), 250)
    assert.deepEqual(Object.keys(errors), ['title', 'name'])
  })

  it('shows as typed in mail: subjects are text, HTML templates escape once', () => {
    const stored = plainTextInput(LITERAL)
    assert.equal(ticketSubject(7, stored, true), `Re: [#7] ${LITERAL}`)
    const values = { ticket: { title: displayText(stored) } } as never
    assert.equal(renderTemplate('<h1>{{ticket.title}}</h1>', values, true), `<h1>${escapeHtml(LITERAL)}</h1>`)
    assert.equal(renderTemplate('{{ticket.title}}', values, false), LITERAL)
  })
})
