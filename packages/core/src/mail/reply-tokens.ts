import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Store } from '../store.js'

/** A reply address bound to one recipient of one ticket's mail: `support+<ticket>.<recipient>.<key>.<mac>@…`. */
export interface ReplyToken {
  ticketId: number
  /** The user the mail carrying this address was sent to. */
  recipientId: number
  /** The reply key the MAC was made with. */
  keyId: number
}

/** One secret that signs reply addresses (`mail_reply_keys`); the newest active one signs, every active one verifies. */
export interface ReplyKey {
  id: number
  secret: string
}

/** Hex characters of the HMAC kept in an address: 128 bits, lowercase, so a mail system that lowercases local parts changes nothing. */
const MAC_LENGTH = 32
const FORMAT = /^(\d{1,12})\.(\d{1,12})\.(\d{1,9})\.([0-9a-f]{32})$/
/** The per-ticket tokens of mails sent before reply addresses named their recipient (160 random bits, hex). */
const LEGACY_FORMAT = /^[a-z0-9]{20,64}$/

function mac (key: ReplyKey, ticketId: number, recipientId: number): string {
  return createHmac('sha256', key.secret).update(`helpdesk-reply:${ticketId}.${recipientId}.${key.id}`).digest('hex').slice(0, MAC_LENGTH)
}

/** A new secret for `mail_reply_keys` (256 random bits, hex). */
export function newReplySecret (): string {
  return randomBytes(32).toString('hex')
}

/** `<ticket>.<recipient>.<key>.<mac>`: the part after `+` of a reply address. */
export function formatReplyToken (key: ReplyKey, ticketId: number, recipientId: number): string {
  return `${ticketId}.${recipientId}.${key.id}.${mac(key, ticketId, recipientId)}`
}

/**
 * What the part after `+` of one of our addresses is: a recipient-bound token
 * (its MAC not yet checked), an old per-ticket token, or nothing of ours.
 */
export function classifyReplyToken (token: string): { kind: 'bound', token: ReplyToken, mac: string } | { kind: 'legacy', token: string } | null {
  const bound = FORMAT.exec(token)
  if (bound !== null) {
    return { kind: 'bound', token: { ticketId: Number(bound[1]), recipientId: Number(bound[2]), keyId: Number(bound[3]) }, mac: bound[4] as string }
  }
  return LEGACY_FORMAT.test(token) ? { kind: 'legacy', token } : null
}

/** Whether `given` is the MAC of the token under `key` (compared in constant time). */
export function validMac (key: ReplyKey, token: ReplyToken, given: string): boolean {
  const expected = Buffer.from(mac(key, token.ticketId, token.recipientId))
  const actual = Buffer.from(given)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * Mints and checks recipient-bound reply tokens with the keys stored in the
 * database (`mail_reply_keys`), so every instance signs and verifies alike and
 * no table grows per mail. The first key is made on first use; `rotate` adds
 * a newer one (and may retire the older ones).
 */
export class ReplyTokens {
  constructor (private readonly store: Store) {}

  /** The token for mail about `ticketId` sent to `recipientId`, signed with the newest key. */
  async mint (ticketId: number, recipientId: number): Promise<string> {
    let [key] = await this.store.mail.replyKeys()
    if (key === undefined) {
      await this.store.mail.ensureReplyKey(newReplySecret())
      ;[key] = await this.store.mail.replyKeys()
    }
    if (key === undefined) throw new Error('No reply key could be stored.')
    return formatReplyToken(key, ticketId, recipientId)
  }

  /** The ticket and recipient of a well-formed token whose MAC verifies under an active key, else null. */
  async verify (token: string): Promise<ReplyToken | null> {
    const parsed = classifyReplyToken(token)
    if (parsed?.kind !== 'bound') return null
    const key = (await this.store.mail.replyKeys()).find((k) => k.id === parsed.token.keyId)
    return key !== undefined && validMac(key, parsed.token, parsed.mac) ? parsed.token : null
  }

  /** A new signing key; with `retireOlder`, addresses signed by the older keys stop being accepted. Returns the new key's id. */
  async rotate (options: { retireOlder?: boolean } = {}): Promise<{ id: number, retired: number }> {
    return await this.store.mail.rotateReplyKey(newReplySecret(), options.retireOlder === true)
  }
}
