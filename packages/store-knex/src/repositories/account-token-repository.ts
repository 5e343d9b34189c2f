import type { AccountTokenRecord, AccountTokenRepository } from '@helpdesk/core'
import { now, type RepositoryContext } from './repository-context.js'

const columns = ['id', 'user_id', 'purpose', 'attempts', 'expires_at']

export function createAccountTokenRepository (ctx: RepositoryContext): AccountTokenRepository {
  const { db } = ctx
  return {
    async create (token) {
      await db.transaction(async (trx) => {
        await trx('account_tokens').where({ user_id: token.user_id, purpose: token.purpose }).delete()
        await trx('account_tokens').insert({ ...token, attempts: 0, created_at: now(ctx) })
      })
    },
    async find (purpose, tokenHash, at) {
      const row = await db('account_tokens').select(columns).where({ purpose, token_hash: tokenHash }).where('expires_at', '>', at).first() as AccountTokenRecord | undefined
      return row ?? null
    },
    async consume (purpose, tokenHash, at) {
      const row = await db('account_tokens').select('id', 'user_id').where({ purpose, token_hash: tokenHash }).where('expires_at', '>', at).first() as { id: number, user_id: number } | undefined
      if (row === undefined) return null
      // The delete is the use: of concurrent callers, the one whose delete removed the row wins.
      const deleted = await db('account_tokens').where({ id: row.id, purpose }).where('expires_at', '>', at).delete()
      return deleted === 1 ? row.user_id : null
    },
    async recordAttempt (id, max) {
      await db('account_tokens').where('id', id).increment('attempts', 1)
      const gone = await db('account_tokens').where('id', id).where('attempts', '>=', max).delete()
      return gone === 0
    },
    async deleteForUser (userId, purposes) {
      const qb = db('account_tokens').where('user_id', userId)
      if (purposes !== undefined) void qb.whereIn('purpose', purposes)
      await qb.delete()
    },
    async deleteExpired (at, limit) {
      const ids = (await db('account_tokens').select('id').where('expires_at', '<=', at).orderBy('id').limit(limit) as Array<{ id: number }>).map((r) => r.id)
      if (ids.length === 0) return 0
      return await db('account_tokens').whereIn('id', ids).delete()
    }
  }
}
