import { audit } from '../audit/audit-log.js'
import { anonymous, personActor, systemActor as systemActorOf } from '../users/actor.js'
import { nowString, type ServiceContext } from '../context.js'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js'
import type { ListQuery, Page } from '../list/list-query.js'
import { formatDateTime } from '../time.js'
import { checkedNewPersonRow, normaliseEmail, type NewPersonInput } from '../users/user-input.js'
import { Role, UserStatus, type User, type UserStatusNumber } from '../users/user.js'
import type { Store } from '../store.js'
import { generateToken, hashToken, type ApiToken } from './api-token.js'
import { allowActorMemo } from './actor-memo.js'
import {
  DEFAULT_SESSION_IDLE_TIMEOUT_MS, DEFAULT_SESSION_LIFETIME_MS, LAST_USED_RESOLUTION_MS,
  type Session, type SessionClient, type SessionOptions, type SessionRecord
} from './session.js'
import { RevisionReader, TokenCache, type TokenCacheOptions } from './token-cache.js'
import type { StoredApiToken, TokenLiveness } from './token-store.js'
import { insertCustomer } from '../users/customer-service.js'

export interface IssuedToken extends ApiToken { token: string }

/** What a login answers: the session's token and its user. */
export interface LoginResult { token: string, user: User, /** The session's token id. */ tokenId?: number }

/** A verified token: its owner and id; `sso` when it is a session started through single sign-on (re-checked with its provider). */
export interface VerifiedToken { user: User, tokenId: number, sso?: boolean }

/** What a token's expiry is judged on, in milliseconds. */
interface TokenTimes { session: boolean, createdAt: number, lastUsedAt: number | null }

/** A cached lookup (`lastUsedAt` moves as uses are recorded). */
interface TokenState extends VerifiedToken, TokenTimes {}

function timesOf (token: StoredApiToken): TokenTimes {
  return { session: token.session, createdAt: timeOf(token.created_at), lastUsedAt: token.last_used_at === null ? null : timeOf(token.last_used_at) }
}

/** Characters of a login's `User-Agent` kept on its session. */
const USER_AGENT_MAX = 255
/** Characters of an address (an IPv6 address with an IPv4 tail fits). */
const IP_MAX = 45

/** `YYYY-MM-DD HH:MM:SS` (UTC) as milliseconds. */
function timeOf (value: string): number {
  return Date.parse(`${value.replace(' ', 'T')}Z`)
}

const BAD_CREDENTIALS = 'These credentials do not match our records.'

/** Personal tokens (`POST /auth/tokens`, the CLI) a user may hold at once (CONTRACT §17). */
export const PERSONAL_TOKEN_LIMIT = 100
/** The name login and registration give their tokens. */
export const LOGIN_TOKEN_NAME = 'login'
/** The name of the console's cookie sessions' tokens. */
export const COOKIE_SESSION_TOKEN_NAME = 'session'
/** The name of console cookie sessions started through single sign-on (the only sessions re-checked with a provider). */
export const SSO_SESSION_TOKEN_NAME = 'sso'
/**
 * Sessions (login tokens) a user keeps: a login never fails for holding too many, it revokes the
 * user's oldest sessions beyond this many instead.
 */
export const LOGIN_TOKEN_LIMIT = 50

/**
 * Login, logout, registration, personal API tokens, sessions, and resolving a
 * bearer token to a user (with the idle timeout and absolute lifetime of
 * sessions, see `SessionOptions`).
 */
export class AuthService {
  private readonly tokens: TokenCache<TokenState>
  /** A session's absolute lifetime in milliseconds (the console's cookie lasts as long). */
  readonly sessionLifetimeMs: number
  private readonly sessionIdleMs: number
  private readonly tokenIdleMs: number

  /** Set by `createHelpdesk`: refuses a password login that needs more (a second factor, single sign-on). */
  signInGate: ((user: User) => Promise<void>) | undefined

  constructor (private readonly ctx: ServiceContext, tokenCache: TokenCacheOptions = {}, sessions: SessionOptions = {}) {
    this.tokens = new TokenCache(new RevisionReader(async () => await ctx.store.tokens.revision()), ctx.clock, tokenCache)
    this.sessionLifetimeMs = sessions.lifetimeMs ?? DEFAULT_SESSION_LIFETIME_MS
    this.sessionIdleMs = sessions.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS
    this.tokenIdleMs = sessions.tokenIdleTimeoutMs ?? 0
    for (const [name, value] of [['lifetimeMs', this.sessionLifetimeMs], ['idleTimeoutMs', this.sessionIdleMs], ['tokenIdleTimeoutMs', this.tokenIdleMs]] as const) {
      if (!Number.isSafeInteger(value) || value < 0 || (name === 'lifetimeMs' && value === 0)) {
        throw new TypeError(`sessions.${name} must be ${name === 'lifetimeMs' ? 'a positive' : 'a non-negative'} integer of milliseconds, got ${String(value)}`)
      }
    }
  }

