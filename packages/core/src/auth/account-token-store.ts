import type { DateTimeString } from '../time.js'

/**
 * What a single-use account token is for: a password reset, a magic sign-in
 * link, an email verification, or a sign-in waiting for its second factor.
 */
export type AccountTokenPurpose = 'password-reset' | 'magic-link' | 'verify-email' | 'second-factor'

export interface NewAccountToken {
  user_id: number
  purpose: AccountTokenPurpose
  /** SHA-256 of the token (`hashToken`): the token itself is never stored. */
  token_hash: string
  expires_at: DateTimeString
}

/** A live account token as a lookup finds it. */
export interface AccountTokenRecord {
  id: number
  user_id: number
  purpose: AccountTokenPurpose
  /** Wrong answers given with it so far (second-factor challenges). */
  attempts: number
  expires_at: DateTimeString
}

/** Storage port of account tokens (part of `Store`, same conventions). */
export interface AccountTokenRepository {
  /** Stores the token, removing the user's earlier tokens of the same purpose (only the newest works). */
  create(token: NewAccountToken): Promise<void>
  /** The token of this purpose and digest when it has not expired at `now`; null otherwise. Consumes nothing. */
  find(purpose: AccountTokenPurpose, tokenHash: string, now: DateTimeString): Promise<AccountTokenRecord | null>
  /**
   * Uses the token up: deletes it when it is of this purpose and alive at `now`, and answers its
   * user; null when it is unknown, expired or already used. One conditional delete: of concurrent
   * callers presenting one token, exactly one gets the user.
   */
  consume(purpose: AccountTokenPurpose, tokenHash: string, now: DateTimeString): Promise<number | null>
  /** Counts a wrong answer given with token `id`; deletes it at `max` attempts. Answers whether it is still usable. */
  recordAttempt(id: number, max: number): Promise<boolean>
  /** Deletes the user's tokens of these purposes (every purpose when omitted). */
  deleteForUser(userId: number, purposes?: AccountTokenPurpose[]): Promise<void>
  /** Deletes up to `limit` tokens expired at `now`; returns how many went. */
  deleteExpired(now: DateTimeString, limit: number): Promise<number>
}
