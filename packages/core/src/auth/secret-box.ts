import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

/**
 * Seals the secrets the help desk must read back (TOTP secrets, OpenID
 * Connect client secrets and refresh tokens) before they are stored. With the
 * instance's secret key (`signIn.secretKey`, `HELPDESK_SECRET_KEY`: the same on
 * every instance) they are encrypted with AES-256-GCM under a key derived
 * from it, so a copy of the database alone does not reveal them; without one
 * they are stored as they are (marked `plain:`), and a key set later still
 * reads them (and seals whatever is written from then on).
 */
export interface SecretBox {
  /** Whether secrets are encrypted (a secret key is configured). */
  readonly encrypts: boolean
  seal(plain: string): string
  /** The secret of a sealed value; throws when it was sealed with another key. */
  open(sealed: string): string
}

const PLAIN = 'plain:'
const SEALED = 'v1:'

export function createSecretBox (secretKey?: string | undefined): SecretBox {
  const key = secretKey === undefined || secretKey === '' ? null : createHash('sha256').update(`helpdesk secret box v1\0${secretKey}`).digest()
  return {
    encrypts: key !== null,
    seal (plain) {
      if (key === null) return PLAIN + plain
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return SEALED + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
    },
    open (sealed) {
      if (sealed.startsWith(PLAIN)) return sealed.slice(PLAIN.length)
      if (!sealed.startsWith(SEALED)) throw new Error('Unknown sealed secret format.')
      if (key === null) throw new Error('This secret was sealed with a secret key: configure the same `secretKey` (HELPDESK_SECRET_KEY).')
      const raw = Buffer.from(sealed.slice(SEALED.length), 'base64url')
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
    }
  }
}
