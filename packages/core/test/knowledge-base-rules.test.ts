import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { renderPlaceholders, placeholderValues, type PlaceholderValues } from '../src/canned-responses/placeholders.js'
import { slugOf, uniqueSlug, SLUG_MAX } from '../src/knowledge-base/slug.js'
import { supportEnd } from '../src/knowledge-base/marketplace-access.js'
import { newCustomField, changedCustomField } from '../src/fields/custom-field-input.js'
import { ValidationError } from '../src/errors.js'

const values: PlaceholderValues = placeholderValues({
  ticket: { id: 7, title: 'A & B', status: 2 },
  category: { name: 'Billing' },
  customer: { first_name: '<i>Ann</i>', last_name: 'O\'Neil', email: 'a@x.test' },
  agent: { first_name: 'Bo', last_name: '"Q"' }
})

describe('placeholder rendering', () => {
  it('replaces known tokens with or without inner spaces, escaping & < > " \'', () => {
    assert.equal(
      renderPlaceholders('{{ticket.id}}|{{ ticket.title }}|{{  customer.first_name\t}}|{{customer.last_name}}|{{agent.last_name}}', values),
      '7|A &amp; B|&lt;i&gt;Ann&lt;/i&gt;|O\'Neil|"Q"'
    )
  })

  it('sanitises after filling: a value cannot make a script link, a tag or an attribute (issue 29)', () => {
    const named = (firstName: string): PlaceholderValues => ({ ...values, 'customer.first_name': firstName })
    // The audit's case: nothing to escape in the value, yet a javascript: link once filled in.
    const link = renderPlaceholders('<a href="{{customer.first_name}}">Profile</a>', named('javascript:alert(1)//'))
    assert.equal(link, '<a rel="noopener noreferrer nofollow">Profile</a>')
    for (const scheme of ['JavaScript:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x']) {
      const html = renderPlaceholders('<a href="{{customer.first_name}}">x</a><img src="{{customer.first_name}}">', named(scheme))
      assert.doesNotMatch(html, /href=|src=/, scheme)
    }
    // Attribute values and text keep their values, escaped for where they land.
    assert.equal(
      renderPlaceholders('<a title="{{customer.first_name}}" href="https://example.com/?q={{customer.first_name}}">{{customer.first_name}}</a>', named('x" onmouseover="alert(1)')),
      '<a title="x&quot; onmouseover=&quot;alert(1)" href="https://example.com/?q=x&quot; onmouseover=&quot;alert(1)" rel="noopener noreferrer nofollow">x" onmouseover="alert(1)</a>'
    )
    assert.equal(renderPlaceholders('<p>{{customer.first_name}}</p>', named('<img src=x onerror=alert(1)>')), '<p>&lt;img src=x onerror=alert(1)&gt;</p>')
    assert.equal(renderPlaceholders('<a href="mailto:{{customer.email}}">{{customer.email}}</a>', values),
      '<a href="mailto:a@x.test" rel="noopener noreferrer nofollow">a@x.test</a>')
  })

  it('renders the status as a word and repeats tokens', () => {
    assert.equal(renderPlaceholders('{{ticket.status}} {{ticket.status}} {{ticket.category}}', values), 'Pending Pending Billing')
    const closed = placeholderValues({ ticket: { id: 1, title: '', status: 3 }, category: null, customer: null, agent: { first_name: '', last_name: '' } })
    assert.deepEqual([closed['ticket.status'], closed['ticket.category'], closed['customer.email']], ['Closed', '', ''])
  })

  it('leaves unknown and malformed tokens as written', () => {
    const text = '{{ticket.secret}} {{ Ticket.Id }} {{ticket.id {ticket.id} {{ }} {{constructor}} {{__proto__}} {{toString}}'
    assert.equal(renderPlaceholders(text, values), text)
    assert.equal(renderPlaceholders('{{{ticket.id}}}', values), '{7}')
  })
})

describe('slugs', () => {
  it('transliterates to lowercase ASCII letters, digits and single hyphens', () => {
    assert.equal(slugOf('  Hello,   World!! '), 'hello-world')
    assert.equal(slugOf('Ærøskøbing — Straße über Café'), 'aeroskobing-strasse-ueber-cafe')
    assert.equal(slugOf('iPhone 15 Pro_Max'), 'iphone-15-pro-max')
    assert.equal(slugOf('--a--b--'), 'a-b')
    assert.equal(slugOf('日本語 🎉'), '')
  })

  it('stays within the length limit, cutting at a hyphen', () => {
    const slug = slugOf('word '.repeat(100))
    assert.ok(slug.length <= SLUG_MAX)
    assert.match(slug, /^word(-word)*$/)
    assert.equal(slugOf('x'.repeat(300)).length, SLUG_MAX)
  })

  it('suffixes -2, -3... on clashes', () => {
    assert.equal(uniqueSlug('faq', []), 'faq')
    assert.equal(uniqueSlug('faq', ['faq']), 'faq-2')
    assert.equal(uniqueSlug('faq', ['faq', 'faq-2', 'faq-4']), 'faq-3')
    assert.equal(uniqueSlug('faq', ['faq-2']), 'faq')
  })
})

describe('marketplace support end', () => {
  it('reads Dates, ISO 8601 and the API\'s UTC datetime; null for anything else', () => {
    assert.equal(supportEnd('2030-01-02 03:04:05')?.toISOString(), '2030-01-02T03:04:05.000Z')
    assert.equal(supportEnd('2030-01-02T03:04:05+02:00')?.toISOString(), '2030-01-02T01:04:05.000Z')
    assert.equal(supportEnd(new Date(0))?.getTime(), 0)
    assert.equal(supportEnd(null), null)
    assert.equal(supportEnd('soon'), null)
    assert.equal(supportEnd(new Date('nope')), null)
  })
})

describe('custom field input', () => {
  const errorsOf = (fn: () => unknown) => {
    try { fn() } catch (error) { if (error instanceof ValidationError) return Object.keys(error.errors).sort() }
    return []
  }

  it('requires options only for select-boxes and keeps them across partial updates', () => {
    assert.deepEqual(errorsOf(() => newCustomField({ type: 'select-box', title: 'Plan' })), ['options'])
    const field = { id: 1, created_at: '', updated_at: '', ...newCustomField({ type: 'select-box', title: 'Plan', options: ['A'] }) }
    assert.deepEqual(changedCustomField(field, { title: 'Tier' }).meta, ['A'])
    assert.deepEqual(changedCustomField(field, { type: 'text-area' }).meta, [])
    const text = { ...field, type: 'text' as const, meta: [] }
    assert.deepEqual(errorsOf(() => changedCustomField(text, { type: 'select-box' })), ['options'])
    assert.deepEqual(errorsOf(() => newCustomField({ type: 'checkbox' as never, title: '' })), ['title', 'type'])
  })
})
