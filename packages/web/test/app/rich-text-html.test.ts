import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sanitizeBody } from '@helpdesk/core'
import { allowedUrl, richTextHtml, type RichTextNode } from '../../src/app/rich-text-html.js'

const text = (value: string, ...marks: Array<string | { type: string, attrs: Record<string, unknown> }>): RichTextNode =>
  ({ type: 'text', text: value, ...(marks.length > 0 ? { marks: marks.map((m) => typeof m === 'string' ? { type: m } : m) } : {}) })
const p = (...content: RichTextNode[]): RichTextNode => ({ type: 'paragraph', content })
const doc = (...content: RichTextNode[]): RichTextNode => ({ type: 'doc', content })
const link = (href: string) => ({ type: 'link', attrs: { href, target: '_blank', rel: 'noopener' } })

/** Each format the editor offers, as Tiptap's JSON, and the HTML it must become. */
const formats: Array<[string, RichTextNode, string]> = [
  ['paragraphs', doc(p(text('One')), p(text('Two'))), '<p>One</p><p>Two</p>'],
  ['bold', doc(p(text('a '), text('bold', 'bold'), text(' word'))), '<p>a <strong>bold</strong> word</p>'],
  ['italic', doc(p(text('it', 'italic'))), '<p><em>it</em></p>'],
  ['underline', doc(p(text('u', 'underline'))), '<p><u>u</u></p>'],
  ['strikethrough', doc(p(text('gone', 'strike'))), '<p><s>gone</s></p>'],
  ['inline code', doc(p(text('Use '), text('a < b && c', 'code'))), '<p>Use <code>a &lt; b &amp;&amp; c</code></p>'],
  ['nested marks', doc(p(text('b', 'bold'), text('bi', 'italic', 'bold'), text('b', 'bold'))), '<p><strong>b<em>bi</em>b</strong></p>'],
  ['link', doc(p(text('see '), text('the docs', link('https://example.com/a?b=1&c="2"')))), '<p>see <a href="https://example.com/a?b=1&amp;c=&quot;2&quot;" rel="noopener noreferrer nofollow">the docs</a></p>'],
  ['mailto link', doc(p(text('mail', link('mailto:help@example.com')))), '<p><a href="mailto:help@example.com" rel="noopener noreferrer nofollow">mail</a></p>'],
  ['bold link', doc(p(text('x', link('https://e.com'), 'bold'))), '<p><a href="https://e.com" rel="noopener noreferrer nofollow"><strong>x</strong></a></p>'],
  ['bulleted list', doc({ type: 'bulletList', content: [{ type: 'listItem', content: [p(text('one'))] }, { type: 'listItem', content: [p(text('two'))] }] }), '<ul><li><p>one</p></li><li><p>two</p></li></ul>'],
  ['numbered list', doc({ type: 'orderedList', attrs: { start: 3, type: null }, content: [{ type: 'listItem', content: [p(text('three'))] }] }), '<ol><li><p>three</p></li></ol>'],
  ['quote', doc({ type: 'blockquote', content: [p(text('quoted'))] }), '<blockquote><p>quoted</p></blockquote>'],
  ['code block', doc({ type: 'codeBlock', attrs: { language: null }, content: [text('if (a < b) {\n  go("x")\n}')] }), '<pre><code>if (a &lt; b) {\n  go("x")\n}</code></pre>'],
  ['code block with a language', doc({ type: 'codeBlock', attrs: { language: 'ts' }, content: [text('let a')] }), '<pre><code class="language-ts">let a</code></pre>'],
  ['heading', doc({ type: 'heading', attrs: { level: 2 }, content: [text('Title')] }), '<h2>Title</h2>'],
  ['line break', doc(p(text('a'), { type: 'hardBreak' }, text('b'))), '<p>a<br />b</p>'],
  ['rule', doc(p(text('a')), { type: 'horizontalRule' }, p(text('b'))), '<p>a</p><hr /><p>b</p>'],
  ['image of an attachment', doc({ type: 'image', attrs: { src: '/api/v1/attachments/abc/download', alt: 'screen "1".png', title: null } }), '<img src="/api/v1/attachments/abc/download" alt="screen &quot;1&quot;.png" />'],
  ['image without alt', doc({ type: 'image', attrs: { src: 'https://example.com/a.png', alt: null, title: 'T' } }), '<img src="https://example.com/a.png" alt="" title="T" />'],
  ['special characters', doc(p(text('5 > 3 & "quotes" \'single\' \u00a0nbsp é 😀'))), '<p>5 &gt; 3 &amp; "quotes" \'single\' \u00a0nbsp é 😀</p>']
]

for (const [name, json, html] of formats) {
  test(`the editor writes ${name} as the sanitiser keeps it, unchanged`, () => {
    const written = richTextHtml(json)
    assert.equal(written, html)
    assert.equal(sanitizeBody(written), written, 'the sanitiser changes nothing')
  })
}

test('addresses the sanitiser would drop are not written: a javascript: link loses its href, a data: image is left out', () => {
  const written = richTextHtml(doc(p(text('x', link('javascript:alert(1)'))), { type: 'image', attrs: { src: 'data:image/png;base64,AAAA', alt: 'x' } }))
  assert.equal(written, '<p><a rel="noopener noreferrer nofollow">x</a></p>')
  assert.equal(sanitizeBody(written), written)
  assert.equal(allowedUrl('//evil.example/x'), false, 'protocol-relative addresses are refused, as by the sanitiser')
  assert.equal(allowedUrl('mailto:a@b.c', true), false, 'an image is http(s) or a path')
})

test('an empty document is the empty string, trailing empty paragraphs are left out, and unknown nodes keep only their text', () => {
  assert.equal(richTextHtml(doc(p())), '')
  assert.equal(richTextHtml(doc(p(text('a')), p(), { type: 'bulletList', content: [{ type: 'listItem', content: [p(text('b'))] }] }, p(), p())), '<p>a</p><p></p><ul><li><p>b</p></li></ul>', 'only the trailing empty paragraphs go')
  assert.equal(richTextHtml(doc()), '')
  assert.equal(richTextHtml(doc({ type: 'mystery', content: [p(text('kept'))] })), '<p>kept</p>')
})
