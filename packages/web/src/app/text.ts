/** Plain text typed in the composer as the small HTML the API stores: escaped, paragraphs and line breaks kept. */
export function textToHtml (text: string): string {
  const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
  return text.trim().split(/\n{2,}/).filter((p) => p.trim() !== '')
    .map((paragraph) => `<p>${escapeText(paragraph.trim()).replace(/\n/g, '<br>')}</p>`).join('')
}

/** HTML (a canned response's filled preview) as plain text for the composer: block ends become line breaks. */
export function htmlToText (html: string): string {
  const marked = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li|h[1-6])>/gi, '\n\n')
  const doc = new DOMParser().parseFromString(marked, 'text/html')
  return (doc.body.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim()
}

/** A comma-separated list as typed ("billing, Account ,") as its names: trimmed, empties and repeats dropped. */
export function parseTagList (text: string): string[] {
  const names = text.split(',').map((name) => name.trim().replace(/\s+/g, ' ')).filter((name) => name !== '')
  return [...new Set(names)]
}
