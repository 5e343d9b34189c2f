import type { User } from '../users/user.js'
import type { ApiToken } from './api-token.js'

/** Storage port for API tokens and the auth revision (part of `Store`, same conventions). */
export interface TokenRepository {
  create(token: { user_id: number, name: string | null, token_hash: string }): Promise<ApiToken>
  /**
   * Creates the token unless the user already holds `max` tokens whose name is
   * not `except` (then null, nothing written). Concurrent calls for one user
   * are serialised (the user's row is locked first), so the cap holds.
   */
  createCapped(token: { user_id: number, name: string | null, token_hash: string }, limit: { max: number, except: string }): Promise<ApiToken | null>
  /**
   * Deletes the user's tokens named `name` but the newest `keep`, bumping the
   * auth revision when any went (they stop working at once); returns how many went.
   */
  pruneNamed(userId: number, name: string, keep: number): Promise<number>
  /**
   * The owner of a token hash, or null. Banned users' tokens resolve to their
   * user; callers check status. `authRevision` is `revision()` as read by the
   * same statement.
   */
  findUserByHash(tokenHash: string): Promise<{ token: ApiToken, user: User, authRevision: number } | null>
  listForUser(userId: number): Promise<ApiToken[]>
  /** Deletes a token of this user; false when it is not theirs or missing. */
  deleteForUser(userId: number, tokenId: number): Promise<boolean>
  deleteAllForUser(userId: number): Promise<void>
  /**
   * The auth revision: a number shared by every instance through the database
   * that changes in the same transaction as any token deletion, any update or
   * deletion of a user (a login's `last_login_at` alone aside) and any change
   * of an agent's categories. Whoever caches token lookups (or what follows
   * from them) trusts an entry only under the revision it was read with.
   */
  revision(): Promise<number>
}
