import type { ServiceContext } from '../context.js'
import { ValidationError } from '../errors.js'
import { consoleUrl } from '../mail/outbound-mail-service.js'
import { newMessageId, addressOf, domainOf } from '../mail/mail-headers.js'
import { MailTemplates } from '../mail/mail-templates.js'
import type { AccountMailKind, MailSettings, MailTransport } from '../mail/mail.js'
import { REPLY_MARKER } from '../mail/inbound-rules.js'
import type { Store } from '../store.js'
import { formatDateTime } from '../time.js'
import { normaliseEmail } from '../users/user-input.js'
import { fullName, LIMITS, Role, UserStatus, type User } from '../users/user.js'
import { generateToken, hashToken } from './api-token.js'
import type { AccountTokenPurpose } from './account-token-store.js'
import type { ResolvedSignInOptions } from './sign-in-options.js'

/** The job that mints an account token and mails its link (the token exists only in that job's memory and the mail). */
export const ACCOUNT_MAIL_JOB = 'account.mail'
const ACCOUNT_MAIL_ATTEMPTS = 5
/** Hourly: removes expired account tokens (they are refused already). */
export const ACCOUNT_TOKENS_PRUNE_JOB = 'account-tokens.prune'

const INVALID_LINK = 'This link is invalid, used already or expired: ask for a new one.'

/** Where each mail's link leads in the console; the token goes in the fragment, which browsers never send to a server. */
const LINK_PATHS: Record<AccountMailKind, string> = {
  'password-reset': '/reset-password#token=',
  'magic-link': '/sign-in/link#token=',
  'verify-email': '/verify-email#token='
}

const PURPOSES: Record<AccountMailKind, AccountTokenPurpose> = {
  'password-reset': 'password-reset', 'magic-link': 'magic-link', 'verify-email': 'verify-email'
}

interface AccountMailPayload { kind: AccountMailKind, email: string }

function describeDuration (ms: number): string {
  const minutes = Math.round(ms / 60_000)
  if (minutes % 1440 === 0 && minutes >= 1440) return `${minutes / 1440} day${minutes === 1440 ? '' : 's'}`
  if (minutes % 60 === 0 && minutes >= 60) return `${minutes / 60} hour${minutes === 60 ? '' : 's'}`
  return `${minutes} minute${minutes === 1 ? '' : 's'}`
}

/**
 * Getting back into an account without a password: "forgot password" by
 * mail, magic sign-in links for customers, and verification of a
 * self-registered customer's address. Every link carries a random token
 * (256 bits) of which only the SHA-256 digest is stored, works once (a
 * conditional delete that one caller wins) and for a short while.
 *
 * Asking for a mail always answers the same, in about the same time, whether
 * or not the address is known: the request only queues an `account.mail` job
 * with the address; the job looks the person up, mints the token and sends
 * the mail. Without a mail transport nothing is queued (and the answer is
 * still the same).
 */
export class AccountService {
  private readonly templates: MailTemplates | null

  constructor (
    private readonly ctx: ServiceContext,
    private readonly mail: { settings: MailSettings, transport: MailTransport } | null,
    private readonly options: ResolvedSignInOptions
  ) {
    this.templates = mail === null ? null : new MailTemplates(mail.settings.templatesDir)
  }

  /** Whether account mails can be sent (a mail transport and a console address for the links). */
  get mailConfigured (): boolean {
    return this.mail !== null && consoleUrl(this.mail.settings, '/') !== ''
  }

  /** "Forgot password": mails a reset link if the address is a person's (the answer never says). */
  async requestPasswordReset (email: string): Promise<void> {
    await this.queue('password-reset', email)
  }

  /** Mails a customer a magic sign-in link if the address is a customer's (the answer never says). */
  async requestMagicLink (email: string): Promise<void> {
    await this.queue('magic-link', email)
  }

  /** Mails the caller a new verification link while their address is unconfirmed. */
  async requestVerification (actor: User): Promise<void> {
    if (actor.status !== UserStatus.Unconfirmed) throw ValidationError.field('email', 'Your email address is confirmed already.')
    await this.queue('verify-email', actor.email)
  }

  /** Queues the verification mail of a customer who just registered, in the registration's transaction. */
  async queueVerification (tx: Store, user: User): Promise<void> {
    if (!this.mailConfigured) return
    await tx.jobs.enqueue([{ type: ACCOUNT_MAIL_JOB, payload: { kind: 'verify-email', email: user.email }, maxAttempts: ACCOUNT_MAIL_ATTEMPTS }])
  }

  /**
   * Sets a new password with a reset link's token: the token is used up, every session of the
   * person's ends (on every instance: the auth revision moves), their other reset links stop
   * working, and an unconfirmed address counts as confirmed (the mail reached them).
   * Personal API tokens stay (see docs/sign-in.md). 422 on `token` or `password`.
   */
  async resetPassword (token: string, password: string, confirmation?: string): Promise<User> {
    if (password.length < LIMITS.password) throw ValidationError.field('password', `The password must be at least ${LIMITS.password} characters.`)
    if (confirmation !== undefined && confirmation !== password) throw ValidationError.field('password', 'The password confirmation does not match.')
    const hash = await this.ctx.hasher.hash(password)
    const user = await this.ctx.store.transaction(async (tx) => {
      const userId = await tx.accountTokens.consume('password-reset', hashToken(token), this.now())
      if (userId === null) throw ValidationError.field('token', INVALID_LINK)
      const found = await tx.users.findById(userId)
      if (found === null || found.status === UserStatus.Banned) throw ValidationError.field('token', INVALID_LINK)
      const updated = await tx.users.update(userId, {
        password_hash: hash, ...(found.status === UserStatus.Unconfirmed ? { status: UserStatus.Active } : {})
      })
      await tx.tokens.deleteSessionsForUser(userId, null)
      await tx.accountTokens.deleteForUser(userId, ['password-reset', 'second-factor'])
      return updated ?? found
    })
    return user
  }

