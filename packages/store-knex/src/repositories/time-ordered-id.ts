import { randomBytes } from 'node:crypto'

let lastMs = 0
let sequence = 0

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit
 * sequence that keeps ids from one process increasing within a millisecond,
 * then random bits. Ids sort like their creation time, so an id is a stable,
 * chronological tie-breaker for rows created in the same second.
 */
export function timeOrderedUuid (now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now
    sequence = 0
  } else if (++sequence > 0xfff) {
    lastMs++
    sequence = 0
  }
  const bytes = randomBytes(16)
  bytes.writeUIntBE(lastMs, 0, 6)
  bytes[6] = 0x70 | (sequence >> 8)
  bytes[7] = sequence & 0xff
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
