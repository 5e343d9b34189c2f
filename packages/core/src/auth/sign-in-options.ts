/**
 * Instance configuration of signing in (HelpdeskOptions `signIn`; the
 * configuration file's `signIn`, `HELPDESK_*` variables). What administrators
 * change at run time (email verification, two-factor requirements, SSO-only
 * staff, SSO providers) lives in the database instead (`settings`, `sso_providers`).
 */
export interface SignInOptions {
  /** Minutes a password-reset link works. Default 60. */
  passwordResetMinutes?: number
  /** Minutes a magic sign-in link works. Default 15. */
  magicLinkMinutes?: number
  /** Hours an email-verification link works. Default 48. */
  verificationHours?: number
  /** Minutes a sign-in may wait for its second factor (or its enrolment) after the password. Default 10. */
  secondFactorMinutes?: number
  /**
   * Seals stored secrets (TOTP secrets, SSO client secrets and refresh tokens) with AES-256-GCM
   * (see `SecretBox`). The same on every instance; keep it out of the database's backups. Default: none (stored as they are).
   */
  secretKey?: string
  /** The issuer authenticator apps show next to the code. Default `Help desk`. */
  issuer?: string
  /**
   * Minutes between checks, while a single-sign-on session is used, that its person is still known
   * and enabled at the provider (refresh-token grant, else userinfo): a person disabled there loses
   * access at their first request after this at the latest. Default 15.
   */
  ssoRecheckMinutes?: number
  /** The API's public base URL (e.g. `https://help.example.com/api/v1`): SSO callback URLs are under it. Default `mail.publicUrl`. */
  publicUrl?: string
}

export interface ResolvedSignInOptions {
  passwordResetMs: number
  magicLinkMs: number
  verificationMs: number
  secondFactorMs: number
  secretKey: string | undefined
  issuer: string
  ssoRecheckMs: number
  publicUrl: string | undefined
}

const MINUTE = 60_000

export function resolveSignInOptions (options: SignInOptions = {}): ResolvedSignInOptions {
  const positive = (name: keyof SignInOptions, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`signIn.${name} must be a positive number, got ${String(value)}`)
    return value
  }
  return {
    passwordResetMs: positive('passwordResetMinutes', options.passwordResetMinutes, 60) * MINUTE,
    magicLinkMs: positive('magicLinkMinutes', options.magicLinkMinutes, 15) * MINUTE,
    verificationMs: positive('verificationHours', options.verificationHours, 48) * 60 * MINUTE,
    secondFactorMs: positive('secondFactorMinutes', options.secondFactorMinutes, 10) * MINUTE,
    secretKey: options.secretKey,
    issuer: options.issuer ?? 'Help desk',
    ssoRecheckMs: positive('ssoRecheckMinutes', options.ssoRecheckMinutes, 15) * MINUTE,
    publicUrl: options.publicUrl
  }
}
