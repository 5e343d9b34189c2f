import type { EventLogRepository, LoggedEvent } from '@helpdesk/core'
import { parseJson } from '../rows/row-values.js'
import { insertRows, now, type RepositoryContext } from './repository-context.js'

interface EventLogRow {
  id: number | string
  type: string
  actor_id: number | null
  ticket_id: number | null
  payload: string
  created_at: string
}

const columns = ['id', 'type', 'actor_id', 'ticket_id', 'payload', 'created_at']

function eventFromRow (row: EventLogRow): LoggedEvent {
  return {
    id: Number(row.id),
    type: row.type,
    actor_id: row.actor_id,
    ticket_id: row.ticket_id,
    payload: parseJson<Record<string, unknown>>(row.payload, {}),
    created_at: row.created_at
  }
}

export function createEventLogRepository (ctx: RepositoryContext): EventLogRepository {
  const { db } = ctx
  return {
    async append (events) {
      if (events.length === 0) return []
      const at = now(ctx)
      return await insertRows(ctx, 'event_log', events.map((event) => ({
        type: event.type, actor_id: event.actor_id, ticket_id: event.ticket_id, payload: JSON.stringify(event.payload), created_at: at
      })), true)
    },
    async after (afterId, limit) {
      const rows = await db('event_log').select(columns).where('id', '>', afterId).orderBy('id').limit(limit) as EventLogRow[]
      return rows.map(eventFromRow)
    },
    async findByIds (ids) {
      if (ids.length === 0) return []
      const rows = await db('event_log').select(columns).whereIn('id', ids).orderBy('id') as EventLogRow[]
      return rows.map(eventFromRow)
    },
    async latestId () {
      const row = await db('event_log').max({ id: 'id' }).first() as { id: number | string | null } | undefined
      return Number(row?.id ?? 0)
    },
    async deleteBefore (before, limit) {
      return await db('event_log')
        .whereIn('id', db('event_log').select('id').where('created_at', '<', before).orderBy('id').limit(limit))
        .delete()
    }
  }
}
