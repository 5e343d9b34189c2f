import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { plainText, sanitizeBody } from '../src/html.js'

/** A disallowed tag, discarded whole: appending it forces the parser without changing what it returns. */
const FORCE_PARSER = '<x-parse></x-parse>'

const PIECES = ['a', 'Z', ' ', '  ', '\t', '\n', '\r', '\u00a0', 'é', '漢', '🙂', '"', "'", '=', '/', '\\', '\0', 'p', '<p>', '</p>', '<p>', '</p>', '&', '<', '>', '<br>', '<P>']

/** A deterministic stream of random strings built from pieces that sit on either side of the fast path. */
function * samples (count: number): Generator<string> {
  let state = 12345
  const next = (n: number): number => { state = (state * 1103515245 + 12345) % 2147483648; return state % n }
  for (let i = 0; i < count; i++) {
    const length = next(12)
    let text = ''
    for (let k = 0; k < length; k++) text += PIECES[next(PIECES.length)]
    yield text
  }
}

describe('sanitizeBody and plainText without the parser', () => {
  it('give exactly the parser\'s result on every input the fast path takes', () => {
    let simple = 0
    for (const html of samples(40000)) {
      // Only well-formed input takes the fast path; elsewhere the appended tag could merge with a broken one.
      if (!/^[^<>&]*(?:<p>[^<>&]*<\/p>[^<>&]*)*$/.test(html)) continue
      simple++
      assert.equal(sanitizeBody(html), sanitizeBody(html + FORCE_PARSER), JSON.stringify(html))
      for (const max of [1, 5, 200]) assert.equal(plainText(html, max), plainText(html + FORCE_PARSER, max), JSON.stringify(html))
    }
    assert.ok(simple > 2000, `${simple} samples took the fast path`)
  })

  it('plain text never contains markup, keeps escaped text escaped, and is stable when fed back (CONTRACT §17)', () => {
    for (const html of samples(20000)) {
      const text = plainText(html, 500)
      assert.doesNotMatch(text, /[<>]/, JSON.stringify(html))
      assert.equal(plainText(text, 500), text, JSON.stringify(html))
    }
    assert.equal(plainText('&lt;img src=x onerror=alert(1)&gt;'), '&lt;img src=x onerror=alert(1)&gt;')
    assert.equal(plainText('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'), '&lt;script&gt;alert(1)&lt;/script&gt;')
    assert.equal(plainText('&#60;b&#62; &amp;lt;i&amp;gt; Tom &amp; Jerry'), '&lt;b&gt; &lt;i&gt; Tom & Jerry')
  })

  it('still cleans what needs cleaning', () => {
    assert.equal(sanitizeBody('<p>hi</p><script>alert(1)</script>'), '<p>hi</p>')
    assert.equal(sanitizeBody('<p onclick="x()">hi</p>'), '<p>hi</p>')
    assert.equal(sanitizeBody('<p>a & b</p>'), '<p>a &amp; b</p>')
    assert.equal(plainText('<p>one</p><p>two</p>'), 'one two')
    assert.equal(plainText('<p> spaced   out </p>', 6), 'spaced')
  })
})
