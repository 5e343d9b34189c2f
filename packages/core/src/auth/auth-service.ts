import { nowString, type ServiceContext } from '../context.js'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js'
import { checkedNewPersonRow, normaliseEmail, type NewPersonInput } from '../users/user-input.js'
import { Role, UserStatus, type Actor, type User } from '../users/user.js'
import { generateToken, hashToken, type ApiToken } from './api-token.js'
import { allowActorMemo } from './actor-memo.js'
import { RevisionReader, TokenCache, type TokenCacheOptions } from './token-cache.js'
import { insertCustomer } from '../users/customer-service.js'

export interface IssuedToken extends ApiToken { token: string }

const BAD_CREDENTIALS = 'These credentials do not match our records.'

/** Personal tokens (`POST /auth/tokens`, the CLI) a user may hold at once (CONTRACT §17). */
export const PERSONAL_TOKEN_LIMIT = 100
/** The name login and registration give their tokens. */
export const LOGIN_TOKEN_NAME = 'login'
/**
 * Login tokens a user keeps: a login never fails for holding too many, it revokes the
 * user's oldest login tokens beyond this many instead.
 */
export const LOGIN_TOKEN_LIMIT = 50

/** Login, logout, registration, personal API tokens, and resolving a bearer token to a user. */
export class AuthService {
  private readonly tokens: TokenCache<{ user: User, tokenId: number }>

  constructor (private readonly ctx: ServiceContext, tokenCache: TokenCacheOptions = {}) {
    this.tokens = new TokenCache(new RevisionReader(async () => await ctx.store.tokens.revision()), ctx.clock, tokenCache)
  }

  /** `tokenName` names the issued token row: `login` for bearer logins, `session` for the console's cookie. */
  async login (email: string, password: string, tokenName = LOGIN_TOKEN_NAME): Promise<{ token: string, user: User }> {
    const user = await this.ctx.store.users.findByEmail(normaliseEmail(email))
    const hash = user === null ? null : await this.ctx.store.users.findPasswordHash(user.id)
    // Verify against a dummy when the user is unknown so timing does not reveal which emails exist.
    const ok = await this.ctx.hasher.verify(hash ?? await this.dummyHash(), password)
    if (user === null || hash === null || !ok) throw ValidationError.field('email', BAD_CREDENTIALS)
    if (user.status === UserStatus.Banned) throw ValidationError.field('email', 'This account has been banned.')
    return await this.ctx.store.transaction(async (tx) => {
      const updated = await tx.users.update(user.id, { last_login_at: nowString(this.ctx) })
      const issued = await this.issueLoginToken(tx.tokens, user.id, tokenName)
      return { token: issued.token, user: updated ?? user }
    })
  }

  /** Self-service sign-up, when `createHelpdesk`'s `registration` allows it (the one place that setting lives). */
  async register (input: NewPersonInput): Promise<{ token: string, user: User }> {
    if (!this.ctx.registration) throw new ForbiddenError('Registration is disabled.')
    const row = await checkedNewPersonRow(this.ctx, Role.Customer, input, { company: false })
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const user = await insertCustomer(this.ctx, tx, row, 'self')
      const issued = await this.issueLoginToken(tx.tokens, user.id)
      return { token: issued.token, user }
    })
  }

  /**
   * The user a bearer token belongs to, or null if it is unknown, revoked, or
   * the user is banned. Lookups are cached briefly and checked against the
   * store's auth revision on every call, so revocations apply at once.
   */
  async authenticate (token: string): Promise<{ user: User, tokenId: number } | null> {
    const hash = hashToken(token)
    return await this.tokens.get(hash, async () => {
      const found = await this.ctx.store.tokens.findUserByHash(hash)
      if (found === null) return { value: null, revision: 0 }
      const value = found.user.status === UserStatus.Banned ? null : { user: found.user, tokenId: found.token.id }
      if (value !== null) allowActorMemo(value.user)
      return { value, revision: found.authRevision }
    })
  }

  async logout (tokenId: number, actor: Actor): Promise<void> {
    await this.ctx.store.tokens.deleteForUser(actor.id, tokenId)
  }

  async listTokens (actor: Actor): Promise<ApiToken[]> {
    return await this.ctx.store.tokens.listForUser(actor.id)
  }

  /** A personal token; 422 on `name` when the user already holds PERSONAL_TOKEN_LIMIT of them. */
  async createToken (actor: Actor, name: string | null): Promise<IssuedToken> {
    return await this.issuePersonal(actor.id, name)
  }

  /** Issues a token for any user by email: the CLI's `tokens:create`. */
  async createTokenForEmail (email: string, name: string | null): Promise<IssuedToken> {
    const user = await this.ctx.store.users.findByEmail(normaliseEmail(email))
    if (user === null) throw new NotFoundError('User')
    return await this.issuePersonal(user.id, name)
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

  async deleteToken (actor: Actor, tokenId: number): Promise<void> {
    const deleted = await this.ctx.store.tokens.deleteForUser(actor.id, tokenId)
    if (!deleted) throw new NotFoundError('Token')
  }

  private dummy: Promise<string> | undefined
  private async dummyHash (): Promise<string> {
    this.dummy ??= this.ctx.hasher.hash(generateToken())
    return await this.dummy
  }

  private async issuePersonal (userId: number, name: string | null): Promise<IssuedToken> {
    const token = generateToken()
    const stored = await this.ctx.store.tokens.createCapped(
      { user_id: userId, name, token_hash: hashToken(token) }, { max: PERSONAL_TOKEN_LIMIT, except: LOGIN_TOKEN_NAME })
    if (stored === null) {
      throw ValidationError.field('name', `You already have ${PERSONAL_TOKEN_LIMIT} personal tokens: revoke one before creating another.`)
    }
    return { ...stored, token }
  }

  /** A login's (or a console session's) token; the user's oldest ones of that name beyond LOGIN_TOKEN_LIMIT are revoked. */
  private async issueLoginToken (tokens: ServiceContext['store']['tokens'], userId: number, name = LOGIN_TOKEN_NAME): Promise<IssuedToken> {
    const issued = await this.issue(tokens, userId, name)
    await tokens.pruneNamed(userId, name, LOGIN_TOKEN_LIMIT)
    return issued
  }

  private async issue (tokens: ServiceContext['store']['tokens'], userId: number, name: string | null): Promise<IssuedToken> {
    const token = generateToken()
    const stored = await tokens.create({ user_id: userId, name, token_hash: hashToken(token) })
    return { ...stored, token }
  }
}

