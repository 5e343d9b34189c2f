import type { ListQuery, Page } from '../list/list-query.js'
import type { DateTimeString } from '../time.js'
import type { User } from '../users/user.js'
import type { ApiToken } from './api-token.js'
import type { SessionRecord } from './session.js'

/** A token row to write. `session`: issued by a password login (default false: a personal token). */
export interface NewApiToken {
  user_id: number
  name: string | null
  token_hash: string
  session?: boolean
  /** Sessions only: the login's client, to tell sessions apart. */
  user_agent?: string | null
  ip?: string | null
}

/** A token as a lookup finds it: what its expiry is judged on. */
export interface StoredApiToken extends ApiToken {
  /** Issued by a password login (a session) rather than as a personal token. */
  session: boolean
  /** The last recorded use (written at most once a minute per instance), from the token's creation; null on rows older than sessions (migration 0020). */
  last_used_at: DateTimeString | null
}

/** Which of a user's tokens are still alive: sessions by creation and use, personal tokens by use (or creation). */
export interface TokenLiveness {
  /** Sessions created at or before this time are past their absolute lifetime. */
  sessionsCreatedAfter: DateTimeString
  /** Sessions last used at or before this time are idle; null: no idle timeout. */
  sessionsUsedAfter: DateTimeString | null
  /** Personal tokens last used (else created) at or before this time are idle; null: they never idle out. */
  tokensUsedAfter: DateTimeString | null
}

/** Storage port for API tokens and the auth revision (part of `Store`, same conventions). */
export interface TokenRepository {
  /** A token starts used: `last_used_at` = `created_at`. */
  create(token: NewApiToken): Promise<ApiToken>
  /**
   * Creates the personal token unless the user already holds `max` personal
   * (non-session) tokens (then null, nothing written). Concurrent calls for one
   * user are serialised (the user's row is locked first), so the cap holds.
   */
  createCapped(token: NewApiToken, limit: { max: number }): Promise<ApiToken | null>
  /**
   * Deletes the user's sessions but the newest `keep`, bumping the auth
   * revision when any went (they stop working at once); returns how many went.
   */
  pruneSessions(userId: number, keep: number): Promise<number>
  /**
   * The owner of a token hash, or null. Banned users' tokens resolve to their
   * user; callers check status and expiry. `authRevision` is `revision()` as
   * read by the same statement.
   */
  findUserByHash(tokenHash: string): Promise<{ token: StoredApiToken, user: User, authRevision: number } | null>
  /**
   * Records a use of the token at `at` (never moving `last_used_at` back).
   * Leaves the auth revision alone: a use revokes nothing.
   */
  recordUse(tokenId: number, at: DateTimeString): Promise<void>
  listForUser(userId: number): Promise<StoredApiToken[]>
  /** One page of the user's sessions alive by `alive`, sorted by the query (`sessionList`). */
  listSessions(userId: number, alive: TokenLiveness, query: ListQuery): Promise<Page<SessionRecord>>
  /** A page of the user's tokens alive by `alive` (sessions and personal tokens), by `apiTokenList`. */
  pageForUser(userId: number, alive: TokenLiveness, query: ListQuery): Promise<Page<StoredApiToken>>
  /** Deletes a token of this user; false when it is not theirs or missing. */
  deleteForUser(userId: number, tokenId: number): Promise<boolean>
  /** Deletes a session of this user; false when it is not theirs, not a session, or missing. */
  deleteSessionForUser(userId: number, tokenId: number): Promise<boolean>
  /** Deletes every session of this user but `exceptId` (their current one, if any); returns how many went. */
  deleteSessionsForUser(userId: number, exceptId: number | null): Promise<number>
  deleteAllForUser(userId: number): Promise<void>
  /**
   * Deletes up to `limit` tokens of anyone that are not alive by `alive` (they
   * already stop working, so the auth revision stays); returns how many went.
   */
  deleteExpired(alive: TokenLiveness, limit: number): Promise<number>
  /**
   * The auth revision: a number shared by every instance through the database
   * that changes in the same transaction as any token deletion (but `deleteExpired`'s), any update or
   * deletion of a user (a login's `last_login_at` alone aside) and any change
   * of an agent's categories. Whoever caches token lookups (or what follows
   * from them) trusts an entry only under the revision it was read with.
   */
  revision(): Promise<number>
}
