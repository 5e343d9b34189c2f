import type { Knex } from 'knex'
import { apiTokenList, sessionList, type ApiToken, type SessionRecord, type StoredApiToken, type TokenLiveness, type TokenRepository } from '@helpdesk/core'
import { listPage, type ListMapping } from '../list/list-mapping.js'
import { userColumns, userFromRow, type UserRow } from '../rows/user-row.js'
import { readAuthRevision, withAuthRevisionBump } from './auth-revision.js'
import { insertId, now, type RepositoryContext } from './repository-context.js'

const tokenColumns = ['id', 'user_id', 'name', 'created_at', 'session', 'last_used_at']
const sessionColumns = ['id', 'name', 'created_at', 'last_used_at', 'user_agent', 'ip']

/** Every authenticated request's lookup: a prepared statement (the builder would cost more than the query). */
const FIND_USER_BY_HASH = `select ${userColumns.join(', ')}, api_tokens.id as token_id, api_tokens.name as token_name, ` +
  'api_tokens.created_at as token_created_at, api_tokens.session as token_session, api_tokens.last_used_at as token_last_used_at, ' +
  'auth_revision.revision as auth_revision ' +
  'from api_tokens join users on users.id = api_tokens.user_id cross join auth_revision ' +
  'where api_tokens.token_hash = ? and auth_revision.id = 1'

/** A use is written only forward: instances recording uses out of order never move it back. */
const RECORD_USE = 'update api_tokens set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)'

type TokenRow = Omit<StoredApiToken, 'session'> & { session: boolean | number }

function storedToken (row: TokenRow): StoredApiToken {
  return { id: row.id, user_id: row.user_id, name: row.name, created_at: row.created_at, session: Boolean(row.session), last_used_at: row.last_used_at }
}

const sessionMapping: ListMapping<typeof sessionList, SessionRecord, SessionRecord> = {
  spec: sessionList,
  sorts: { created_at: 'api_tokens.created_at', last_used_at: 'api_tokens.last_used_at' },
  partial: {},
  exact: {},
  includes: {},
  idColumn: 'api_tokens.id',
  map: (row) => ({ ...row })
}

const tokenMapping: ListMapping<typeof apiTokenList, TokenRow, StoredApiToken> = {
  spec: apiTokenList,
  sorts: { id: 'api_tokens.id', created_at: 'api_tokens.created_at' },
  partial: { name: 'api_tokens.name' },
  exact: {},
  includes: {},
  idColumn: 'api_tokens.id',
  map: storedToken
}

/** Tokens alive by `alive`: live sessions, and personal tokens used (else created) recently enough when they can idle out. */
function whereLiveToken (qb: Knex.QueryBuilder, alive: TokenLiveness): void {
  void qb.where((live) => {
    void live.where((session) => { whereLiveSession(session, alive) })
    void live.orWhere((personal) => {
      void personal.where('api_tokens.session', false)
      const usedAfter = alive.tokensUsedAfter
      if (usedAfter !== null) {
        void personal.andWhere((recent) => {
          void recent.where('api_tokens.last_used_at', '>', usedAfter)
            .orWhere((never) => { void never.whereNull('api_tokens.last_used_at').where('api_tokens.created_at', '>', usedAfter) })
        })
      }
    })
  })
}

/** Sessions alive by `alive`: within their lifetime and, with an idle timeout, used recently enough. */
function whereLiveSession (qb: Knex.QueryBuilder, alive: TokenLiveness): void {
  void qb.where('api_tokens.session', true).where('api_tokens.created_at', '>', alive.sessionsCreatedAfter)
  if (alive.sessionsUsedAfter !== null) void qb.where('api_tokens.last_used_at', '>', alive.sessionsUsedAfter)
}

/** Tokens not alive by `alive`: sessions past their lifetime or idle, personal tokens idle (when they can be). */
function whereExpired (qb: Knex.QueryBuilder, alive: TokenLiveness): void {
  void qb.where((expired) => {
    void expired.where((session) => {
      void session.where('session', true).andWhere((ended) => {
        void ended.where('created_at', '<=', alive.sessionsCreatedAfter)
        if (alive.sessionsUsedAfter !== null) void ended.orWhere('last_used_at', '<=', alive.sessionsUsedAfter)
      })
    })
    const tokensUsedAfter = alive.tokensUsedAfter
    if (tokensUsedAfter !== null) {
      void expired.orWhere((personal) => {
        void personal.where('session', false).andWhere((idle) => {
          void idle.where('last_used_at', '<=', tokensUsedAfter).orWhere((never) => { void never.whereNull('last_used_at').where('created_at', '<=', tokensUsedAfter) })
        })
      })
    }
  })
}

