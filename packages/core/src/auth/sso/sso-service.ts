import { createHash } from 'node:crypto'
import type { ServiceContext } from '../../context.js'
import { ForbiddenError, NotFoundError, UnavailableError } from '../../errors.js'
import type { ListQuery, Page } from '../../list/list-query.js'
import { formatDateTime } from '../../time.js'
import { normaliseEmail } from '../../users/user-input.js'
import { ensureAdmin } from '../../users/user-policy.js'
import { isStaff, noPermissions, PERMISSION_KEYS, Role, UserStatus, type RoleNumber, type User } from '../../users/user.js'
import type { ActorInput } from '../../users/actor.js'
import { SSO_SESSION_TOKEN_NAME, type AuthService, type LoginResult } from '../auth-service.js'
import type { SecretBox } from '../secret-box.js'
import type { SessionClient } from '../session.js'
import type { ResolvedSignInOptions } from '../sign-in-options.js'
import { checkProviderInput, claimValues, EMPTY_MAPPING, type SsoMapping, type SsoProvider, type SsoProviderInput, type StoredSsoProvider } from './sso-provider.js'

type OpenIdClient = typeof import('openid-client')
type Configuration = import('openid-client').Configuration
type ServerMetadata = import('openid-client').ServerMetadata

/** Minutes a sign-in may take at the provider (state, nonce and verifier are kept this long). */
const FLOW_MS = 10 * 60_000
/** How long a provider's discovery document is trusted before it is fetched again. */
const DISCOVERY_TTL_MS = 60 * 60_000
/** Sessions whose SSO status this instance remembers (token id -> next check); older entries are dropped first. */
const SESSION_CACHE_MAX = 10_000
const DEFAULT_SCOPES = 'openid email profile'

/** Why a single sign-on did not sign anyone in: a 403 with a sentence for the person (not a code of its own: `isSsoRefusal`). */
class SsoError extends ForbiddenError {}

/** The sentence of a refused single sign-on (the callback redirects to the console with it), else null for any other error. */
export function ssoRefusal (error: unknown): string | null {
  return error instanceof SsoError ? error.message : null
}

/** A started sign-in: where to send the browser, and the state to bind to it (an HttpOnly cookie). */
export interface SsoStart { url: string, state: string }

/** What a provider button needs: public, no secrets. */
export interface SsoProviderButton { slug: string, name: string, staff: boolean, customers: boolean }