  /**
   * Checks the password and starts a session. `tokenName` names the issued token row: `login` for
   * bearer logins, `session` for the console's cookie; `client` is recorded on it. A person whose
   * sign-in needs more (a second factor, or single sign-on) is refused here (403): the doors sign
   * people in through `SignInService`, which handles those steps.
   */
  async login (email: string, password: string, tokenName = LOGIN_TOKEN_NAME, client: SessionClient = {}): Promise<LoginResult> {
    const user = await this.checkPassword(email, password, client)
    await this.signInGate?.(user)
    return await this.startSession(user, tokenName, client)
  }

  /** The user whose email and password these are (422 on `email` otherwise, and for banned users), in constant-ish time. */
  async checkPassword (email: string, password: string, client: SessionClient = {}): Promise<User> {
    const user = await this.ctx.store.users.findByEmail(normaliseEmail(email))
    const hash = user === null ? null : await this.ctx.store.users.findPasswordHash(user.id)
    // Verify against a dummy when the user is unknown so timing does not reveal which emails exist.
    const ok = await this.ctx.hasher.verify(hash ?? await this.dummyHash(), password)
    const failed = user === null || hash === null || !ok ? 'bad_credentials' : user.status === UserStatus.Banned ? 'banned' : null
    if (failed !== null) {
      // The address tried and why it failed; never the password.
      await audit(this.ctx.store, user === null ? anonymous() : personActor(user, 'api', client.ip ?? null), {
        action: 'auth.sign_in_failed', subject_type: 'user', subject_id: user?.id ?? null, ip: client.ip ?? null, after: { email: normaliseEmail(email), reason: failed }
      })
      throw ValidationError.field('email', failed === 'banned' ? 'This account has been banned.' : BAD_CREDENTIALS)
    }
    return user!
  }

  /** Starts a session for a person already identified (password and second factor, magic link, single sign-on). */
  async startSession (user: User, tokenName: string, client: SessionClient = {}, tx?: Store): Promise<LoginResult> {
    const run = async (store: Store): Promise<LoginResult> => {
      const updated = await store.users.update(user.id, { last_login_at: nowString(this.ctx) })
      const issued = await this.issueLoginToken(store.tokens, user.id, tokenName, client)
      await audit(store, personActor(user, tokenName === 'session' ? 'console' : 'api', client.ip ?? null), {
        action: 'auth.sign_in', subject_type: 'user', subject_id: user.id, after: { session_id: issued.id, kind: tokenName, user_agent: client.userAgent ?? null }
      })
      return { token: issued.token, user: updated ?? user, tokenId: issued.id }
    }
    return tx !== undefined ? await run(tx) : await this.ctx.store.transaction(run)
  }

