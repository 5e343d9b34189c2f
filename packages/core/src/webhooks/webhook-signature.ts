import { createHmac, timingSafeEqual } from 'node:crypto'

/** The header a delivery is signed in (Stripe style): `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Helpdesk-Signature'

function hmacHex (secret: string, timestamp: number, payload: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex')
}

/** The header value for `payload` at `timestamp`: one `v1` per secret (two while a rotation overlaps). */
export function signWebhookPayload (payload: string | Buffer, secrets: readonly string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmacHex(secret, timestamp, payload)}`)].join(',')
}

export interface VerifyWebhookSignatureOptions {
  /** The raw request body, exactly as received (not re-serialised JSON). */
  payload: string | Buffer
  /** The `Helpdesk-Signature` header. */
  header: string | null | undefined
  /** Your endpoint's secret; or `secrets` to accept any of several (during your own rotation). */
  secret?: string
  secrets?: readonly string[]
  /** Reject signatures older (or newer) than this, against replays. Default 300. */
  toleranceSeconds?: number
  /** Unix seconds; default now. */
  now?: number
}

/**
 * True when one `v1` signature of the header is the HMAC-SHA256 of
 * `"<t>.<payload>"` under one of the secrets and `t` is within the tolerance.
 * Comparisons are constant-time.
 */
export function verifyWebhookSignature (options: VerifyWebhookSignatureOptions): boolean {
  const header = options.header ?? ''
  const secrets = [...(options.secrets ?? []), ...(options.secret !== undefined ? [options.secret] : [])]
  if (secrets.length === 0 || header === '') return false
  let timestamp: number | null = null
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2)
    if (key === 't' && value !== undefined && /^\d+$/.test(value)) timestamp = Number(value)
    else if (key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value)) signatures.push(value)
  }
  if (timestamp === null || signatures.length === 0) return false
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false
  for (const secret of secrets) {
    const expected = Buffer.from(hmacHex(secret, timestamp, options.payload), 'hex')
    for (const signature of signatures) {
      if (timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return true
    }
  }
  return false
}
