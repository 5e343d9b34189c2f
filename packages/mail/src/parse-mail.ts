import { createRequire } from 'node:module'
import type { AddressObject } from 'mailparser'
import { messageIdList, type AuthenticationResults, type InboundMail, type InboundMailService, type InboundResult, type MailAddress } from '@helpdesk/core'

const require = createRequire(import.meta.url)

/** mailauth's RFC 8601 header parser (the same module its ARC and DMARC checks use), loaded with the first mail that has such a header. */
type HeaderParser = (line: string) => { parsed: Record<string, unknown> }
let headerParser: HeaderParser | undefined

/**
 * One `Authentication-Results` header line, parsed by mailauth: the
 * authserv-id (without its optional version) and each method's result with
 * its `ptype.property` values. A header that cannot be read yields null.
 */
export function parseAuthenticationResults (line: string): AuthenticationResults | null {
  headerParser ??= require('mailauth/lib/parse-dkim-headers.js') as HeaderParser
  let parsed: Record<string, unknown>
  try {
    parsed = headerParser(line).parsed
  } catch {
    return null
  }
  const authservId = typeof parsed.value === 'string' ? (parsed.value.split(/\s+/)[0] ?? '').toLowerCase() : ''
  if (authservId === '') return null
  const results: AuthenticationResults['results'] = []
  for (const [method, entries] of Object.entries(parsed)) {
    if (method === 'header' || method === 'value') continue
    for (const entry of [entries].flat() as Array<Record<string, unknown>>) {
      // `none` (no method was run) and other words without `=result` are no results.
      if (typeof entry !== 'object' || entry === null || typeof entry.value !== 'string' || entry.value === '') continue
      const properties: Record<string, string> = {}
      for (const [ptype, props] of Object.entries(entry)) {
        if (ptype === 'value' || ptype === 'comment' || typeof props !== 'object' || props === null) continue
        for (const [property, value] of Object.entries(props as Record<string, unknown>)) {
          if (typeof value === 'string') properties[`${ptype}.${property}`.toLowerCase()] = value.replace(/^"(.*)"$/, '$1').toLowerCase()
        }
      }
      results.push({ method, result: entry.value.toLowerCase(), properties })
    }
  }
  return { authservId, results }
}

/** What the SMTP conversation said, beside the headers (the listener knows it; HTTP and IMAP may not). */
export interface MailEnvelope {
  /** '' for the null sender `<>`. */
  from?: string | null | undefined
  to?: string[] | undefined
}

function addresses (value: AddressObject | AddressObject[] | undefined): MailAddress[] {
  if (value === undefined) return []
  const objects = Array.isArray(value) ? value : [value]
  const flat: MailAddress[] = []
  const walk = (list: Array<{ address?: string | undefined, name: string, group?: unknown[] | undefined }>): void => {
    for (const entry of list) {
      if (entry.group !== undefined) walk(entry.group as typeof list)
      else if (entry.address !== undefined && entry.address !== '') flat.push({ address: entry.address.toLowerCase(), name: entry.name })
    }
  }
  for (const object of objects) walk(object.value)
  return flat
}

/**
 * Parses `raw` and hands it to the inbound service; a message the parser
 * cannot read is kept as failed rather than lost. What every door calls.
 */
export async function receiveRaw (
  inbound: Pick<InboundMailService, 'receive' | 'keepUnreadable'>, raw: Buffer, envelope: MailEnvelope = {}
): Promise<InboundResult> {
  let mail: InboundMail
  try {
    mail = await parseMail(raw, envelope)
  } catch (error) {
    return await inbound.keepUnreadable(raw, error instanceof Error ? error.message : String(error))
  }
  return await inbound.receive(mail)
}

/** Parses a raw RFC 5322 message (mailparser) into what the help desk reads of it. */
export async function parseMail (raw: Buffer, envelope: MailEnvelope = {}): Promise<InboundMail> {
  // mailparser (and its charset tables) loads with the first mail received, not with the package.
  const { simpleParser } = await import('mailparser')
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true })
  const headers: Record<string, string> = {}
  for (const { key, line } of parsed.headerLines) {
    if (headers[key] === undefined) headers[key] = line.slice(line.indexOf(':') + 1).trim()
  }
  // Topmost first, as they stand in the header: the first is the one the nearest server added.
  const authenticationResults = parsed.headerLines.filter((h) => h.key === 'authentication-results')
    .map((h) => parseAuthenticationResults(h.line)).filter((r) => r !== null)
  const from = addresses(parsed.from)[0] ?? null
  const messageId = messageIdList(parsed.messageId)[0] ?? null
  return {
    messageId,
    inReplyTo: messageIdList(parsed.inReplyTo),
    references: messageIdList(parsed.references),
    from,
    envelopeFrom: envelope.from,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    envelopeTo: envelope.to,
    subject: parsed.subject ?? '',
    text: parsed.text ?? null,
    html: typeof parsed.html === 'string' ? parsed.html : null,
    headers,
    authenticationResults,
    attachments: parsed.attachments
      .filter((a) => a.contentDisposition !== 'inline' || a.filename !== undefined)
      .map((a) => ({ filename: a.filename ?? null, content: a.content })),
    raw
  }
}
