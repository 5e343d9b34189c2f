import type { ListQuery, Page } from '../../list/list-query.js'
import type { DateTimeString } from '../../time.js'
import type { SsoProviderInput, StoredSsoProvider } from './sso-provider.js'

/** The identity a person signs in with at a provider: its `sub`, never matched by email again once linked. */
export interface SsoIdentity {
  id: number
  provider_id: number
  sub: string
  user_id: number
  email: string | null
}

/** A sign-in under way: what the callback checks (state by digest, nonce, PKCE verifier). */
export interface SsoFlow {
  provider_id: number
  nonce: string
  code_verifier: string
  return_to: string | null
}

/** A session started through single sign-on, with what its re-check needs. */
export interface SsoSessionRecord {
  token_id: number
  user_id: number
  provider_id: number
  sub: string
  /** The sign-in's refresh token, sealed; null when the provider issued none (then it is not re-checked). */
  refresh_token: string | null
  checked_at: DateTimeString
}

/** Storage port of single sign-on (part of `Store`, same conventions). */
export interface SsoRepository {
  listProviders(): Promise<StoredSsoProvider[]>
  /** A page of providers by `ssoProviderList`. */
  pageProviders(query: ListQuery): Promise<Page<StoredSsoProvider>>
  findProvider(ref: { id: number } | { slug: string }): Promise<StoredSsoProvider | null>
  /** 422 on `slug` when taken. `client_secret` already sealed. */
  createProvider(input: Required<Omit<SsoProviderInput, 'mapping'>> & { mapping: StoredSsoProvider['mapping'] }): Promise<StoredSsoProvider>
  updateProvider(id: number, patch: Omit<SsoProviderInput, 'mapping'> & { mapping?: StoredSsoProvider['mapping'] }): Promise<StoredSsoProvider | null>
  /** Deletes the provider, its identities and flows; its sessions end (the auth revision moves). */
  deleteProvider(id: number): Promise<boolean>
  findIdentity(providerId: number, sub: string): Promise<SsoIdentity | null>
  /** 422 on `sub` when the provider's `sub` is linked already (a concurrent first sign-in). */
  createIdentity(identity: Omit<SsoIdentity, 'id'>): Promise<SsoIdentity>
  touchIdentity(id: number, email: string | null): Promise<void>
  createFlow(stateHash: string, flow: SsoFlow, expiresAt: DateTimeString): Promise<void>
  /** Uses the flow up (one caller wins); null when unknown, used or expired at `now`. */
  consumeFlow(stateHash: string, now: DateTimeString): Promise<SsoFlow | null>
  /** Records that session `tokenId` came from `identityId`, checked at `at`. */
  linkSession(tokenId: number, identityId: number, refreshToken: string | null, at: DateTimeString): Promise<void>
  findSession(tokenId: number): Promise<SsoSessionRecord | null>
  /**
   * Claims the re-check of a session: moves `checked_at` from `seen` to `at` (one conditional
   * update: of several instances, one re-checks). True for the one that did.
   */
  claimCheck(tokenId: number, seen: DateTimeString, at: DateTimeString): Promise<boolean>
  setRefreshToken(tokenId: number, refreshToken: string): Promise<void>
}
