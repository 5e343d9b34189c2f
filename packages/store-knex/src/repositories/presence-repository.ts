import type { Knex } from 'knex'
import { isPresenceState, type PresenceEntry, type PresenceRepository, type PresenceState, type RoleNumber } from '@helpdesk/core'
import type { RepositoryContext } from './repository-context.js'

interface LiveRow {
  ticket_id: number
  typing: number | string
  since: string
  expires_at: string
  user_id: number
  role: RoleNumber
  first_name: string
  last_name: string
  email: string
}

interface TabRow { client_id: string, state: string, since: string, expires_at: string }

/** What others see of one person from their tabs' rows: nothing, or their summed state and the stay's start. */
function seen (rows: TabRow[], now: string): { state: PresenceState, since: string } | null {
  const live = rows.filter((row) => row.expires_at > now && isPresenceState(row.state))
  if (live.length === 0) return null
  return {
    state: live.some((row) => row.state === 'typing') ? 'typing' : 'viewing',
    since: live.map((row) => row.since).sort()[0]!
  }
}

/**
 * `ticket_presence` (migrations 0040, 0048): heartbeats upsert one row per
 * (ticket, user, client_id), that is per browser tab; reads sum a person's
 * live tabs into one entry. A change others should see is announced through
 * `announce` (the notifier's presence channel), never written to the event
 * log.
 */
export function createPresenceRepository (ctx: RepositoryContext, announce: (ticketIds: number[]) => Promise<void>): PresenceRepository {
  const { db, dialect } = ctx
  const tabsOf = async (ticketId: number, userId: number): Promise<TabRow[]> =>
    await db('ticket_presence').select('client_id', 'state', 'since', 'expires_at').where({ ticket_id: ticketId, user_id: userId }) as TabRow[]
  return {
    async upsert (entry, now) {
      // Most beats change nothing others see: one statement extends the tab's live row in the same state.
      const key = { ticket_id: entry.ticket_id, user_id: entry.user_id, client_id: entry.client_id }
      const extended = await db('ticket_presence').where({ ...key, state: entry.state }).where('expires_at', '>', now).update({ expires_at: entry.expires_at })
      if (extended > 0) return { changed: false }
      const tabs = await tabsOf(entry.ticket_id, entry.user_id)
      const before = seen(tabs, now)
      // A tab joining a stay under way (another tab, or this one before) keeps its start; otherwise a new stay starts.
      const since = before?.since ?? now
      await db('ticket_presence')
        .insert({ ...entry, since })
        .onConflict(['ticket_id', 'user_id', 'client_id'])
        .merge({ state: entry.state, expires_at: entry.expires_at, since })
      const after = seen([...tabs.filter((tab) => tab.client_id !== entry.client_id), { ...entry, since }], now)
      const changed = before === null || before.state !== after?.state
      if (changed) await announce([entry.ticket_id])
      return { changed }
    },
    async remove (ticketId, userId, clientId, now) {
      const tabs = await tabsOf(ticketId, userId)
      if (!tabs.some((tab) => tab.client_id === clientId)) return false
      const deleted = await db('ticket_presence').where({ ticket_id: ticketId, user_id: userId, client_id: clientId }).delete()
      const before = seen(tabs, now)
      const after = seen(tabs.filter((tab) => tab.client_id !== clientId), now)
      if (deleted > 0 && before !== null && before.state !== after?.state) await announce([ticketId])
      return deleted > 0
    },
    async liveOf (ticketIds, now) {
      if (ticketIds.length === 0) return []
      const ids = dialect.inIds('p.ticket_id', ticketIds)
      // One entry per (ticket, person): typing when any live tab is, the earliest start, the latest expiry.
      const rows = await dialect.run<LiveRow>(db,
        'select a.ticket_id, a.typing, a.since, a.expires_at, u.id as user_id, u.role, u.first_name, u.last_name, u.email from (' +
        'select p.ticket_id, p.user_id, max(case when p.state = \'typing\' then 1 else 0 end) as typing, min(p.since) as since, max(p.expires_at) as expires_at ' +
        `from ticket_presence p where ${ids.sql} and p.expires_at > ? and p.state in ('viewing', 'typing') group by p.ticket_id, p.user_id` +
        ') a join users u on u.id = a.user_id order by a.since, u.id',
        [...ids.bindings, now])
      return rows.map((row): PresenceEntry => ({
        ticket_id: Number(row.ticket_id),
        user: { id: Number(row.user_id), role: row.role, first_name: row.first_name, last_name: row.last_name, email: row.email },
        state: Number(row.typing) === 1 ? 'typing' : 'viewing',
        since: row.since,
        expires_at: row.expires_at
      }))
    },
    async ticketFacts (ticketIds) {
      if (ticketIds.length === 0) return []
      const rows = await db('tickets').select('id', 'user_id', 'private', 'category_id', 'assigned_agent_id').whereIn('id', ticketIds) as Array<{ id: number, user_id: number, private: boolean | number, category_id: number, assigned_agent_id: number | null }>
      return rows.map((row) => ({ ...row, private: row.private === true || row.private === 1 }))
    },
    async deleteExpired (before, limit) {
      const doomed = db('ticket_presence').select('ticket_id', 'user_id', 'client_id').where('expires_at', '<', before).limit(limit)
      return await db('ticket_presence')
        .whereIn(['ticket_id', 'user_id', 'client_id'], doomed as unknown as Knex.QueryBuilder)
        .delete()
    }
  }
}
