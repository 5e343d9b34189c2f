import { createRequire } from 'node:module'
import type sanitizeHtmlType from 'sanitize-html'

/** sanitize-html, loaded on the first body that needs it (startup does not pay for it, and most bodies never do). */
const require = createRequire(import.meta.url)
let sanitizer: typeof sanitizeHtmlType | undefined
function sanitizeHtml (html: string, options: sanitizeHtmlType.IOptions): string {
  sanitizer ??= require('sanitize-html') as typeof sanitizeHtmlType
  return sanitizer(html, options)
}

/**
 * Ticket, comment, note and article bodies may be HTML. They are cleaned with
 * sanitize-html before storage: only formatting tags survive; scripts, event
 * handlers, styles and javascript:/data: URLs do not.
 */
const options: sanitizeHtmlType.IOptions = {
  allowedTags: [
    'a', 'abbr', 'b', 'blockquote', 'br', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'hr', 'i', 'img', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre', 's', 'small', 'span', 'strong', 'sub',
    'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul'
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    '*': ['class']
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // What sanitize-html's `simpleTransform('a', ...)` makes: the same tag, with `rel` set.
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer nofollow' } })
  }
}

/**
 * Text with nothing to clean: no `<`, `>` or `&` except whole, unnested
 * `<p>...</p>` paragraphs. Most bodies (plain text, simple editors, imports)
 * look like this; both functions below answer them without parsing, with
 * exactly the result the parser gives (a test compares them on random input).
 */
const SIMPLE = /^[^<>&]*(?:<p>[^<>&]*<\/p>[^<>&]*)*$/

export function sanitizeBody (html: string): string {
  if (SIMPLE.test(html)) return html
  return sanitizeHtml(html, options)
}

/** Tags that end a word: `<p>a</p><p>b</p>` reads "a b", not "ab". */
const WORD_BREAKS = /<(?=\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b)/gi

/**
 * Plain text of HTML (a body, or a title typed with tags), whitespace collapsed, at most `max`
 * characters. Tags are dropped (their text kept); entities are decoded except `&lt;` and `&gt;`:
 * a `<` or `>` in the text, typed or escaped, stays `&lt;`/`&gt;`, so plain text never contains
 * markup (CONTRACT §17) and `&lt;img&gt;` is not turned into `<img>`. Idempotent.
 */
export function plainText (html: string, max = 200): string {
  const decoded = SIMPLE.test(html)
    ? html.replace(/<\/?p>/g, ' ')
    : sanitizeHtml(html.replace(WORD_BREAKS, ' <'), { allowedTags: [], allowedAttributes: {} })
      .replace(/&nbsp;/g, ' ')
      .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
  const text = decoded.replace(/\s+/g, ' ').trim()
  return text.length <= max ? text : [...text].slice(0, max).join('')
}

/**
 * A plain-text field as typed (a title, a name), in its stored and API form
 * (CONTRACT §17): nothing is stripped or decoded — `Template shows <div>`
 * stays those words — whitespace is collapsed and `<` and `>` are escaped as
 * `&lt;`/`&gt;`, so the value never contains markup and shows as typed once a
 * renderer turns them back (`displayText`) and escapes for its own output.
 * Idempotent.
 */
export function plainTextInput (value: string): string {
  return value.replace(/\s+/g, ' ').trim().replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * A plain-text field as text to show: plain text keeps `<` and `>` escaped as
 * `&lt;`/`&gt;` (CONTRACT §17), so a renderer turns them back before escaping
 * the whole value for its own output (never insert the result unescaped).
 */
export function displayText (plain: string): string {
  return plain.replace(/&lt;/g, '<').replace(/&gt;/g, '>')
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes `& < > " '` (CONTRACT §16). */
export function escapeHtml (value: string): string {
  return value.replace(/[&<>"']/g, (c) => escapes[c] ?? c)
}
