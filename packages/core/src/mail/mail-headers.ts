import { displayText } from '../html.js'
import { createHash, randomBytes } from 'node:crypto'
import { classifyReplyToken } from './reply-tokens.js'

/** `Name <a@b>` or `a@b` -> `a@b`, lowercased. */
export function addressOf (mailbox: string): string {
  const angle = /<([^<>]+)>\s*$/.exec(mailbox)
  return (angle?.[1] ?? mailbox).trim().toLowerCase()
}

export function domainOf (address: string): string {
  return address.slice(address.lastIndexOf('@') + 1)
}

/** An unguessable token (160 random bits), safe in an address and a URL, whatever the case. */
export function newToken (): string {
  return randomBytes(20).toString('hex')
}

/** `support@example.com` + token -> `support+<token>@example.com`. */
export function replyAddress (base: string, token: string): string {
  const address = addressOf(base)
  const at = address.lastIndexOf('@')
  return `${address.slice(0, at)}+${token}@${address.slice(at + 1)}`
}

/** The token of a reply address of `base` (recipient-bound, or an old per-ticket one), or null. */
export function replyTokenOf (recipient: string, base: string): string | null {
  const address = addressOf(recipient)
  const own = addressOf(base)
  const at = own.lastIndexOf('@')
  const prefix = `${own.slice(0, at)}+`
  const suffix = own.slice(at)
  if (!address.startsWith(prefix) || !address.endsWith(suffix)) return null
  const token = address.slice(prefix.length, address.length - suffix.length)
  return classifyReplyToken(token) !== null ? token : null
}

/** A new Message-ID of ours: `<hd.<ticket>.<part>.<random>@domain>`. */
export function newMessageId (domain: string, ticketId: number | null, part: string): string {
  return `<hd.${ticketId ?? 0}.${part}.${randomBytes(8).toString('hex')}@${domain}>`
}

/** The title with any `Re:`/`Fwd:` prefixes and `[#123]` tags taken off. */
export function baseSubject (subject: string): string {
  let s = subject.trim()
  for (;;) {
    const next = s.replace(/^(?:(?:re|fwd?|aw|wg|sv|vs|antw)\s*(?:\[\d+\])?\s*:\s*)/i, '').replace(/^\[#\d+\]\s*/, '').trim()
    if (next === s) return s
    s = next
  }
}

/** `[#123] Title` for the first mail of a ticket, `Re: [#123] Title` for the rest: stable, so clients keep one thread. */
export function ticketSubject (ticketId: number, title: string, reply: boolean): string {
  // The title is plain text (`&lt;` for `<`): a subject is text, shown as typed.
  return `${reply ? 'Re: ' : ''}[#${ticketId}] ${baseSubject(displayText(title))}`
}

/** The ticket number of a `[#123]` tag in the subject, or null. */
export function subjectTicketId (subject: string): number | null {
  const match = /\[#(\d{1,12})\]/.exec(subject)
  return match?.[1] !== undefined ? Number(match[1]) : null
}

/**
 * Outlook's `Thread-Index`: 22 bytes for the thread (6 of FILETIME, 16 of
 * GUID, here both taken from the root Message-ID so every mail of a ticket
 * shares them), plus 5 bytes per reply; base64.
 */
export function threadIndex (rootMessageId: string, messageId: string | null): string {
  const root = createHash('sha256').update(rootMessageId).digest().subarray(0, 22)
  if (messageId === null || messageId === rootMessageId) return root.toString('base64')
  const child = createHash('sha256').update(messageId).digest().subarray(0, 5)
  return Buffer.concat([root, child]).toString('base64')
}

/** Splits a References/In-Reply-To header into `<id>`s. */
export function messageIdList (value: string | string[] | undefined | null): string[] {
  if (value === undefined || value === null) return []
  const text = Array.isArray(value) ? value.join(' ') : value
  return [...text.matchAll(/<[^<>\s]+>/g)].map((m) => m[0])
}
