/**
 * The rich-text editor's document (Tiptap's JSON) as HTML, written exactly as
 * the server's sanitiser (`sanitizeBody` in @helpdesk/core, sanitize-html)
 * writes it back: only tags and attributes it allows, `<br />`-style void
 * tags, text escaped `& < >` and attributes `& < > "`, links with the `rel`
 * it forces. So what the editor sends is what is stored, byte for byte (a
 * test runs every format through the sanitiser), and a draft compared with
 * the stored body does not look changed. No DOM: it runs in Node too.
 */

export interface RichTextMark { type: string, attrs?: Record<string, unknown> }
export interface RichTextNode {
  type: string
  attrs?: Record<string, unknown>
  content?: RichTextNode[]
  marks?: RichTextMark[]
  text?: string
}

/** The `rel` the sanitiser sets on every link. */
export const LINK_REL = 'noopener noreferrer nofollow'

const escapeText = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeAttr = (value: string): string => escapeText(value).replace(/"/g, '&quot;')

/** A link or image address the sanitiser keeps: http(s), mailto (links only), or a path on this site. */
export function allowedUrl (url: string, image = false): boolean {
  const value = url.trim()
  if (value === '' || value.startsWith('//')) return false
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)
  if (scheme === null) return /^[/?#.]/.test(value) || !value.includes(':')
  const name = (scheme[1] ?? '').toLowerCase()
  return name === 'http' || name === 'https' || (!image && name === 'mailto')
}

function attributes (pairs: Array<[string, unknown]>): string {
  let out = ''
  for (const [name, value] of pairs) {
    if (value === null || value === undefined) continue
    const text = String(value)
    if (text === '' && name !== 'alt') continue
    out += ` ${name}="${escapeAttr(text)}"`
  }
  return out
}

/** Marks open outside-in in this order, so the same text always nests the same way. */
const MARK_ORDER = ['link', 'bold', 'italic', 'underline', 'strike', 'code']
const MARK_TAGS: Record<string, string> = { bold: 'strong', italic: 'em', underline: 'u', strike: 's', code: 'code' }

function markKey (mark: RichTextMark): string {
  return mark.type === 'link' ? `link:${String(mark.attrs?.href ?? '')}` : mark.type
}

function openMark (mark: RichTextMark): string {
  if (mark.type === 'link') {
    const href = String(mark.attrs?.href ?? '')
    return `<a${attributes([['href', allowedUrl(href) ? href : null], ['rel', LINK_REL]])}>`
  }
  return `<${MARK_TAGS[mark.type] ?? 'span'}>`
}

function closeMark (mark: RichTextMark): string {
  return mark.type === 'link' ? '</a>' : `</${MARK_TAGS[mark.type] ?? 'span'}>`
}

function sortedMarks (marks: RichTextMark[] | undefined): RichTextMark[] {
  return (marks ?? []).filter((m) => MARK_ORDER.includes(m.type))
    .sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type))
}

/** Inline content: text with its marks, nested so adjacent text shares its open tags; line breaks and images. */
function inline (nodes: RichTextNode[]): string {
  let out = ''
  let open: RichTextMark[] = []
  const closeTo = (depth: number) => {
    while (open.length > depth) out += closeMark(open.pop() as RichTextMark)
  }
  for (const node of nodes) {
    const marks = node.type === 'text' ? sortedMarks(node.marks) : []
    let common = 0
    while (common < open.length && common < marks.length && markKey(open[common] as RichTextMark) === markKey(marks[common] as RichTextMark)) common++
    closeTo(common)
    for (const mark of marks.slice(common)) {
      out += openMark(mark)
      open.push(mark)
    }
    out += node.type === 'text' ? escapeText(node.text ?? '') : block(node)
  }
  closeTo(0)
  open = []
  return out
}

function children (node: RichTextNode): string {
  return (node.content ?? []).map(block).join('')
}

function block (node: RichTextNode): string {
  const content = node.content ?? []
  switch (node.type) {
    case 'doc': return children(node)
    case 'paragraph': return `<p>${inline(content)}</p>`
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(node.attrs?.level ?? 2)))
      return `<h${level}>${inline(content)}</h${level}>`
    }
    case 'blockquote': return `<blockquote>${children(node)}</blockquote>`
    case 'bulletList': return `<ul>${children(node)}</ul>`
    case 'orderedList': return `<ol>${children(node)}</ol>`
    case 'listItem': return `<li>${children(node)}</li>`
    case 'codeBlock': {
      const language = typeof node.attrs?.language === 'string' && /^[\w-]+$/.test(node.attrs.language) ? `language-${node.attrs.language}` : null
      return `<pre><code${attributes([['class', language]])}>${escapeText(content.map((n) => n.text ?? '').join(''))}</code></pre>`
    }
    case 'horizontalRule': return '<hr />'
    case 'hardBreak': return '<br />'
    case 'image': {
      const src = String(node.attrs?.src ?? '')
      if (!allowedUrl(src, true)) return ''
      return `<img${attributes([['src', src], ['alt', node.attrs?.alt ?? ''], ['title', node.attrs?.title]])} />`
    }
    case 'text': return inline([node])
    default: return content.length > 0 ? children(node) : ''
  }
}

/**
 * The document as stored HTML. Empty paragraphs at its end (the editor keeps one after a list, a
 * quote or an image, to type into) are left out, so an empty document is `''`.
 */
export function richTextHtml (doc: RichTextNode): string {
  return block(doc).replace(/(?:<p><\/p>)+$/, '')
}
