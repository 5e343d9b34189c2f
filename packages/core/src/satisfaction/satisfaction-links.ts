import { createHmac, timingSafeEqual } from 'node:crypto'
import { newReplySecret, type ReplyKey } from '../mail/reply-tokens.js'
import type { Store } from '../store.js'

/**
 * What a rating link names: one resolution of one ticket, the customer it
 * was mailed to, and when it was made. Signed (HMAC-SHA-256, 128 bits kept)
 * with the keys that sign reply addresses (`mail_reply_keys`), under a
 * purpose of its own, so no table grows per mail and every instance
 * verifies alike; rotating the reply keys (`helpdesk mail:rotate-reply-key
 * --retire-older`) retires the rating links too.
 */
export interface SatisfactionToken {
  ticketId: number
  resolution: number
  customerId: number
  /** When the link was made, unix seconds: it works for `satisfaction.link_days` after. */
  issuedAt: number
  keyId: number
}

const MAC_LENGTH = 32
/** `<ticket>.<resolution>.<customer>.<issued>.<key>.<mac>` */
const FORMAT = /^(\d{1,12})\.(\d{1,6})\.(\d{1,12})\.(\d{1,12})\.(\d{1,9})\.([0-9a-f]{32})$/

function mac (key: ReplyKey, token: Omit<SatisfactionToken, 'keyId'>): string {
  return createHmac('sha256', key.secret)
    .update(`helpdesk-satisfaction:${token.ticketId}.${token.resolution}.${token.customerId}.${token.issuedAt}.${key.id}`)
    .digest('hex').slice(0, MAC_LENGTH)
}

export function formatSatisfactionToken (key: ReplyKey, token: Omit<SatisfactionToken, 'keyId'>): string {
  return `${token.ticketId}.${token.resolution}.${token.customerId}.${token.issuedAt}.${key.id}.${mac(key, token)}`
}

/** The token's parts when it is well formed (its MAC not yet checked), else null. */
export function parseSatisfactionToken (token: string): { token: SatisfactionToken, mac: string } | null {
  const match = FORMAT.exec(token)
  if (match === null) return null
  return {
    token: { ticketId: Number(match[1]), resolution: Number(match[2]), customerId: Number(match[3]), issuedAt: Number(match[4]), keyId: Number(match[5]) },
    mac: match[6] as string
  }
}

/** Mints and checks rating links with the keys stored in the database. */
export class SatisfactionLinks {
  constructor (private readonly store: Store) {}

  /** The token of a link to rate `resolution` of `ticketId`, for its owner `customerId`, made at `issuedAt` (ms). */
  async mint (ticketId: number, resolution: number, customerId: number, issuedAt: number): Promise<string> {
    let [key] = await this.store.mail.replyKeys()
    if (key === undefined) {
      await this.store.mail.ensureReplyKey(newReplySecret())
      ;[key] = await this.store.mail.replyKeys()
    }
    if (key === undefined) throw new Error('No signing key could be stored.')
    return formatSatisfactionToken(key, { ticketId, resolution, customerId, issuedAt: Math.floor(issuedAt / 1000) })
  }

  /** What a well-formed token whose MAC verifies under an active key names, else null (compared in constant time). */
  async verify (token: string): Promise<SatisfactionToken | null> {
    const parsed = parseSatisfactionToken(token)
    if (parsed === null) return null
    const key = (await this.store.mail.replyKeys()).find((k) => k.id === parsed.token.keyId)
    if (key === undefined) return null
    const expected = Buffer.from(mac(key, parsed.token))
    const given = Buffer.from(parsed.mac)
    return given.length === expected.length && timingSafeEqual(given, expected) ? parsed.token : null
  }
}
