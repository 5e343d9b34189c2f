import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { MailKind } from './mail.js'

/** What a template can use: `{{ticket.title}}` (escaped in HTML), `{{{body_html}}}` (as is). */
export interface MailTemplateValues {
  marker: string
  ticket: { id: number, title: string, url: string }
  recipient: { name: string }
  author: { name: string }
  body_html: string
  body_text: string
  links_html: string
  links_text: string
  unsubscribe_url: string
  /** The closing mail to the owner while surveys are on: the rating links (satisfaction/satisfaction-mail.ts); '' and absent otherwise. */
  satisfaction?: { question: string, good_label: string, bad_label: string, good_url: string, bad_url: string }
  satisfaction_text?: string
  satisfaction_html?: string
  /** Account mails (`password-reset`, `magic-link`, `verify-email`): the single-use link and how long it works. */
  action?: { url: string, expires: string }
}

const INTRO: Record<MailKind, string> = {
  reply: '{{author.name}} replied to your ticket #{{ticket.id}} "{{ticket.title}}":',
  closed: 'Your ticket #{{ticket.id}} "{{ticket.title}}" was closed by {{author.name}}. Reply to this mail to open it again.',
  'new-ticket': '{{author.name}} opened ticket #{{ticket.id}} "{{ticket.title}}":',
  'customer-reply': '{{author.name}} replied to ticket #{{ticket.id}} "{{ticket.title}}":',
  assigned: '{{author.name}} assigned ticket #{{ticket.id}} "{{ticket.title}}" to you.',
  test: 'This is a test mail from the help desk. If you read this, sending mail works.',
  'password-reset': 'Someone asked to reset the password of your help desk account. To choose a new password, open this link (it works once, for {{action.expires}}):',
  'magic-link': 'To sign in to the help desk, open this link (it works once, for {{action.expires}}):',
  'verify-email': 'Please confirm your email address by opening this link (it works once, for {{action.expires}}):'
}

const ACCOUNT_KINDS = new Set<MailKind>(['password-reset', 'magic-link', 'verify-email'])
const ACCOUNT_FOOTER = 'If you did not ask for this, ignore this mail: nothing changes. Do not forward it: the link is yours alone.'

function defaultText (kind: MailKind): string {
  const intro = INTRO[kind]
  if (kind === 'test') return `${intro}\n`
  if (ACCOUNT_KINDS.has(kind)) return `Hello {{recipient.name}},\n\n${intro}\n\n{{action.url}}\n\n${ACCOUNT_FOOTER}\n`
  return `{{marker}}\n\nHello {{recipient.name}},\n\n${intro}\n\n{{body_text}}\n{{links_text}}\n{{satisfaction_text}}{{ticket.url}}\n`
}

function defaultHtml (kind: MailKind): string {
  const intro = INTRO[kind]
  if (kind === 'test') return `<p>${intro}</p>`
  if (ACCOUNT_KINDS.has(kind)) {
    return `<p>Hello {{recipient.name}},</p><p>${intro}</p><p><a href="{{action.url}}">{{action.url}}</a></p>` +
      `<p style="color:#999;font-size:12px">${ACCOUNT_FOOTER}</p>`
  }
  return '<div style="color:#999;font-size:12px">{{marker}}</div>' +
    `<p>Hello {{recipient.name}},</p><p>${intro}</p>` +
    '<div>{{{body_html}}}</div>{{{links_html}}}{{{satisfaction_html}}}' +
    '<p style="color:#999;font-size:12px">{{ticket.url}}</p>'
}

function escapeHtml (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

function lookup (values: MailTemplateValues, path: string): string {
  let value: unknown = values
  for (const key of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
  return value === undefined || value === null ? '' : String(value)
}

/** Fills `{{{raw}}}` and `{{escaped}}` placeholders; in text mails nothing is escaped. */
export function renderTemplate (template: string, values: MailTemplateValues, html: boolean): string {
  return template
    .replace(/\{\{\{\s*([\w.]+)\s*\}\}\}/g, (_m, path: string) => lookup(values, path))
    .replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_m, path: string) => html ? escapeHtml(lookup(values, path)) : lookup(values, path))
}

/**
 * The text and HTML templates of each kind: the built-in ones, or the files
 * `<kind>.txt` / `<kind>.html` of `dir` where present (read once).
 */
export class MailTemplates {
  private readonly cache = new Map<string, string>()

  constructor (private readonly dir: string | undefined) {}

  template (kind: MailKind, part: 'txt' | 'html'): string {
    const key = `${kind}.${part}`
    const known = this.cache.get(key)
    if (known !== undefined) return known
    let template = part === 'txt' ? defaultText(kind) : defaultHtml(kind)
    if (this.dir !== undefined) {
      try {
        template = readFileSync(join(this.dir, key), 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
    }
    this.cache.set(key, template)
    return template
  }

  render (kind: MailKind, values: MailTemplateValues): { text: string, html: string } {
    return {
      text: renderTemplate(this.template(kind, 'txt'), values, false),
      html: renderTemplate(this.template(kind, 'html'), values, true)
    }
  }
}
