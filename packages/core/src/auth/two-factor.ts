import { audit } from '../audit/audit-log.js'
import { createHash, randomBytes } from 'node:crypto'
import type { ServiceContext } from '../context.js'
import { ForbiddenError, NotFoundError, TooManyRequestsError, ValidationError } from '../errors.js'
import type { SettingsService } from '../settings/settings-service.js'
import { twoFactorRequiredFor } from '../settings/settings.js'
import { formatDateTime } from '../time.js'
import { ensureAdmin } from '../users/user-policy.js'
import type { User } from '../users/user.js'
import type { ActorInput } from '../users/actor.js'
import type { SecretBox } from './secret-box.js'

/** TOTP as authenticator apps expect it (RFC 6238 defaults): SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30
const DIGITS = 6
/** Steps either side of now that are accepted (clock drift between phone and server). */
const WINDOW = 1
export const RECOVERY_CODE_COUNT = 10
/** Wrong codes a person may give in `FAILURE_WINDOW_MS` before verification is refused for the rest of it (429). */
export const MAX_CODE_FAILURES = 10
const FAILURE_WINDOW_MS = 15 * 60_000

/** What a person sees of their two-factor authentication. */
export interface TwoFactorStatus {
  enabled: boolean
  /** Whether their role must use it (an administrator's setting). */
  required: boolean
  recovery_codes_left: number
}

/** A started enrolment: the secret to add to an authenticator app, as text, URI and QR code. */
export interface TwoFactorEnrolment {
  /** Base32, for typing into an app by hand. */
  secret: string
  /** `otpauth://totp/...`: what the QR code holds. */
  otpauth_url: string
  /** The QR code of `otpauth_url` as an SVG document. */
  qr_svg: string
}

/** Recovery codes, shown once (only their digests are stored). */
export interface RecoveryCodes { recovery_codes: string[] }

function digest (code: string): string {
  return createHash('sha256').update(code).digest('hex')
}

/** `abcd-efgh-ijkl-mnop`: 16 base32 characters (80 bits). */
function newRecoveryCode (): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  const bytes = randomBytes(16)
  let code = ''
  for (let i = 0; i < 16; i++) code += alphabet[(bytes[i] ?? 0) % 32]
  return code.match(/.{4}/g)?.join('-') ?? code
}

/** A recovery code as typed (any case, dashes and spaces or not), else null when it cannot be one. */
function normalisedRecoveryCode (code: string): string | null {
  const bare = code.toLowerCase().replace(/[\s-]/g, '')
  return /^[a-z2-7]{16}$/.test(bare) ? bare.match(/.{4}/g)?.join('-') ?? null : null
}

/**
 * Two-factor authentication with time-based one-time passwords (TOTP, otpauth):
 * enrolment (secret, QR code, a first code to confirm), ten single-use
 * recovery codes (stored as SHA-256 digests: they carry 80 random bits),
 * verification that refuses a code already used within its window and counts
 * wrong codes per person (shared by every instance), and an administrator's
 * reset. Personal API tokens are not affected: they are credentials of their own.
 */
export class TwoFactorService {
  constructor (
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsService,
    private readonly secrets: SecretBox,
    private readonly issuer: string
  ) {}

  async status (actor: User): Promise<TwoFactorStatus> {
    const record = await this.ctx.store.twoFactor.find(actor.id)
    const enabled = record?.confirmed_at != null
    return {
      enabled,
      required: twoFactorRequiredFor(await this.settings.current(), actor),
      recovery_codes_left: enabled ? await this.ctx.store.twoFactor.countRecoveryCodes(actor.id) : 0
    }
  }

  /** Whether the person has confirmed two-factor authentication. */
  async enabled (userId: number): Promise<boolean> {
    return (await this.ctx.store.twoFactor.find(userId))?.confirmed_at != null
  }

  /** Starts (or restarts) enrolment: a new secret, not in force until a code from it is confirmed. 422 when already enabled. */
  async begin (user: User): Promise<TwoFactorEnrolment> {
    const { Secret, TOTP } = await import('otpauth')
    const secret = new Secret({ size: 20 })
    if (!await this.ctx.store.twoFactor.begin(user.id, this.secrets.seal(secret.base32))) {
      throw ValidationError.field('code', 'Two-factor authentication is already on: turn it off first to enrol again.')
    }
    const totp = new TOTP({ issuer: this.issuer, label: user.email, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret })
    const otpauthUrl = totp.toString()
    const QRCode = (await import('qrcode')).default
    const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
    return { secret: secret.base32, otpauth_url: otpauthUrl, qr_svg: svg }
  }