  /** Confirms a self-registered customer's address with a verification link's token (used up). */
  async verifyEmail (token: string): Promise<User> {
    return await this.ctx.store.transaction(async (tx) => {
      const userId = await tx.accountTokens.consume('verify-email', hashToken(token), this.now())
      const found = userId === null ? null : await tx.users.findById(userId)
      if (found === null || found.status === UserStatus.Banned) throw ValidationError.field('token', INVALID_LINK)
      if (found.status !== UserStatus.Unconfirmed) return found
      return await tx.users.update(found.id, { status: UserStatus.Active }) ?? found
    })
  }

  /**
   * The customer a magic link signs in (the token used up); opening it confirms an unconfirmed
   * address (customers created from mail). 422 on `token` when it is unknown, used or expired.
   */
  async useMagicLink (token: string): Promise<User> {
    return await this.ctx.store.transaction(async (tx) => {
      const userId = await tx.accountTokens.consume('magic-link', hashToken(token), this.now())
      const found = userId === null ? null : await tx.users.findById(userId)
      if (found === null || found.status === UserStatus.Banned || found.role !== Role.Customer) throw ValidationError.field('token', INVALID_LINK)
      if (found.status !== UserStatus.Unconfirmed) return found
      return await tx.users.update(found.id, { status: UserStatus.Active }) ?? found
    })
  }

  /** The `account.mail` job: mints the token for the address's person (if any, and eligible) and sends the mail. */
  async sendMail (payload: AccountMailPayload): Promise<void> {
    if (this.mail === null || this.templates === null) return
    const user = await this.ctx.store.users.findByEmail(normaliseEmail(payload.email))
    if (user === null || user.status === UserStatus.Banned) return
    if (payload.kind === 'magic-link' && user.role !== Role.Customer) return
    if (payload.kind === 'verify-email' && user.status !== UserStatus.Unconfirmed) return
    const lifetime = payload.kind === 'password-reset' ? this.options.passwordResetMs : payload.kind === 'magic-link' ? this.options.magicLinkMs : this.options.verificationMs
    const token = generateToken()
    const expires = formatDateTime(new Date(this.ctx.clock.now().getTime() + lifetime))
    await this.ctx.store.accountTokens.create({ user_id: user.id, purpose: PURPOSES[payload.kind], token_hash: hashToken(token), expires_at: expires })
    const url = consoleUrl(this.mail.settings, LINK_PATHS[payload.kind] + token)
    if (url === '') return
    const { text, html } = this.templates.render(payload.kind, {
      marker: REPLY_MARKER,
      ticket: { id: 0, title: '', url: '' },
      recipient: { name: fullName(user) },
      author: { name: '' },
      body_html: '',
      body_text: '',
      links_html: '',
      links_text: '',
      unsubscribe_url: '',
      action: { url, expires: describeDuration(lifetime) }
    })
    const subject = payload.kind === 'password-reset' ? 'Reset your password' : payload.kind === 'magic-link' ? 'Your sign-in link' : 'Confirm your email address'
    const messageId = newMessageId(domainOf(addressOf(this.mail.settings.from)), null, payload.kind)
    const [rowId] = await this.ctx.store.mail.createOutbound([{
      kind: payload.kind, message_id: messageId, ticket_id: null, comment_id: null, user_id: user.id, author_id: null,
      recipient: user.email, subject, unsubscribe_token: null
    }])
    try {
      await this.mail.transport.send({
        from: this.mail.settings.from, to: user.email, subject, text, html, messageId,
        headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' }, attachments: []
      })
    } catch (error) {
      if (rowId !== undefined) await this.ctx.store.mail.update(rowId, { status: 'failed', attempts: 1, error: error instanceof Error ? error.message.slice(0, 1000) : 'Sending failed.' })
      throw error
    }
    if (rowId !== undefined) await this.ctx.store.mail.update(rowId, { status: 'sent', attempts: 1, sent_at: this.now() })
  }

  /** Removes expired account tokens (the hourly `account-tokens.prune` job); returns how many went. */
  async pruneExpired (batch = 1000): Promise<number> {
    let removed = 0
    for (;;) {
      const deleted = await this.ctx.store.accountTokens.deleteExpired(this.now(), batch)
      removed += deleted
      if (deleted < batch) return removed
    }
  }

  private async queue (kind: AccountMailKind, email: string): Promise<void> {
    if (!this.mailConfigured) return
    const address = normaliseEmail(email)
    if (address === '' || address.length > LIMITS.email) return
    await this.ctx.store.jobs.enqueue([{ type: ACCOUNT_MAIL_JOB, payload: { kind, email: address }, maxAttempts: ACCOUNT_MAIL_ATTEMPTS, uniqueKey: `${ACCOUNT_MAIL_JOB}:${kind}:${address.toLowerCase()}` }])
  }

  private now (): string {
    return formatDateTime(this.ctx.clock.now())
  }
}
