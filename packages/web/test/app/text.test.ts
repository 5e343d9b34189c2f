import { test } from 'node:test'
import assert from 'node:assert/strict'
import { textToHtml, parseTagList } from '../../src/app/text.js'
import { moveItem } from '../../src/app/components/sortable-order.js'

test('composer text becomes escaped paragraphs with line breaks', () => {
  assert.equal(textToHtml('Hello <b>you</b> & co\nline two\n\nNext "one"'), '<p>Hello &lt;b&gt;you&lt;/b&gt; &amp; co<br>line two</p><p>Next &quot;one&quot;</p>')
  assert.equal(textToHtml('  \n\n '), '')
})

test('moving an item reorders the list and leaves out-of-range moves alone', () => {
  const items = [1, 2, 3, 4]
  assert.deepEqual(moveItem(items, 0, 2), [2, 3, 1, 4])
  assert.deepEqual(moveItem(items, 3, 0), [4, 1, 2, 3])
  assert.equal(moveItem(items, 1, 1), items)
  assert.equal(moveItem(items, 0, 9), items)
})

test('a comma-separated tags input becomes trimmed, distinct names', () => {
  assert.deepEqual(parseTagList(' billing,  Account  setup ,, billing,'), ['billing', 'Account setup'])
  assert.deepEqual(parseTagList('  '), [])
})