  /**
   * Self-service sign-up, when `createHelpdesk`'s `registration` allows it (the one place that setting lives).
   * `options.status` is the new customer's status (Unconfirmed when the address must be verified);
   * `options.onCreated` runs in the registration's transaction (the verification mail's job).
   */
  async register (input: NewPersonInput, client: SessionClient = {}, options: { status?: UserStatusNumber, onCreated?: (tx: Store, user: User) => Promise<void> } = {}): Promise<LoginResult> {
    if (!this.ctx.registration) throw new ForbiddenError('Registration is disabled.')
    const row = await checkedNewPersonRow(this.ctx, Role.Customer, input, { company: false })
    if (options.status !== undefined) row.status = options.status
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const user = await insertCustomer(this.ctx, tx, row, 'self')
      await options.onCreated?.(tx, user)
      const issued = await this.issueLoginToken(tx.tokens, user.id, LOGIN_TOKEN_NAME, client)
      return { token: issued.token, user, tokenId: issued.id }
    })
  }

  /**
   * The user a bearer token belongs to, or null if it is unknown, revoked,
   * expired (a session idle past its idle timeout or past its absolute
   * lifetime; a personal token idle past `tokenIdleTimeoutMs` when set), or
   * the user is banned. Lookups are cached briefly and checked against the
   * store's auth revision on every call, so revocations apply at once; an
   * entry the cache would call expired is looked up again (another instance
   * may have recorded a later use). A use is recorded on the row at most once
   * a minute per instance (`LAST_USED_RESOLUTION_MS`): most requests write nothing.
   * `recordUse: false` checks without renewing (an open event stream's heartbeats
   * are not uses, so a forgotten tab does not keep its session alive).
   */
  async authenticate (token: string, options: { recordUse?: boolean } = {}): Promise<VerifiedToken | null> {
    const hash = hashToken(token)
    const now = this.ctx.clock.now().getTime()
    const found = await this.tokens.get(hash, async () => {
      const stored = await this.ctx.store.tokens.findUserByHash(hash)
      if (stored === null) return { value: null, revision: 0 }
      const value = stored.user.status === UserStatus.Banned
        ? null
        : { user: stored.user, tokenId: stored.token.id, sso: stored.token.session && stored.token.name === SSO_SESSION_TOKEN_NAME, ...timesOf(stored.token) }
      if (value === null || !this.alive(value, now)) return { value: null, revision: stored.authRevision }
      allowActorMemo(value.user)
      return { value, revision: stored.authRevision }
    }, (cached) => this.alive(cached, now))
    if (found === null) return null
    if (options.recordUse !== false) await this.recordUse(found, now)
    return found
  }

  async logout (tokenId: number, actor: User): Promise<void> {
    await this.ctx.store.tokens.deleteForUser(actor.id, tokenId)
  }

  /** The user's tokens, sessions included; expired ones (not yet removed by the `tokens.prune` job) are left out. */
  async listTokens (actor: User): Promise<ApiToken[]> {
    const now = this.ctx.clock.now().getTime()
    return (await this.ctx.store.tokens.listForUser(actor.id)).filter((token) => this.alive(timesOf(token), now))
  }

  /** A page of the user's live tokens (`GET /auth/tokens`): the same rule as `listTokens`, in the query. */
  async pageTokens (actor: User, query: ListQuery): Promise<Page<StoredApiToken>> {
    return await this.ctx.store.tokens.pageForUser(actor.id, this.liveness(this.ctx.clock.now().getTime()), query)
  }

  /**
   * A page of the caller's live sessions (console cookies and login tokens; personal tokens are not
   * sessions), the one they are using (`currentTokenId`) marked `current`.
   */
  async listSessions (actor: User, currentTokenId: number | null, query: ListQuery): Promise<Page<Session>> {
    const now = this.ctx.clock.now().getTime()
    const page = await this.ctx.store.tokens.listSessions(actor.id, this.liveness(now), query)
    return { ...page, items: page.items.map((record) => this.presentSession(record, currentTokenId)) }
  }

  /** Ends one of the caller's sessions at once, on every instance; 404 when it is not one of theirs. */
  async endSession (actor: User, sessionId: number): Promise<void> {
    if (!await this.ctx.store.tokens.deleteSessionForUser(actor.id, sessionId)) throw new NotFoundError('Session')
    await audit(this.ctx.store, actor, { action: 'session.revoked', subject_type: 'session', subject_id: sessionId })
  }

  /** Ends every session of the caller's but the one they are using (`currentTokenId`); returns how many ended. */
  async endOtherSessions (actor: User, currentTokenId: number | null): Promise<number> {
    const ended = await this.ctx.store.tokens.deleteSessionsForUser(actor.id, currentTokenId)
    if (ended > 0) await audit(this.ctx.store, actor, { action: 'session.revoked', subject_type: 'session', after: { others_of_user: actor.id, count: ended } })
    return ended
  }

  /** Removes expired sessions and idle personal tokens (the `tokens.prune` job); returns how many went. */
  async pruneExpired (batch = 1000): Promise<number> {
    const alive = this.liveness(this.ctx.clock.now().getTime())
    let removed = 0
    for (;;) {
      const deleted = await this.ctx.store.tokens.deleteExpired(alive, batch)
      removed += deleted
      if (deleted < batch) return removed
    }
  }

  /** A personal token; 422 on `name` when the user already holds PERSONAL_TOKEN_LIMIT of them. */
  async createToken (actor: User, name: string | null): Promise<IssuedToken> {
    const issued = await this.issuePersonal(actor.id, name)
    await audit(this.ctx.store, actor, { action: 'token.created', subject_type: 'token', subject_id: issued.id, after: { id: issued.id, name: issued.name, user_id: actor.id } })
    return issued
  }

  /** Issues a token for any user by email: the CLI's `tokens:create`. */
  async createTokenForEmail (email: string, name: string | null): Promise<IssuedToken> {
    const user = await this.ctx.store.users.findByEmail(normaliseEmail(email))
    if (user === null) throw new NotFoundError('User')
    const issued = await this.issuePersonal(user.id, name)
    await audit(this.ctx.store, systemActorOf('cli'), { action: 'token.created', subject_type: 'token', subject_id: issued.id, after: { id: issued.id, name: issued.name, user_id: user.id } })
    return issued
  }

  /**
   * The user a trusted caller names by id or email (the plugin's `authenticate`
   * mapping of a host's own users, the CLI's checks for existing accounts),
   * whatever their status: the caller decides about banned users. Null when none.
   */
  async findUser (ref: { id: number } | { email: string }): Promise<User | null> {
    if ('id' in ref) return await this.ctx.store.users.findById(ref.id)
    return await this.ctx.store.users.findByEmail(normaliseEmail(ref.email))
  }

  async deleteToken (actor: User, tokenId: number): Promise<void> {
    const deleted = await this.ctx.store.tokens.deleteForUser(actor.id, tokenId)
    if (!deleted) throw new NotFoundError('Token')
    await audit(this.ctx.store, actor, { action: 'token.revoked', subject_type: 'token', subject_id: tokenId })
  }

  private dummy: Promise<string> | undefined
  private async dummyHash (): Promise<string> {
    this.dummy ??= this.ctx.hasher.hash(generateToken())
    return await this.dummy
  }

  private async issuePersonal (userId: number, name: string | null): Promise<IssuedToken> {
    const token = generateToken()
    const stored = await this.ctx.store.tokens.createCapped({ user_id: userId, name, token_hash: hashToken(token) }, { max: PERSONAL_TOKEN_LIMIT })
    if (stored === null) {
      throw ValidationError.field('name', `You already have ${PERSONAL_TOKEN_LIMIT} personal tokens: revoke one before creating another.`)
    }
    return { ...stored, token }
  }

  /** A session: a login's (or a console session's) token; the user's oldest sessions beyond LOGIN_TOKEN_LIMIT are revoked. */
  private async issueLoginToken (tokens: ServiceContext['store']['tokens'], userId: number, name: string, client: SessionClient): Promise<IssuedToken> {
    const token = generateToken()
    const stored = await tokens.create({
      user_id: userId,
      name,
      token_hash: hashToken(token),
      session: true,
      user_agent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ip: client.ip?.slice(0, IP_MAX) ?? null
    })
    await tokens.pruneSessions(userId, LOGIN_TOKEN_LIMIT)
    return { ...stored, token }
  }

  /**
   * Whether a token is alive at `now`: a session until its absolute lifetime and until its idle
   * timeout after its last recorded use; a personal token until `tokenIdleMs` after its last use
   * (or creation), when set. Idle timeouts get LAST_USED_RESOLUTION_MS of slack (uses are recorded
   * that coarsely), so a token never ends before its idle timeout.
   */
  private alive (state: TokenTimes, now: number): boolean {
    const lastUsed = state.lastUsedAt ?? state.createdAt
    if (state.session) {
      if (now >= state.createdAt + this.sessionLifetimeMs) return false
      return this.sessionIdleMs === 0 || now < lastUsed + this.sessionIdleMs + LAST_USED_RESOLUTION_MS
    }
    return this.tokenIdleMs === 0 || now < lastUsed + this.tokenIdleMs + LAST_USED_RESOLUTION_MS
  }

  /** The same rule as `alive`, as times the store compares rows with. */
  private liveness (now: number): TokenLiveness {
    const at = (ms: number): string => formatDateTime(new Date(ms))
    return {
      sessionsCreatedAfter: at(now - this.sessionLifetimeMs),
      sessionsUsedAfter: this.sessionIdleMs === 0 ? null : at(now - this.sessionIdleMs - LAST_USED_RESOLUTION_MS),
      tokensUsedAfter: this.tokenIdleMs === 0 ? null : at(now - this.tokenIdleMs - LAST_USED_RESOLUTION_MS)
    }
  }

  /** Writes a use to the row when the last recorded one is a minute old or more (once per instance: the cached state moves first). */
  private async recordUse (state: TokenState, now: number): Promise<void> {
    if (state.lastUsedAt !== null && now - state.lastUsedAt < LAST_USED_RESOLUTION_MS) return
    state.lastUsedAt = now
    await this.ctx.store.tokens.recordUse(state.tokenId, formatDateTime(new Date(now)))
  }

  private presentSession (record: SessionRecord, currentTokenId: number | null): Session {
    const lastUsed = record.last_used_at ?? record.created_at
    const end = timeOf(record.created_at) + this.sessionLifetimeMs
    const idleEnd = this.sessionIdleMs === 0 ? end : timeOf(lastUsed) + this.sessionIdleMs + LAST_USED_RESOLUTION_MS
    return {
      id: record.id,
      type: record.name === COOKIE_SESSION_TOKEN_NAME || record.name === SSO_SESSION_TOKEN_NAME ? 'cookie' : 'bearer',
      created_at: record.created_at,
      last_used_at: lastUsed,
      expires_at: formatDateTime(new Date(Math.min(end, idleEnd))),
      user_agent: record.user_agent,
      ip: record.ip,
      current: record.id === currentTokenId
    }
  }
}