export function createTokenRepository (ctx: RepositoryContext): TokenRepository {
  const { db } = ctx
  const insert = async (trx: Knex, token: Parameters<TokenRepository['create']>[0]): Promise<ApiToken> => {
    const at = now(ctx)
    const session = token.session === true
    const row = {
      user_id: token.user_id,
      name: token.name,
      token_hash: token.token_hash,
      session,
      user_agent: session ? token.user_agent ?? null : null,
      ip: session ? token.ip ?? null : null,
      last_used_at: at,
      created_at: at,
      updated_at: at
    }
    const id = await insertId(trx('api_tokens').insert(row))
    return { id, user_id: token.user_id, name: token.name, created_at: at }
  }
  return {
    async create (token) {
      return await insert(db, token)
    },
    async createCapped (token, { max }) {
      return await db.transaction(async (trx) => {
        // A write to the user's row locks it (PostgreSQL; SQLite writes one at a time anyway).
        await trx('users').where('id', token.user_id).update({ updated_at: trx.ref('updated_at') })
        const [row] = await trx('api_tokens').where({ user_id: token.user_id, session: false }).count({ count: '*' })
        if (Number(row?.count ?? 0) >= max) return null
        return await insert(trx, { ...token, session: false })
      })
    },
    async pruneSessions (userId, keep) {
      const stale = await db('api_tokens').select('id').where({ user_id: userId, session: true }).orderBy('id', 'desc').offset(keep) as Array<{ id: number }>
      if (stale.length === 0) return 0
      return await withAuthRevisionBump(db, ctx.dialect, async (trx) => await trx('api_tokens').whereIn('id', stale.map((r) => r.id)).delete())
    },
    async findUserByHash (tokenHash) {
      const [row] = await ctx.dialect.run<UserRow & {
        token_id: number, token_name: string | null, token_created_at: string, token_session: boolean | number,
        token_last_used_at: string | null, auth_revision: number | string
      }>(db, FIND_USER_BY_HASH, [tokenHash])
      if (row === undefined) return null
      const token: StoredApiToken = {
        id: row.token_id,
        user_id: row.id,
        name: row.token_name,
        created_at: row.token_created_at,
        session: Boolean(row.token_session),
        last_used_at: row.token_last_used_at
      }
      return { token, user: userFromRow(row), authRevision: Number(row.auth_revision) }
    },
    async recordUse (tokenId, at) {
      await ctx.dialect.run(db, RECORD_USE, [at, tokenId, at])
    },
    async listForUser (userId) {
      return (await db('api_tokens').select(tokenColumns).where('user_id', userId).orderBy('id') as TokenRow[]).map(storedToken)
    },
    async listSessions (userId, alive, query) {
      const base = db('api_tokens').select(sessionColumns.map((c) => `api_tokens.${c}`)).where('api_tokens.user_id', userId)
      whereLiveSession(base, alive)
      return await listPage(db, ctx.dialect, base, sessionMapping, query)
    },
    async pageForUser (userId, alive, query) {
      const base = db('api_tokens').select(tokenColumns.map((c) => `api_tokens.${c}`)).where('api_tokens.user_id', userId)
      whereLiveToken(base, alive)
      return await listPage(db, ctx.dialect, base, tokenMapping, query)
    },
    async deleteForUser (userId, tokenId) {
      return await withAuthRevisionBump(db, ctx.dialect, async (trx) => await trx('api_tokens').where({ user_id: userId, id: tokenId }).delete() > 0)
    },
    async deleteSessionForUser (userId, tokenId) {
      return await withAuthRevisionBump(db, ctx.dialect, async (trx) => await trx('api_tokens').where({ user_id: userId, id: tokenId, session: true }).delete() > 0)
    },
    async deleteSessionsForUser (userId, exceptId) {
      return await withAuthRevisionBump(db, ctx.dialect, async (trx) => {
        const qb = trx('api_tokens').where({ user_id: userId, session: true })
        if (exceptId !== null) void qb.whereNot('id', exceptId)
        return await qb.delete()
      })
    },
    async deleteAllForUser (userId) {
      await withAuthRevisionBump(db, ctx.dialect, async (trx) => await trx('api_tokens').where('user_id', userId).delete())
    },
    async deleteExpired (alive, limit) {
      const expired = db('api_tokens').select('id')
      whereExpired(expired, alive)
      const ids = (await expired.orderBy('id').limit(limit) as Array<{ id: number }>).map((r) => r.id)
      if (ids.length === 0) return 0
      const gone = db('api_tokens').whereIn('id', ids)
      whereExpired(gone, alive)
      return await gone.delete()
    },
    async revision () {
      return await readAuthRevision(db, ctx.dialect)
    }
  }
}
