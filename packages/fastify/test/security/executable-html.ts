import { parse, parseFragment } from 'parse5'

/** Elements that run script, load a document or resource, or restyle the page, whatever their attributes. */
const ACTIVE_ELEMENTS = new Set([
  'script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'meta', 'link', 'base', 'style', 'svg', 'math',
  'form', 'input', 'button', 'textarea', 'select', 'bgsound', 'template', 'video', 'audio', 'source', 'track', 'portal', 'xml', 'noscript'
])

/** Attributes holding a URL a browser follows or loads. */
const URL_ATTRIBUTES = new Set([
  'href', 'src', 'action', 'formaction', 'background', 'dynsrc', 'lowsrc', 'data', 'poster', 'xlink:href', 'srcset', 'codebase', 'cite', 'longdesc', 'datasrc'
])

const SAFE_SCHEMES = new Set(['http', 'https', 'mailto'])

interface Node {
  nodeName: string
  tagName?: string
  attrs?: Array<{ name: string, value: string }>
  childNodes?: Node[]
  content?: Node
  data?: string
}

/**
 * The scheme a browser sees in a URL attribute (entities are already decoded
 * by the parser): leading and trailing spaces and C0 controls are dropped and
 * tabs and newlines anywhere are ignored, as the URL standard does.
 */
function schemeOf (value: string): string | null {
  // eslint-disable-next-line no-control-regex
  const url = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '')
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)
  return match?.[1]?.toLowerCase() ?? null
}

function problemsOf (node: Node, found: string[]): void {
  if (node.nodeName === '#comment' && /<script|\[if/i.test(node.data ?? '')) found.push(`a conditional or script comment: <!--${node.data ?? ''}-->`)
  const tag = node.tagName
  if (tag !== undefined) {
    if (ACTIVE_ELEMENTS.has(tag)) found.push(`a <${tag}> element`)
    for (const { name, value } of node.attrs ?? []) {
      const attribute = name.toLowerCase()
      if (attribute.startsWith('on')) found.push(`an event handler ${name}="${value}" on <${tag}>`)
      if (URL_ATTRIBUTES.has(attribute)) {
        const scheme = schemeOf(value)
        if (scheme !== null && !SAFE_SCHEMES.has(scheme)) found.push(`a ${scheme}: URL in ${name} of <${tag}>`)
      }
      // CSS comments split keywords (`expr/**/ession`) for old parsers: read the style without them.
      const style = value.replace(/\/\*[\s\S]*?\*\//g, '')
      if (attribute === 'style' && /expression|javascript|behavior|binding|url\s*\(|@import|\\/i.test(style)) found.push(`a style that runs or loads code: ${value}`)
    }
  }
  for (const child of node.childNodes ?? []) problemsOf(child, found)
  if (node.content !== undefined) problemsOf(node.content, found)
}

/**
 * What in `html` a browser would run or load, parsed the way a browser parses
 * it (parse5 is the WHATWG parser), both as a fragment inserted into a page
 * and as a whole document (where `<body onload>` and `<frameset>` count):
 * script-bearing elements, event handlers, non-http(s)/mailto URLs, style
 * expressions. Empty when the HTML is inert.
 */
export function executableParts (html: string): string[] {
  const found: string[] = []
  problemsOf(parseFragment(html) as unknown as Node, found)
  problemsOf(parse(html) as unknown as Node, found)
  return [...new Set(found)]
}
