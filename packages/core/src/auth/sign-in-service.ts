import type { ServiceContext } from '../context.js'
import { ForbiddenError, ValidationError } from '../errors.js'
import type { SettingsService } from '../settings/settings-service.js'
import { twoFactorRequiredFor } from '../settings/settings.js'
import { formatDateTime } from '../time.js'
import type { NewPersonInput } from '../users/user-input.js'
import { isStaff, UserStatus, type User } from '../users/user.js'
import type { AccountService } from './account-service.js'
import { generateToken, hashToken } from './api-token.js'
import type { AuthService } from './auth-service.js'
import type { SessionClient } from './session.js'
import type { ResolvedSignInOptions } from './sign-in-options.js'
import type { RecoveryCodes, TwoFactorEnrolment, TwoFactorService } from './two-factor.js'

/** Wrong codes one sign-in (one password check) may take before it must start again. */
export const SECOND_FACTOR_ATTEMPTS = 5

const EXPIRED = 'This sign-in has expired: sign in again.'

/** What a sign-in step answers: a session, or the second factor it still needs. */
export type SignInResult =
  | { status: 'signed-in', token: string, tokenId: number, user: User, recovery_codes?: string[] }
  | {
    status: 'second-factor'
    /** Sent back with the code (`secondFactor`); works once, for `signIn.secondFactorMinutes`. */
    challenge: string
    /** True when the person must first enrol (their role requires two-factor authentication): `enrolment(challenge)`, then the code. */
    enrol: boolean
    expires_at: string
  }

/**
 * Signing in, step by step: the first factor (a password, a magic link),
 * then, for people with two-factor authentication or whose role requires it,
 * a short-lived challenge (an account token, not a session) answered with a
 * code; only then a session. Single sign-on starts sessions through
 * `startSession` (the provider vouches for the person; its own second factor applies).
 * Also the administrators' "SSO only" for staff: their password sign-ins are refused.
 */
export class SignInService {
  constructor (
    private readonly ctx: ServiceContext,
    private readonly auth: AuthService,
    private readonly settings: SettingsService,
    private readonly twoFactor: TwoFactorService,
    private readonly account: AccountService,
    private readonly options: ResolvedSignInOptions
  ) {}

  /** A password sign-in: a session, or a second-factor challenge. 422 on `email` for wrong credentials, 403 for SSO-only staff. */
  async password (email: string, password: string, tokenName: string, client: SessionClient = {}): Promise<SignInResult> {
    const user = await this.auth.checkPassword(email, password, client)
    await this.ensurePasswordAllowed(user)
    return await this.afterFirstFactor(user, tokenName, client)
  }

  /** Signs a customer in with a magic link's token (used up; it confirms an unconfirmed address). */
  async magicLink (token: string, tokenName: string, client: SessionClient = {}): Promise<SignInResult> {
    const user = await this.account.useMagicLink(token)
    return await this.afterFirstFactor(user, tokenName, client)
  }

  /** Self-service registration, with the email-verification setting applied (an Unconfirmed customer and a verification mail). */
  async register (input: NewPersonInput, client: SessionClient = {}): Promise<{ token: string, user: User }> {
    const verification = (await this.settings.current())['auth.email_verification']
    if (verification === 'off') return await this.auth.register(input, client)
    return await this.auth.register(input, client, {
      status: UserStatus.Unconfirmed,
      onCreated: async (tx, user) => { await this.account.queueVerification(tx, user) }
    })
  }

  /** The secret, URI and QR code for a person who must enrol before their first session (their challenge's `enrol`). */
  async enrolment (challenge: string): Promise<TwoFactorEnrolment> {
    const user = await this.challengeUser(challenge)
    if (await this.twoFactor.enabled(user.id)) throw ValidationError.field('challenge', 'Two-factor authentication is already on: send a code.')
    return await this.twoFactor.begin(user)
  }

  /**
   * Completes a sign-in with its challenge and a code (TOTP or recovery code; for an enrolment,
   * the first code from the app, which turns two-factor authentication on and answers the recovery codes).
   * A wrong code is a 422 on `code`; after SECOND_FACTOR_ATTEMPTS the challenge is gone (sign in again).
   */
  async secondFactor (challenge: string, code: string, tokenName: string, client: SessionClient = {}): Promise<SignInResult & { status: 'signed-in' }> {
    const hash = hashToken(challenge)
    const record = await this.ctx.store.accountTokens.find('second-factor', hash, this.now())
    if (record === null) throw ValidationError.field('challenge', EXPIRED)
    const user = await this.ctx.store.users.findById(record.user_id)
    if (user === null || user.status === UserStatus.Banned) throw ValidationError.field('challenge', EXPIRED)
    let codes: RecoveryCodes | null = null
    try {
      if (await this.twoFactor.enabled(user.id)) await this.twoFactor.verify(user.id, code)
      else codes = await this.twoFactor.confirm(user, code)
    } catch (error) {
      if (error instanceof ValidationError) await this.ctx.store.accountTokens.recordAttempt(record.id, SECOND_FACTOR_ATTEMPTS)
      throw error
    }
    // The challenge works once: of two requests completing it, one gets the session.
    if (await this.ctx.store.accountTokens.consume('second-factor', hash, this.now()) === null) throw ValidationError.field('challenge', EXPIRED)
    const session = await this.auth.startSession(user, tokenName, client)
    return { status: 'signed-in', token: session.token, tokenId: session.tokenId ?? 0, user: session.user, ...(codes !== null ? codes : {}) }
  }

  /** What `AuthService.login` checks (it cannot ask for a second factor): refuses SSO-only staff and people who need a second factor. */
  async gate (user: User): Promise<void> {
    await this.ensurePasswordAllowed(user)
    if (await this.twoFactor.enabled(user.id) || twoFactorRequiredFor(await this.settings.current(), user)) {
      throw new ForbiddenError('This account signs in with a second factor: use POST /auth/session or POST /auth/login, then the two-factor step.')
    }
  }

  private async ensurePasswordAllowed (user: User): Promise<void> {
    if (isStaff(user) && (await this.settings.current())['auth.sso_only_staff']) {
      throw new ForbiddenError('Staff sign in with single sign-on here: use your organisation\'s sign-in button.')
    }
  }

  private async afterFirstFactor (user: User, tokenName: string, client: SessionClient): Promise<SignInResult> {
    const enabled = await this.twoFactor.enabled(user.id)
    if (!enabled && !twoFactorRequiredFor(await this.settings.current(), user)) {
      const session = await this.auth.startSession(user, tokenName, client)
      return { status: 'signed-in', token: session.token, tokenId: session.tokenId ?? 0, user: session.user }
    }
    const challenge = generateToken()
    const expires = formatDateTime(new Date(this.ctx.clock.now().getTime() + this.options.secondFactorMs))
    await this.ctx.store.accountTokens.create({ user_id: user.id, purpose: 'second-factor', token_hash: hashToken(challenge), expires_at: expires })
    return { status: 'second-factor', challenge, enrol: !enabled, expires_at: expires }
  }

  private async challengeUser (challenge: string): Promise<User> {
    const record = await this.ctx.store.accountTokens.find('second-factor', hashToken(challenge), this.now())
    const user = record === null ? null : await this.ctx.store.users.findById(record.user_id)
    if (user === null || user.status === UserStatus.Banned) throw ValidationError.field('challenge', EXPIRED)
    return user
  }

  private now (): string {
    return formatDateTime(this.ctx.clock.now())
  }
}