function digest (value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

function present (stored: StoredSsoProvider): SsoProvider {
  const { client_secret: secret, ...rest } = stored
  return { ...rest, has_client_secret: secret !== null }
}

function mappingOf (input: Partial<SsoMapping> | undefined, base: SsoMapping = EMPTY_MAPPING): SsoMapping {
  return {
    claim: input?.claim !== undefined ? input.claim : base.claim,
    admin: input?.admin ?? base.admin,
    agent: input?.agent ?? base.agent,
    permissions: input?.permissions ?? base.permissions,
    categories: input?.categories ?? base.categories
  }
}

/** A `return_to` that stays on this site: a path, never `//host` or a scheme. */
function safeReturnTo (value: string | null | undefined): string | null {
  if (value === undefined || value === null || value === '') return null
  return /^\/(?![/\\])[^\s]*$/.test(value) && value.length <= 500 ? value : null
}

/**
 * Single sign-on with OpenID Connect (openid-client): providers configured by
 * administrators (client secret write-only, sealed at rest), the authorization
 * code flow with PKCE (S256), state and nonce (kept server-side, the state
 * also bound to the browser by a cookie), people matched by the provider's
 * `sub` (linked by a verified email only on the first sign-in, and only when
 * the provider allows it), claims mapped to role, permissions and categories,
 * and sessions re-checked with the provider while they are used (refresh-token
 * grant) at most every `ssoRecheckMinutes`: a person disabled or removed at
 * the provider loses access at their next request after that.
 */
export class SsoService {
  private readonly discovered = new Map<number, { server: ServerMetadata, at: number, updatedAt: string }>()
  /** Token id -> when this instance must look again (0: not an SSO session; it never becomes one). */
  private readonly sessions = new Map<number, number>()
  private client: Promise<OpenIdClient> | undefined

  constructor (
    private readonly ctx: ServiceContext,
    private readonly auth: AuthService,
    private readonly secrets: SecretBox,
    private readonly options: ResolvedSignInOptions,
    /** The API's public base URL (`…/api/v1`): the callback URLs are under it. */
    private readonly publicUrl: string | undefined,
    /** The web console's public URL, where a sign-in ends (default: beside the API). */
    private readonly consoleUrl?: string | undefined
  ) {}

  // --- administrators ---

  async list (actor: ActorInput): Promise<SsoProvider[]> {
    ensureAdmin(actor)
    return (await this.ctx.store.sso.listProviders()).map(present)
  }

  /** A page of providers (`GET /sso/providers`), secrets write-only as everywhere. */
  async page (actor: ActorInput, query: ListQuery): Promise<Page<SsoProvider>> {
    ensureAdmin(actor)
    const page = await this.ctx.store.sso.pageProviders(query)
    return { ...page, items: page.items.map(present) }
  }

  async get (actor: ActorInput, id: number): Promise<SsoProvider> {
    ensureAdmin(actor)
    const found = await this.ctx.store.sso.findProvider({ id })
    if (found === null) throw new NotFoundError('Provider')
    return present(found)
  }

  async create (actor: ActorInput, input: SsoProviderInput): Promise<SsoProvider> {
    ensureAdmin(actor)
    checkProviderInput(input, true)
    const stored = await this.ctx.store.sso.createProvider({
      slug: input.slug ?? '',
      name: (input.name ?? '').trim(),
      issuer: input.issuer ?? '',
      client_id: input.client_id ?? '',
      client_secret: input.client_secret === undefined || input.client_secret === null ? null : this.secrets.seal(input.client_secret),
      scopes: input.scopes ?? DEFAULT_SCOPES,
      enabled: input.enabled ?? true,
      staff: input.staff ?? true,
      customers: input.customers ?? false,
      create_users: input.create_users ?? false,
      link_by_email: input.link_by_email ?? false,
      mapping: mappingOf(input.mapping)
    })
    return present(stored)
  }

  async update (actor: ActorInput, id: number, input: SsoProviderInput): Promise<SsoProvider> {
    ensureAdmin(actor)
    checkProviderInput(input, false)
    const before = await this.ctx.store.sso.findProvider({ id })
    if (before === null) throw new NotFoundError('Provider')
    const { mapping, client_secret: secret, ...rest } = input
    const updated = await this.ctx.store.sso.updateProvider(id, {
      ...rest,
      ...(rest.name !== undefined ? { name: rest.name.trim() } : {}),
      ...(secret !== undefined ? { client_secret: secret === null ? null : this.secrets.seal(secret) } : {}),
      ...(mapping !== undefined ? { mapping: mappingOf(mapping, before.mapping) } : {})
    })
    if (updated === null) throw new NotFoundError('Provider')
    this.discovered.delete(id)
    return present(updated)
  }

  /** Removes the provider; the sessions started through it end at once. */
  async delete (actor: ActorInput, id: number): Promise<void> {
    ensureAdmin(actor)
    if (!await this.ctx.store.sso.deleteProvider(id)) throw new NotFoundError('Provider')
    this.discovered.delete(id)
  }

  // --- signing in ---

  /** The enabled providers, for the sign-in page's buttons. */
  async buttons (): Promise<SsoProviderButton[]> {
    return (await this.ctx.store.sso.listProviders()).filter((p) => p.enabled).map((p) => ({ slug: p.slug, name: p.name, staff: p.staff, customers: p.customers }))
  }

  /** A page of the web console: under `consoleUrl`, else beside the API (its public URL without `/api/v<n>`), else the path alone. */
  consolePath (path: string): string {
    const base = this.consoleUrl ?? (this.publicUrl !== undefined ? this.publicUrl.replace(/\/api\/v\d+\/*$/, '') : '')
    return `${base.replace(/\/+$/, '')}${path}`
  }

  /** The URL the provider sends the browser back to: `<publicUrl>/auth/sso/<slug>/callback`. */
  callbackUrl (slug: string): string {
    if (this.publicUrl === undefined || this.publicUrl === '') throw new UnavailableError('Single sign-on needs the API\'s public URL (`signIn.publicUrl` or `mail.publicUrl`).')
    return `${this.publicUrl.replace(/\/+$/, '')}/auth/sso/${slug}/callback`
  }

  /** Starts a sign-in: state, nonce and PKCE verifier kept (single use, 10 minutes), the provider's authorization URL. */
  async start (slug: string, returnTo?: string | null): Promise<SsoStart> {
    const provider = await this.enabledProvider(slug)
    const client = await this.openIdClient()
    const config = await this.configuration(provider)
    const state = client.randomState()
    const nonce = client.randomNonce()
    const verifier = client.randomPKCECodeVerifier()
    const expires = formatDateTime(new Date(this.ctx.clock.now().getTime() + FLOW_MS))
    await this.ctx.store.sso.createFlow(digest(state), { provider_id: provider.id, nonce, code_verifier: verifier, return_to: safeReturnTo(returnTo) }, expires)
    const scopes = new Set(['openid', ...provider.scopes.split(' ').filter((s) => s !== '')])
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.callbackUrl(provider.slug),
      scope: [...scopes].join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce
    })
    return { url: url.href, state }
  }

  /**
   * Completes a sign-in from the provider's redirect: `query` is the callback's query string,
   * `boundState` the state of the browser's cookie. Checks state (bound to this browser, single
   * use), exchanges the code with the PKCE verifier, checks the ID token (signature, issuer,
   * audience, expiry, nonce), finds or links or creates the person, and starts a session.
   * SsoError (403) with a sentence for the person otherwise.
   */
  async callback (slug: string, query: string, boundState: string | null, client: SessionClient = {}): Promise<LoginResult & { returnTo: string | null }> {
    const provider = await this.enabledProvider(slug)
    const params = new URLSearchParams(query)
    const state = params.get('state')
    if (state === null || boundState === null || state !== boundState) throw new SsoError('This sign-in was not started in this browser, or it expired: try again.')
    const flow = await this.ctx.store.sso.consumeFlow(digest(state), formatDateTime(this.ctx.clock.now()))
    if (flow === null || flow.provider_id !== provider.id) throw new SsoError('This sign-in was used already or expired: try again.')
    const error = params.get('error')
    if (error !== null) throw new SsoError(`The provider refused the sign-in (${error.slice(0, 100)}).`)
    const openid = await this.openIdClient()
    const config = await this.configuration(provider)
    let claims: Record<string, unknown>
    let refreshToken: string | null
    try {
      const tokens = await openid.authorizationCodeGrant(config, new URL(`${this.callbackUrl(provider.slug)}?${params.toString()}`), {
        pkceCodeVerifier: flow.code_verifier, expectedState: state, expectedNonce: flow.nonce, idTokenExpected: true
      })
      claims = { ...(tokens.claims() ?? {}) }
      refreshToken = tokens.refresh_token ?? null
      if (tokens.access_token !== undefined && (claims.email === undefined || claims.email_verified === undefined)) {
        try {
          const info = await openid.fetchUserInfo(config, tokens.access_token, String(claims.sub))
          claims = { ...info, ...claims, email: claims.email ?? info.email, email_verified: claims.email_verified ?? info.email_verified }
        } catch { /* userinfo is optional: the ID token decides */ }
      }
    } catch (cause) {
      throw new SsoError(`The provider's answer could not be verified (${describe(cause)}).`)
    }
    const user = await this.person(provider, claims)
    return await this.ctx.store.transaction(async (tx) => {
      const session = await this.auth.startSession(user, SSO_SESSION_TOKEN_NAME, client, tx)
      const identity = await tx.sso.findIdentity(provider.id, String(claims.sub))
      if (identity === null) throw new SsoError('The sign-in could not be completed: try again.')
      await tx.sso.linkSession(session.tokenId ?? 0, identity.id, refreshToken === null ? null : this.secrets.seal(refreshToken), formatDateTime(this.ctx.clock.now()))
      return { ...session, returnTo: flow.return_to }
    })
  }

  /**
   * Whether a session may still be used: sessions that did not come from single sign-on always
   * (remembered per instance after one look); an SSO session is re-checked with its provider once
   * `ssoRecheckMinutes` passed since the last check (by one instance: the check is claimed in the
   * database). A provider that refuses the refresh token (the person disabled or removed, the
   * grant revoked) ends the session at once, on every instance. A provider that cannot be
   * reached leaves it (and is asked again at the next request).
   */
  async sessionAlive (tokenId: number): Promise<boolean> {
    const now = this.ctx.clock.now().getTime()
    const next = this.sessions.get(tokenId)
    if (next === 0 || (next !== undefined && now < next)) return true
    const record = await this.ctx.store.sso.findSession(tokenId)
    if (record === null) {
      this.remember(tokenId, 0)
      return true
    }
    const due = Date.parse(`${record.checked_at.replace(' ', 'T')}Z`) + this.options.ssoRecheckMs
    if (now < due || record.refresh_token === null) {
      this.remember(tokenId, record.refresh_token === null ? 0 : due)
      return true
    }
    // One instance re-checks; the others go on until their next look.
    if (!await this.ctx.store.sso.claimCheck(tokenId, record.checked_at, formatDateTime(new Date(now)))) {
      this.remember(tokenId, now + 60_000)
      return true
    }
    const verdict = await this.recheck(record)
    if (verdict === 'gone') {
      await this.ctx.store.tokens.deleteSessionForUser(record.user_id, tokenId)
      this.sessions.delete(tokenId)
      return false
    }
    this.remember(tokenId, verdict === 'alive' ? now + this.options.ssoRecheckMs : now + 60_000)
    return true
  }

  private remember (tokenId: number, next: number): void {
    if (this.sessions.size >= SESSION_CACHE_MAX) {
      const oldest = this.sessions.keys().next().value
      if (oldest !== undefined) this.sessions.delete(oldest)
    }
    this.sessions.delete(tokenId)
    this.sessions.set(tokenId, next)
  }

  /** Asks the provider about the person with the session's refresh token: alive, gone, or unknown (unreachable). */
  private async recheck (record: { token_id: number, provider_id: number, sub: string, refresh_token: string | null }): Promise<'alive' | 'gone' | 'unknown'> {
    const provider = await this.ctx.store.sso.findProvider({ id: record.provider_id })
    if (provider === null || !provider.enabled || record.refresh_token === null) return 'gone'
    const openid = await this.openIdClient()
    try {
      const config = await this.configuration(provider)
      const tokens = await openid.refreshTokenGrant(config, this.secrets.open(record.refresh_token))
      const sub = tokens.claims()?.sub
      if (sub !== undefined && sub !== record.sub) return 'gone'
      if (tokens.refresh_token !== undefined) await this.ctx.store.sso.setRefreshToken(record.token_id, this.secrets.seal(tokens.refresh_token))
      return 'alive'
    } catch (cause) {
      if (cause instanceof openid.ResponseBodyError && cause.status >= 400 && cause.status < 500) return 'gone'
      return 'unknown'
    }
  }

  /** The person these verified claims are: by (provider, sub), else linked by verified email or created, as the provider allows. */
  private async person (provider: StoredSsoProvider, claims: Record<string, unknown>): Promise<User> {
    const sub = typeof claims.sub === 'string' ? claims.sub : null
    if (sub === null || sub === '' || sub.length > 255) throw new SsoError('The provider named nobody.')
    const email = typeof claims.email === 'string' ? normaliseEmail(claims.email) : null
    const verified = claims.email_verified === true
    const mapped = this.mappedRole(provider, claims)
    const known = await this.ctx.store.sso.findIdentity(provider.id, sub)
    let user: User | null = null
    if (known !== null) {
      // Matched by `sub` alone from now on, whatever the email says.
      user = await this.ctx.store.users.findById(known.user_id)
      await this.ctx.store.sso.touchIdentity(known.id, email)
    } else {
      if (email === null || !verified) throw new SsoError('The provider did not confirm your email address, so it cannot be used to sign you in here.')
      const existing = await this.ctx.store.users.findByEmail(email)
      if (existing !== null) {
        if (!provider.link_by_email) throw new SsoError('An account with this email already exists here: ask an administrator to allow linking it.')
        user = existing
      } else {
        if (!provider.create_users) throw new SsoError('You have no account here: ask an administrator.')
        const role = mapped ?? (provider.customers ? Role.Customer : null)
        if (role === null) throw new SsoError('Your account at the provider is not allowed to sign in here.')
        const names = this.names(claims, email)
        user = await this.ctx.store.users.create({ role, first_name: names.first, last_name: names.last, email, status: UserStatus.Active, password_hash: null })
      }
      await this.ctx.store.sso.createIdentity({ provider_id: provider.id, sub, user_id: user.id, email })
    }
    if (user === null || user.status === UserStatus.Banned) throw new SsoError('This account cannot sign in.')
    user = await this.applyMapping(provider, claims, user, mapped)
    if (isStaff(user) ? !provider.staff : !provider.customers) throw new SsoError('This provider does not sign in people of your role here.')
    if (user.status === UserStatus.Unconfirmed) user = await this.ctx.store.users.update(user.id, { status: UserStatus.Active }) ?? user
    return user
  }

  /** The role the mapping gives (null without a mapping claim, or a value of neither list: then a customer or unchanged). */
  private mappedRole (provider: StoredSsoProvider, claims: Record<string, unknown>): RoleNumber | null {
    const values = claimValues(claims, provider.mapping.claim)
    if (provider.mapping.claim === null) return null
    if (values.some((v) => provider.mapping.admin.includes(v))) return Role.Admin
    if (values.some((v) => provider.mapping.agent.includes(v))) return Role.Agent
    return provider.customers ? Role.Customer : null
  }

  /** With a mapping claim, the provider decides role, permissions and categories at every sign-in. */
  private async applyMapping (provider: StoredSsoProvider, claims: Record<string, unknown>, user: User, role: RoleNumber | null): Promise<User> {
    const { mapping } = provider
    if (mapping.claim === null) return user
    if (role === null) throw new SsoError('Your account at the provider is not allowed to sign in here.')
    const values = claimValues(claims, mapping.claim)
    const permissions = noPermissions()
    for (const key of PERMISSION_KEYS) permissions[key] = (mapping.permissions[key] ?? []).some((v) => values.includes(v))
    const categories = [...new Set(values.flatMap((v) => mapping.categories[v] ?? []))]
    const changedRole = role !== user.role
    const changedPermissions = role === Role.Agent && PERMISSION_KEYS.some((k) => permissions[k] !== user.permissions[k])
    let updated = user
    if (changedRole || changedPermissions) {
      updated = await this.ctx.store.users.update(user.id, { ...(changedRole ? { role } : {}), ...(role === Role.Agent ? { permissions } : {}) }) as User ?? user
    }
    if (role === Role.Agent) {
      const known = new Set(await this.ctx.store.categories.existingIds(categories))
      const wanted = categories.filter((id) => known.has(id)).sort((a, b) => a - b)
      const current = (await this.ctx.store.users.categoryIds(user.id)).sort((a, b) => a - b)
      // Only a change is written (it moves the auth revision, which every instance's token cache follows).
      if (wanted.join(',') !== current.join(',')) await this.ctx.store.users.setCategories(user.id, wanted)
    }
    return updated
  }

  private names (claims: Record<string, unknown>, email: string): { first: string, last: string } {
    const text = (v: unknown): string => typeof v === 'string' ? v.trim().slice(0, 250) : ''
    const first = text(claims.given_name) || text(claims.name).split(' ')[0] || email.split('@')[0] || 'User'
    const last = text(claims.family_name) || text(claims.name).split(' ').slice(1).join(' ') || '-'
    return { first, last }
  }

  private async enabledProvider (slug: string): Promise<StoredSsoProvider> {
    const provider = /^[a-z0-9-]{1,50}$/.test(slug) ? await this.ctx.store.sso.findProvider({ slug }) : null
    if (provider === null || !provider.enabled) throw new NotFoundError('Provider')
    return provider
  }

  private async openIdClient (): Promise<OpenIdClient> {
    this.client ??= import('openid-client')
    return await this.client
  }

  /**
   * The provider's client configuration: its discovery document cached for an hour (and dropped when
   * the provider changes), the client built per use so it reads the help desk's clock.
   */
  private async configuration (provider: StoredSsoProvider): Promise<Configuration> {
    const openid = await this.openIdClient()
    const secret = provider.client_secret === null ? undefined : this.secrets.open(provider.client_secret)
    const insecure = provider.issuer.startsWith('http:')
    const now = this.ctx.clock.now().getTime()
    const metadata = { ...(secret !== undefined ? { client_secret: secret } : {}), [openid.clockSkew]: Math.round((now - Date.now()) / 1000) }
    let cached = this.discovered.get(provider.id)
    if (cached === undefined || cached.updatedAt !== provider.updated_at || Date.now() - cached.at > DISCOVERY_TTL_MS) {
      try {
        const found = await openid.discovery(new URL(provider.issuer), provider.client_id, metadata, undefined, insecure ? { execute: [openid.allowInsecureRequests] } : undefined)
        cached = { server: found.serverMetadata(), at: Date.now(), updatedAt: provider.updated_at }
        this.discovered.set(provider.id, cached)
      } catch (cause) {
        throw new UnavailableError(`The sign-in provider cannot be reached (${describe(cause)}).`)
      }
    }
    const config = new openid.Configuration(cached.server, provider.client_id, metadata)
    if (insecure) openid.allowInsecureRequests(config)
    return config
  }
}

function describe (error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\s+/g, ' ').slice(0, 200)
}
