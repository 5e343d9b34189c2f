import type { InboundMail } from './mail.js'

/** The line above which a reply is written; what follows it in a reply is history. */
export const REPLY_MARKER = '##- Please type your reply above this line -##'

/**
 * Why a mail must not be answered or turned into a ticket, or null:
 * auto-replies, bounces and list mail (RFC 3834 `Auto-Submitted`, the
 * `X-Autoreply`/`X-Autorespond` family, `Precedence: bulk/junk/list`, the null sender).
 */
export function noiseReason (mail: InboundMail): string | null {
  if (mail.envelopeFrom === '' || mail.from === null || mail.from.address === '') return 'null sender (a bounce)'
  const h = mail.headers
  const autoSubmitted = h['auto-submitted']?.trim().toLowerCase()
  if (autoSubmitted !== undefined && autoSubmitted !== '' && autoSubmitted !== 'no') return `Auto-Submitted: ${autoSubmitted}`
  for (const name of ['x-autoreply', 'x-autorespond', 'x-autoresponder']) {
    if (h[name] !== undefined) return `${name} header`
  }
  const precedence = h.precedence?.trim().toLowerCase()
  if (precedence === 'bulk' || precedence === 'junk' || precedence === 'list' || precedence === 'auto_reply') return `Precedence: ${precedence}`
  if (/^(mailer-daemon|postmaster)@/i.test(mail.from.address)) return 'mail from a mailer daemon (a bounce)'
  if (/^multipart\/report/i.test(h['content-type'] ?? '')) return 'a delivery report'
  return null
}

const QUOTE_HEADER = [
  /^On .{1,200}wrote:\s*$/, // Gmail, Apple Mail, Thunderbird
  /^-{2,}\s*Original Message\s*-{2,}/i, // Outlook
  /^_{10,}\s*$/, // Outlook's rule before From:
  /^From: .+$/, // a forwarded or Outlook-quoted header block
  /^Am .{1,200}schrieb.*:\s*$/, // German clients
  /^Le .{1,200}a écrit\s*:\s*$/ // French clients
]

/**
 * The new text of a reply: everything above our marker, without the quoted
 * history (`>` lines and the "On ... wrote:" line before them) and without a
 * signature (from the `-- ` delimiter).
 */
export function replyText (text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const kept: string[] = []
  for (const line of lines) {
    if (line.includes(REPLY_MARKER.slice(3, -3))) break
    if (line === '-- ' || line === '--') break
    if (QUOTE_HEADER.some((re) => re.test(line.trim()))) break
    if (/^\s*>/.test(line)) continue
    kept.push(line)
  }
  return kept.join('\n').trim()
}

function escapeHtml (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/** Plain text as the HTML body the rest of the help desk stores: paragraphs and line breaks, everything escaped. */
export function textToHtml (text: string): string {
  return text.split(/\n{2,}/).map((p) => p.trim()).filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('')
}

/** The HTML of a reply cut at our marker (the part above it is what the sender wrote). */
export function htmlAboveMarker (html: string): string {
  const at = html.indexOf(REPLY_MARKER.slice(3, -3))
  if (at < 0) return html
  // Drop the marker's own (unclosed) line; the sanitiser closes what was left open.
  return html.slice(0, Math.max(0, html.lastIndexOf('<', at)))
}
