import { displayText, escapeHtml } from '@helpdesk/core'

/** Markup that is already safe (built by `html`, or a sanitised article body): inserted as is. */
export class SafeHtml {
  constructor (readonly value: string) {}
  toString (): string { return this.value }
}

type Part = SafeHtml | string | number | null | undefined | Part[]

function render (part: Part): string {
  if (part === null || part === undefined) return ''
  if (Array.isArray(part)) return part.map(render).join('')
  if (part instanceof SafeHtml) return part.value
  // Names and titles are plain text, stored with `<`/`>` as entities: shown as typed, escaped once.
  return escapeHtml(displayText(String(part)))
}

/** A template whose every interpolated value is escaped unless it is SafeHtml (or a list of them). */
export function html (strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? ''
  values.forEach((value, index) => { out += render(value) + (strings[index + 1] ?? '') })
  return new SafeHtml(out)
}

/** Markup from a trusted source (a sanitised body). */
export function trusted (markup: string): SafeHtml {
  return new SafeHtml(markup)
}
