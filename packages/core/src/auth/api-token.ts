import { createHash, randomBytes } from 'node:crypto'
import type { DateTimeString } from '../time.js'

export interface ApiToken {
  id: number
  user_id: number
  name: string | null
  created_at: DateTimeString
}

const PREFIX = 'hd_'

/** A new bearer token: 32 random bytes, base64url, with a recognisable prefix. */
export function generateToken (): string {
  return PREFIX + randomBytes(32).toString('base64url')
}

/**
 * Tokens are stored only as SHA-256 digests. A token carries 256 bits of
 * entropy, so a fast digest is enough (a KDF would protect nothing more), and
 * looking it up by digest means no secret is ever compared byte by byte.
 */
export function hashToken (token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
