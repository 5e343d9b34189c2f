import { ssoProviderList, type SsoFlow, type SsoIdentity, type SsoRepository, type SsoSessionRecord, type StoredSsoProvider } from '@helpdesk/core'
import { caseInsensitive, listPage, type ListMapping } from '../list/list-mapping.js'
import { bool, parseJson } from '../rows/row-values.js'
import { withAuthRevisionBump } from './auth-revision.js'
import { insertId, now, type RepositoryContext } from './repository-context.js'

const providerColumns = ['id', 'slug', 'name', 'issuer', 'client_id', 'client_secret', 'scopes', 'enabled', 'staff', 'customers', 'create_users',
  'link_by_email', 'mapping', 'created_at', 'updated_at']

type ProviderRow = Omit<StoredSsoProvider, 'enabled' | 'staff' | 'customers' | 'create_users' | 'link_by_email' | 'mapping'> & {
  enabled: unknown, staff: unknown, customers: unknown, create_users: unknown, link_by_email: unknown, mapping: string
}

function providerFromRow (row: ProviderRow): StoredSsoProvider {
  return {
    ...row,
    enabled: bool(row.enabled),
    staff: bool(row.staff),
    customers: bool(row.customers),
    create_users: bool(row.create_users),
    link_by_email: bool(row.link_by_email),
    mapping: parseJson(row.mapping, { claim: null, admin: [], agent: [], permissions: {}, categories: {} })
  }
}

const providerMapping: ListMapping<typeof ssoProviderList, ProviderRow, StoredSsoProvider> = {
  spec: ssoProviderList,
  sorts: { id: 'sso_providers.id', name: caseInsensitive('sso_providers.name'), slug: 'sso_providers.slug' },
  partial: { name: 'sso_providers.name', slug: 'sso_providers.slug' },
  exact: { enabled: { column: 'sso_providers.enabled', type: 'bool' } },
  includes: {},
  idColumn: 'sso_providers.id',
  map: providerFromRow
}

export function createSsoRepository (ctx: RepositoryContext): SsoRepository {
  const { db } = ctx
  const findProvider: SsoRepository['findProvider'] = async (ref) => {
    const row = await db('sso_providers').select(providerColumns).where('id' in ref ? { id: ref.id } : { slug: ref.slug }).first() as ProviderRow | undefined
    return row === undefined ? null : providerFromRow(row)
  }
  return {
    async listProviders () {
      return (await db('sso_providers').select(providerColumns).orderBy('id') as ProviderRow[]).map(providerFromRow)
    },
    async pageProviders (query) {
      return await listPage(db, ctx.dialect, db('sso_providers').select(providerColumns.map((c) => `sso_providers.${c}`)), providerMapping, query)
    },
    findProvider,
    async createProvider (input) {
      const at = now(ctx)
      const id = await insertId(db('sso_providers').insert({ ...input, mapping: JSON.stringify(input.mapping), created_at: at, updated_at: at }))
      const created = await findProvider({ id })
      if (created === null) throw new Error('the provider was not stored')
      return created
    },
    async updateProvider (id, patch) {
      const { mapping, ...rest } = patch
      const row: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined))
      if (mapping !== undefined) row.mapping = JSON.stringify(mapping)
      const updated = await db('sso_providers').where('id', id).update({ ...row, updated_at: now(ctx) })
      return updated === 0 ? null : await findProvider({ id })
    },
    async deleteProvider (id) {
      return await withAuthRevisionBump(db, ctx.dialect, async (trx) => {
        const tokens = trx('sso_sessions').select('token_id').whereIn('identity_id', trx('sso_identities').select('id').where('provider_id', id))
        await trx('api_tokens').whereIn('id', tokens).delete()
        return await trx('sso_providers').where('id', id).delete() > 0
      })
    },
    async findIdentity (providerId, sub) {
      const row = await db('sso_identities').select('id', 'provider_id', 'sub', 'user_id', 'email').where({ provider_id: providerId, sub }).first() as SsoIdentity | undefined
      return row ?? null
    },
    async createIdentity (identity) {
      const at = now(ctx)
      const id = await insertId(db('sso_identities').insert({ ...identity, created_at: at, last_sign_in_at: at }))
      return { id, ...identity }
    },
    async touchIdentity (id, email) {
      await db('sso_identities').where('id', id).update({ email, last_sign_in_at: now(ctx) })
    },
    async createFlow (stateHash, flow, expiresAt) {
      await db('sso_flows').where('expires_at', '<=', now(ctx)).delete()
      await db('sso_flows').insert({ state_hash: stateHash, ...flow, expires_at: expiresAt })
    },
    async consumeFlow (stateHash, at) {
      const row = await db('sso_flows').select('provider_id', 'nonce', 'code_verifier', 'return_to').where('state_hash', stateHash).where('expires_at', '>', at).first() as SsoFlow | undefined
      if (row === undefined) return null
      const deleted = await db('sso_flows').where('state_hash', stateHash).delete()
      return deleted === 1 ? row : null
    },
    async linkSession (tokenId, identityId, refreshToken, at) {
      await db('sso_sessions').insert({ token_id: tokenId, identity_id: identityId, refresh_token: refreshToken, checked_at: at })
    },
    async findSession (tokenId) {
      const row = await db('sso_sessions')
        .join('sso_identities', 'sso_identities.id', 'sso_sessions.identity_id')
        .select('sso_sessions.token_id', 'sso_identities.user_id', 'sso_identities.provider_id', 'sso_identities.sub', 'sso_sessions.refresh_token', 'sso_sessions.checked_at')
        .where('sso_sessions.token_id', tokenId).first() as SsoSessionRecord | undefined
      return row ?? null
    },
    async claimCheck (tokenId, seen, at) {
      return await db('sso_sessions').where({ token_id: tokenId, checked_at: seen }).update({ checked_at: at }) === 1
    },
    async setRefreshToken (tokenId, refreshToken) {
      await db('sso_sessions').where('token_id', tokenId).update({ refresh_token: refreshToken })
    }
  }
}
