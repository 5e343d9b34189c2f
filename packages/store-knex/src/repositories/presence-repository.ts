import type { Knex } from 'knex'
import { isPresenceState, type PresenceEntry, type PresenceRepository, type RoleNumber } from '@helpdesk/core'
import type { RepositoryContext } from './repository-context.js'

interface LiveRow {
  ticket_id: number
  state: string
  since: string
  expires_at: string
  user_id: number
  role: RoleNumber
  first_name: string
  last_name: string
  email: string
}

/**
 * `ticket_presence` (migration 0040): heartbeats upsert one row per (ticket,
 * user); a change others should see is announced through `announce` (the
 * notifier's presence channel), never written to the event log.
 */
export function createPresenceRepository (ctx: RepositoryContext, announce: (ticketIds: number[]) => Promise<void>): PresenceRepository {
  const { db, dialect } = ctx
  return {
    async upsert (entry, now) {
      // Most beats change nothing others see: one statement extends a live row in the same state.
      const where = { ticket_id: entry.ticket_id, user_id: entry.user_id, state: entry.state }
      const extended = await db('ticket_presence').where(where).where('expires_at', '>', now).update({ expires_at: entry.expires_at })
      if (extended > 0) return { changed: false }
      const before = await db('ticket_presence').select('state', 'expires_at')
        .where({ ticket_id: entry.ticket_id, user_id: entry.user_id }).first() as { state: string, expires_at: string } | undefined
      const live = before !== undefined && before.expires_at > now
      await db('ticket_presence')
        .insert({ ...entry, since: now })
        .onConflict(['ticket_id', 'user_id'])
        .merge({
          state: entry.state,
          expires_at: entry.expires_at,
          // A new stay starts when the last one had expired.
          since: live ? db.raw('??', ['ticket_presence.since']) : now
        })
      const changed = !live || before.state !== entry.state
      if (changed) await announce([entry.ticket_id])
      return { changed }
    },
    async remove (ticketId, userId, now) {
      const where = { ticket_id: ticketId, user_id: userId }
      const row = await db('ticket_presence').select('expires_at').where(where).first() as { expires_at: string } | undefined
      if (row === undefined) return false
      const deleted = await db('ticket_presence').where(where).delete()
      if (deleted > 0 && row.expires_at > now) await announce([ticketId])
      return deleted > 0
    },
    async liveOf (ticketIds, now) {
      if (ticketIds.length === 0) return []
      const ids = dialect.inIds('p.ticket_id', ticketIds)
      const rows = await dialect.run<LiveRow>(db,
        'select p.ticket_id, p.state, p.since, p.expires_at, u.id as user_id, u.role, u.first_name, u.last_name, u.email ' +
        `from ticket_presence p join users u on u.id = p.user_id where ${ids.sql} and p.expires_at > ? order by p.since, u.id`,
        [...ids.bindings, now])
      return rows.flatMap((row): PresenceEntry[] => isPresenceState(row.state)
        ? [{
            ticket_id: Number(row.ticket_id),
            user: { id: Number(row.user_id), role: row.role, first_name: row.first_name, last_name: row.last_name, email: row.email },
            state: row.state,
            since: row.since,
            expires_at: row.expires_at
          }]
        : [])
    },
    async ticketFacts (ticketIds) {
      if (ticketIds.length === 0) return []
      const rows = await db('tickets').select('id', 'user_id', 'private', 'category_id', 'assigned_agent_id').whereIn('id', ticketIds) as Array<{ id: number, user_id: number, private: boolean | number, category_id: number, assigned_agent_id: number | null }>
      return rows.map((row) => ({ ...row, private: row.private === true || row.private === 1 }))
    },
    async deleteExpired (before, limit) {
      const doomed = db('ticket_presence').select('ticket_id', 'user_id').where('expires_at', '<', before).limit(limit)
      return await db('ticket_presence')
        .whereIn(['ticket_id', 'user_id'], doomed as unknown as Knex.QueryBuilder)
        .delete()
    }
  }
}