  /** Confirms a pending enrolment with a code from the app: two-factor authentication is on; answers the recovery codes. */
  async confirm (user: User, code: string): Promise<RecoveryCodes> {
    const record = await this.ctx.store.twoFactor.find(user.id)
    if (record === null) throw ValidationError.field('code', 'Start the enrolment first.')
    if (record.confirmed_at !== null) throw ValidationError.field('code', 'Two-factor authentication is already on.')
    await this.checkTotp(record.user_id, record.secret, record.last_step, code, true)
    const codes = await this.newRecoveryCodes(user.id)
    await audit(this.ctx.store, user, { action: 'two_factor.enabled', subject_type: 'user', subject_id: user.id })
    return codes
  }

  /**
   * Checks a code of the person's (a TOTP code, or a recovery code, used up): 422 on `code` when
   * wrong, 429 after MAX_CODE_FAILURES wrong codes in 15 minutes.
   */
  async verify (userId: number, code: string): Promise<void> {
    const record = await this.ctx.store.twoFactor.find(userId)
    if (record?.confirmed_at == null) throw ValidationError.field('code', 'Two-factor authentication is not on.')
    this.ensureNotLocked(record.failures, record.failures_since)
    const recovery = normalisedRecoveryCode(code)
    if (recovery !== null) {
      if (await this.ctx.store.twoFactor.useRecoveryCode(userId, digest(recovery))) {
        await this.ctx.store.twoFactor.clearFailures(userId)
        return
      }
      await this.fail(userId)
    }
    await this.checkTotp(userId, record.secret, record.last_step, code, false)
  }

  /** New recovery codes (the old ones stop working), after a code of the person's. */
  async regenerateRecoveryCodes (actor: User, code: string): Promise<RecoveryCodes> {
    await this.verify(actor.id, code)
    const codes = await this.newRecoveryCodes(actor.id)
    await audit(this.ctx.store, actor, { action: 'two_factor.recovery_codes_regenerated', subject_type: 'user', subject_id: actor.id })
    return codes
  }

  /** Turns the person's own two-factor authentication off, after a code of theirs; 403 when their role requires it. */
  async disable (actor: User, code: string): Promise<void> {
    if (twoFactorRequiredFor(await this.settings.current(), actor)) {
      throw new ForbiddenError('Your role requires two-factor authentication: it cannot be turned off.')
    }
    await this.verify(actor.id, code)
    await this.ctx.store.transaction(async (tx) => {
      await tx.twoFactor.remove(actor.id)
      await audit(tx, actor, { action: 'two_factor.disabled', subject_type: 'user', subject_id: actor.id })
    })
  }

  /**
   * An administrator turns a person's two-factor authentication off (a lost phone and lost
   * recovery codes): they sign in with their password alone, or enrol again if their role requires it.
   */
  async reset (actor: ActorInput, userId: number): Promise<void> {
    ensureAdmin(actor)
    if (await this.ctx.store.users.findById(userId) === null) throw new NotFoundError('User')
    await this.ctx.store.transaction(async (tx) => {
      await tx.twoFactor.remove(userId)
      await audit(tx, actor, { action: 'two_factor.disabled', subject_type: 'user', subject_id: userId, after: { reset_by_administrator: true } })
    })
  }

  private async newRecoveryCodes (userId: number): Promise<RecoveryCodes> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
    await this.ctx.store.twoFactor.replaceRecoveryCodes(userId, codes.map(digest))
    return { recovery_codes: codes }
  }

  private ensureNotLocked (failures: number, since: string | null): void {
    if (failures < MAX_CODE_FAILURES || since === null) return
    const until = Date.parse(`${since.replace(' ', 'T')}Z`) + FAILURE_WINDOW_MS
    const left = until - this.ctx.clock.now().getTime()
    if (left > 0) throw new TooManyRequestsError('Too many wrong codes. Try again later.', Math.ceil(left / 1000))
  }

  private async fail (userId: number): Promise<never> {
    const now = this.ctx.clock.now().getTime()
    await this.ctx.store.twoFactor.recordFailure(userId, formatDateTime(new Date(now)), formatDateTime(new Date(now - FAILURE_WINDOW_MS)))
    throw ValidationError.field('code', 'The code is not valid.')
  }

  private async checkTotp (userId: number, sealed: string, lastStep: number | null, code: string, confirm: boolean): Promise<void> {
    const token = code.replace(/\s/g, '')
    if (!/^\d{6}$/.test(token)) await this.fail(userId)
    const { Secret, TOTP } = await import('otpauth')
    const totp = new TOTP({ algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(this.secrets.open(sealed)) })
    const timestamp = this.ctx.clock.now().getTime()
    const delta = totp.validate({ token, timestamp, window: WINDOW })
    if (delta === null) await this.fail(userId)
    const step = Math.floor(timestamp / 1000 / PERIOD) + (delta ?? 0)
    // A code is good once: the same code (or an earlier one) again within its window is refused.
    if ((lastStep !== null && step <= lastStep) || !await this.ctx.store.twoFactor.useStep(userId, step, confirm)) {
      throw ValidationError.field('code', 'This code was used already: wait for the next one.')
    }
    await this.ctx.store.twoFactor.clearFailures(userId)
  }
}
