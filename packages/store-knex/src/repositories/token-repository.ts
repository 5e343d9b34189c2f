import type { ApiToken, TokenRepository } from '@helpdesk/core'
import { userColumns, userFromRow, type UserRow } from '../rows/user-row.js'
import { insertId, now, type RepositoryContext } from './repository-context.js'

const tokenColumns = ['id', 'user_id', 'name', 'created_at', 'last_used_at']

export function createTokenRepository (ctx: RepositoryContext): TokenRepository {
  const { db } = ctx
  return {
    async create (token) {
      const at = now(ctx)
      const id = await insertId(db('api_tokens').insert({ ...token, created_at: at, updated_at: at }))
      return { id, user_id: token.user_id, name: token.name, created_at: at, last_used_at: null }
    },
    async findUserByHash (tokenHash) {
      const row = await db('api_tokens')
        .join('users', 'users.id', 'api_tokens.user_id')
        .select(userColumns)
        .select({ token_id: 'api_tokens.id', token_name: 'api_tokens.name', token_created_at: 'api_tokens.created_at', token_last_used_at: 'api_tokens.last_used_at' })
        .where('api_tokens.token_hash', tokenHash)
        .first() as (UserRow & { token_id: number, token_name: string | null, token_created_at: string, token_last_used_at: string | null }) | undefined
      if (row === undefined) return null
      const token: ApiToken = {
        id: row.token_id, user_id: row.id, name: row.token_name, created_at: row.token_created_at, last_used_at: row.token_last_used_at
      }
      return { token, user: userFromRow(row) }
    },
    async listForUser (userId) {
      return await db('api_tokens').select(tokenColumns).where('user_id', userId).orderBy('id') as ApiToken[]
    },
    async deleteForUser (userId, tokenId) {
      return await db('api_tokens').where({ user_id: userId, id: tokenId }).delete() > 0
    },
    async deleteAllForUser (userId) {
      await db('api_tokens').where('user_id', userId).delete()
    }
  }
}
