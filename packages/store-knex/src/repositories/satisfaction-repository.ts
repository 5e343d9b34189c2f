import {
  canSeeSatisfaction, isSatisfactionValue,
  type Channel, type SatisfactionRepository, type Ticket, type TicketResolution, type TicketScope, type WithIncludes
} from '@helpdesk/core'
import type { IncludeLoader } from '../list/list-mapping.js'
import { now, type RepositoryContext } from './repository-context.js'

const TABLE = 'ticket_resolutions'
const COLUMNS = [
  'ticket_id', 'resolution', 'closed_at', 'closed_by', 'agent_id', 'category_id',
  'rating', 'comment', 'customer_id', 'channel', 'rated_at', 'rating_updated_at'
] as const

interface ResolutionRow {
  ticket_id: number | string
  resolution: number | string
  closed_at: string
  closed_by: number | string | null
  agent_id: number | string | null
  category_id: number | string | null
  rating: string | null
  comment: string | null
  customer_id: number | string | null
  channel: string | null
  rated_at: string | null
  rating_updated_at: string | null
}

const id = (value: number | string | null): number | null => value === null ? null : Number(value)

function resolutionFromRow (row: ResolutionRow): TicketResolution {
  return {
    ticket_id: Number(row.ticket_id),
    resolution: Number(row.resolution),
    closed_at: row.closed_at,
    closed_by: id(row.closed_by),
    agent_id: id(row.agent_id),
    category_id: id(row.category_id),
    rating: isSatisfactionValue(row.rating) ? row.rating : null,
    comment: row.comment,
    customer_id: id(row.customer_id),
    channel: row.channel as Channel | null,
    rated_at: row.rated_at,
    rating_updated_at: row.rating_updated_at
  }
}

const SELECTED = COLUMNS.map((column) => `${TABLE}.${column}`).join(', ')

export function createSatisfactionRepository (ctx: RepositoryContext): SatisfactionRepository {
  const { db, dialect } = ctx
  const one = async (ticketId: number, resolution: number): Promise<TicketResolution | null> => {
    const row = await db(TABLE).select(COLUMNS).where({ ticket_id: ticketId, resolution }).first() as ResolutionRow | undefined
    return row === undefined ? null : resolutionFromRow(row)
  }
  return {
    async addResolution (resolution) {
      // The next number in the statement itself: the closing's transaction holds the ticket's row, so closings of one ticket queue here.
      const [row] = await dialect.run<ResolutionRow>(db,
        `insert into ${TABLE} (ticket_id, resolution, closed_at, closed_by, agent_id, category_id) ` +
        `select ?, coalesce(max(resolution), 0) + 1, ?, ?, ?, ? from ${TABLE} where ticket_id = ? returning ${COLUMNS.join(', ')}`,
        [resolution.ticket_id, now(ctx), resolution.closed_by, resolution.agent_id, resolution.category_id, resolution.ticket_id])
      if (row === undefined) throw new Error('The resolution was not recorded.')
      return resolutionFromRow(row)
    },
    async latest (ticketId) {
      const row = await db(TABLE).select(COLUMNS).where('ticket_id', ticketId).orderBy('resolution', 'desc').first() as ResolutionRow | undefined
      return row === undefined ? null : resolutionFromRow(row)
    },
    async ofTicket (ticketId) {
      const rows = await db(TABLE).select(COLUMNS).where('ticket_id', ticketId).orderBy('resolution', 'desc') as ResolutionRow[]
      return rows.map(resolutionFromRow)
    },
    async rate (ticketId, resolution, rating) {
      // Takes the row's lock (a write that changes nothing) before reading it, so `before` is what this rating replaces.
      const locked = await db(TABLE).where({ ticket_id: ticketId, resolution }).update({ rating: db.ref('rating') })
      if (Number(locked) === 0) return null
      const before = await one(ticketId, resolution)
      if (before === null) return null
      const at = now(ctx)
      await db(TABLE).where({ ticket_id: ticketId, resolution }).update({
        rating: rating.rating,
        ...(rating.comment !== undefined ? { comment: rating.comment } : {}),
        customer_id: rating.customer_id,
        agent_id: rating.agent_id,
        category_id: rating.category_id,
        channel: rating.channel,
        rated_at: before.rated_at ?? at,
        rating_updated_at: at
      })
      const after = await one(ticketId, resolution)
      return after === null ? null : { before, after }
    }
  }
}

/**
 * The `satisfaction` include of tickets: per ticket of the page, its latest
 * rated resolution, in one windowed query; null where the caller may not see
 * ratings (`canSeeSatisfaction`: the owner and staff) or there is none.
 */
export function satisfactionInclude<Item extends WithIncludes<Ticket>> (ctx: RepositoryContext, scope: TicketScope): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const ids = [...new Set(items.filter((item) => canSeeSatisfaction(scope.comments, item)).map((item) => item.id))]
    const byTicket = new Map<number, TicketResolution>()
    if (ids.length > 0) {
      const list = ctx.dialect.inIds(`${TABLE}.ticket_id`, ids)
      const rows = await ctx.dialect.run<ResolutionRow>(db,
        `select ${COLUMNS.join(', ')} from (select ${SELECTED}, row_number() over (partition by ${TABLE}.ticket_id order by ${TABLE}.resolution desc) as position ` +
        `from ${TABLE} where ${list.sql} and ${TABLE}.rating is not null) as ranked where ranked.position = 1`,
        list.bindings)
      for (const row of rows) byTicket.set(Number(row.ticket_id), resolutionFromRow(row))
    }
    for (const item of items) (item as Record<string, unknown>)[key] = byTicket.get(item.id) ?? null
  }
}
