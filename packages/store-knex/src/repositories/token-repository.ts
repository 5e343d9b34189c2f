import type { ApiToken, TokenRepository } from '@helpdesk/core'
import { userColumns, userFromRow, type UserRow } from '../rows/user-row.js'
import { readAuthRevision, withAuthRevisionBump } from './auth-revision.js'
import { insertId, now, type RepositoryContext } from './repository-context.js'

/** `api_tokens.last_used_at` (migration 0001) is never written and not part of the API. */
const tokenColumns = ['id', 'user_id', 'name', 'created_at']

/** Every authenticated request's lookup: a prepared statement (the builder would cost more than the query). */
const FIND_USER_BY_HASH = `select ${userColumns.join(', ')}, api_tokens.id as token_id, api_tokens.name as token_name, ` +
  'api_tokens.created_at as token_created_at, auth_revision.revision as auth_revision ' +
  'from api_tokens join users on users.id = api_tokens.user_id cross join auth_revision ' +
  'where api_tokens.token_hash = ? and auth_revision.id = 1'

export function createTokenRepository (ctx: RepositoryContext): TokenRepository {
  const { db } = ctx
  return {
    async create (token) {
      const at = now(ctx)
      const id = await insertId(db('api_tokens').insert({ ...token, created_at: at, updated_at: at }))
      return { id, user_id: token.user_id, name: token.name, created_at: at }
    },
    async createCapped (token, { max, except }) {
      return await db.transaction(async (trx) => {
        // A write to the user's row locks it (PostgreSQL; SQLite writes one at a time anyway).
        await trx('users').where('id', token.user_id).update({ updated_at: trx.ref('updated_at') })
        const [row] = await trx('api_tokens').where('user_id', token.user_id)
          .andWhere((q) => { void q.whereNull('name').orWhereNot('name', except) }).count({ count: '*' })
        if (Number(row?.count ?? 0) >= max) return null
        const at = now(ctx)
        const id = await insertId(trx('api_tokens').insert({ ...token, created_at: at, updated_at: at }))
        return { id, user_id: token.user_id, name: token.name, created_at: at }
      })
    },
    async pruneNamed (userId, name, keep) {
      const stale = await db('api_tokens').select('id').where({ user_id: userId, name }).orderBy('id', 'desc').offset(keep) as Array<{ id: number }>
      if (stale.length === 0) return 0
      return await withAuthRevisionBump(db, ctx.dialect, async (trx) => await trx('api_tokens').whereIn('id', stale.map((r) => r.id)).delete())
    },
    async findUserByHash (tokenHash) {
      const [row] = await ctx.dialect.run<UserRow & {
        token_id: number, token_name: string | null, token_created_at: string, auth_revision: number | string
      }>(db, FIND_USER_BY_HASH, [tokenHash])
      if (row === undefined) return null
      const token: ApiToken = {
        id: row.token_id, user_id: row.id, name: row.token_name, created_at: row.token_created_at
      }
      return { token, user: userFromRow(row), authRevision: Number(row.auth_revision) }
    },
    async listForUser (userId) {
      return await db('api_tokens').select(tokenColumns).where('user_id', userId).orderBy('id') as ApiToken[]
    },
    async deleteForUser (userId, tokenId) {
      return await withAuthRevisionBump(db, ctx.dialect, async (trx) => await trx('api_tokens').where({ user_id: userId, id: tokenId }).delete() > 0)
    },
    async deleteAllForUser (userId) {
      await withAuthRevisionBump(db, ctx.dialect, async (trx) => await trx('api_tokens').where('user_id', userId).delete())
    },
    async revision () {
      return await readAuthRevision(db, ctx.dialect)
    }
  }
}
