import { createHmac } from 'node:crypto'

/** RFC 4648 base32 to bytes. */
function base32 (text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const char of text.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0')
  const bytes: number[] = []
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2))
  return Buffer.from(bytes)
}

/** A TOTP code (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps) computed by the test itself, independent of the server's library. */
export function totp (secret: string, at: number, stepOffset = 0): string {
  const counter = Math.floor(at / 30_000) + stepOffset
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac('sha1', base32(secret)).update(message).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0xf
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000
  return String(value).padStart(6, '0')
}
