import type { DateTimeString } from '../time.js'

/** A person's two-factor record as stored (the secret sealed by the `SecretBox`). */
export interface TwoFactorRecord {
  user_id: number
  secret: string
  /** When enrolment was confirmed with a first code; null while it is pending. */
  confirmed_at: DateTimeString | null
  /** The last TOTP time step accepted: a code of this step or an earlier one is refused. */
  last_step: number | null
  /** Wrong codes since `failures_since`. */
  failures: number
  failures_since: DateTimeString | null
}

/** Storage port of two-factor authentication (part of `Store`, same conventions). */
export interface TwoFactorRepository {
  find(userId: number): Promise<TwoFactorRecord | null>
  /** Starts (or restarts) a pending enrolment with `secret`, unless one is confirmed (then false, nothing written). */
  begin(userId: number, secret: string): Promise<boolean>
  /**
   * Accepts time step `step` for the user: records it when it is later than the last one accepted
   * (one conditional update: of two requests with the same code, one wins) and confirms a pending
   * enrolment. False when the step was used already.
   */
  useStep(userId: number, step: number, confirm: boolean): Promise<boolean>
  /** Counts a wrong code: restarts the count when the current one began at or before `windowStart`. Returns the count. */
  recordFailure(userId: number, now: DateTimeString, windowStart: DateTimeString): Promise<number>
  clearFailures(userId: number): Promise<void>
  /** Removes the user's two-factor record and recovery codes; false when there was none. */
  remove(userId: number): Promise<boolean>
  /** Replaces the user's recovery codes by these digests. */
  replaceRecoveryCodes(userId: number, hashes: string[]): Promise<void>
  /** Uses a recovery code up: deletes it when it is the user's; true for the one caller that did. */
  useRecoveryCode(userId: number, hash: string): Promise<boolean>
  countRecoveryCodes(userId: number): Promise<number>
  /** Which of `userIds` have confirmed two-factor authentication. */
  enabledAmong(userIds: number[]): Promise<number[]>
}
