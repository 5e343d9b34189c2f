import { ValidationError, type FieldErrors } from '../../errors.js'
import { defineList } from '../../list/list-spec.js'
import type { DateTimeString } from '../../time.js'
import { PERMISSION_KEYS, type PermissionKey } from '../../users/user.js'

/**
 * How a provider's claims become a person's role, permissions and categories. `claim` names a
 * claim of the ID token or userinfo (a string or a list of strings, e.g. `groups` or `roles`);
 * a person with one of `admin`'s values is an administrator, else with one of `agent`'s an agent,
 * else a customer (when the provider signs customers in). `permissions` and `categories` give
 * agents the permission keys and category ids of each value they hold. Applied at every
 * sign-in when `claim` is set: the provider is the source of truth for its people.
 */
export interface SsoMapping {
  claim: string | null
  admin: string[]
  agent: string[]
  permissions: Partial<Record<PermissionKey, string[]>>
  categories: Record<string, number[]>
}

/** An OpenID Connect provider as administrators see it: the client secret is write-only. */
export interface SsoProvider {
  id: number
  /** In the sign-in URLs: `/auth/sso/<slug>/start`. */
  slug: string
  /** On the sign-in button. */
  name: string
  /** The issuer URL; its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: string
  client_id: string
  /** Whether a client secret is stored (it is never shown). */
  has_client_secret: boolean
  /** Space-separated; `openid` is always asked for. */
  scopes: string
  enabled: boolean
  /** Whether staff may sign in through it. */
  staff: boolean
  /** Whether customers may sign in through it. */
  customers: boolean
  /** The first sign-in of someone unknown creates them (role from `mapping`). */
  create_users: boolean
  /** The first sign-in of someone unknown links to the person with that address, when the provider says it verified it. */
  link_by_email: boolean
  mapping: SsoMapping
  created_at: DateTimeString
  updated_at: DateTimeString
}

/** The providers (`GET /sso/providers`, administrators): paged like every list. */
export const ssoProviderList = defineList({
  resource: 'single-sign-on providers',
  includes: [],
  sorts: ['id', 'name', 'slug'],
  defaultSort: 'id',
  keyTypes: { id: 'int', name: 'string', slug: 'string' },
  partialFilters: ['name', 'slug'],
  /** `enabled`: 1 or 0. */
  exactFilters: ['enabled']
})

/** A provider as stored: the secret sealed. */
export interface StoredSsoProvider extends Omit<SsoProvider, 'has_client_secret'> {
  client_secret: string | null
}

export interface SsoProviderInput {
  slug?: string | undefined
  name?: string | undefined
  issuer?: string | undefined
  client_id?: string | undefined
  /** Write-only; null removes it (a public client with PKCE only). */
  client_secret?: string | null | undefined
  scopes?: string | undefined
  enabled?: boolean | undefined
  staff?: boolean | undefined
  customers?: boolean | undefined
  create_users?: boolean | undefined
  link_by_email?: boolean | undefined
  mapping?: Partial<SsoMapping> | undefined
}

export const EMPTY_MAPPING: SsoMapping = { claim: null, admin: [], agent: [], permissions: {}, categories: {} }

/** Checks an input (all of it for a new provider); 422 keyed by field. */
export function checkProviderInput (input: SsoProviderInput, creating: boolean): void {
  const errors: FieldErrors = {}
  const required = ['slug', 'name', 'issuer', 'client_id'] as const
  if (creating) for (const key of required) if (input[key] === undefined) errors[key] = [`The ${key.replace('_', ' ')} is required.`]
  if (input.slug !== undefined && !/^[a-z0-9][a-z0-9-]{0,49}$/.test(input.slug)) errors.slug = ['Lowercase letters, digits and dashes, at most 50.']
  if (input.name !== undefined && (input.name.trim() === '' || input.name.length > 100)) errors.name = ['Between 1 and 100 characters.']
  if (input.issuer !== undefined) {
    let url: URL | null = null
    try { url = new URL(input.issuer) } catch { url = null }
    if (url === null || !(url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))) || input.issuer.length > 500) {
      errors.issuer = ['An https URL (http only on loopback, for tests).']
    }
  }
  if (input.client_id !== undefined && (input.client_id === '' || input.client_id.length > 255)) errors.client_id = ['Between 1 and 255 characters.']
  if (input.client_secret !== undefined && input.client_secret !== null && (input.client_secret === '' || input.client_secret.length > 1000)) {
    errors.client_secret = ['Between 1 and 1000 characters, or null for none.']
  }
  if (input.scopes !== undefined && (input.scopes.length > 500 || !/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(input.scopes))) errors.scopes = ['Space-separated scope names.']
  const mapping = input.mapping
  if (mapping !== undefined) {
    if (mapping.claim !== undefined && mapping.claim !== null && (mapping.claim === '' || mapping.claim.length > 100)) errors['mapping.claim'] = ['A claim name, or null.']
    for (const key of Object.keys(mapping.permissions ?? {})) {
      if (!(PERMISSION_KEYS as readonly string[]).includes(key)) errors[`mapping.permissions.${key}`] = ['Unknown permission.']
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}

/** The values a claim holds: a string, or the strings of a list. */
export function claimValues (claims: Record<string, unknown>, name: string | null): string[] {
  if (name === null) return []
  const value = claims[name]
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}
