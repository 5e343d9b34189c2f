import type { Knex } from 'knex'
import {
  ticketHistoryList,
  type HistoryActorKind, type HistoryDoor, type PersonSummary, type TicketHistoryEntry, type TicketHistoryRepository, type WithIncludes
} from '@helpdesk/core'
import { listPage, relationInclude, type ListMapping } from '../list/list-mapping.js'
import { bool, parseJson } from '../rows/row-values.js'
import { peopleByIds } from './customer-note-repository.js'
import { insertRows, now, type RepositoryContext } from './repository-context.js'

type Item = WithIncludes<TicketHistoryEntry>

const TABLE = 'ticket_history'
const COLUMNS = ['id', 'ticket_id', 'actor_kind', 'actor_id', 'actor_name', 'field', 'old_value', 'new_value', 'public', 'door', 'created_at'].map((c) => `${TABLE}.${c}`)

interface HistoryRow {
  id: number | string
  ticket_id: number | string
  actor_kind: string
  actor_id: number | string | null
  actor_name: string | null
  field: string
  old_value: string | null
  new_value: string | null
  public: unknown
  door: string
  created_at: string
}

/** JSON text of a value; null stays SQL null. */
function json (value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value)
}

export function historyFromRow (row: HistoryRow): Item {
  return {
    id: Number(row.id),
    ticket_id: Number(row.ticket_id),
    actor_kind: row.actor_kind as HistoryActorKind,
    actor_id: row.actor_id === null ? null : Number(row.actor_id),
    actor_name: row.actor_name,
    field: row.field,
    old_value: parseJson<unknown>(row.old_value, null),
    new_value: parseJson<unknown>(row.new_value, null),
    public: bool(row.public),
    door: row.door as HistoryDoor,
    created_at: row.created_at
  } as Item
}

const mapping: ListMapping<typeof ticketHistoryList, HistoryRow, Item> = {
  spec: ticketHistoryList,
  sorts: { id: `${TABLE}.id` },
  partial: {},
  exact: { field: { column: `${TABLE}.field`, type: 'string' } },
  since: { created_since: `${TABLE}.created_at` },
  includes: { user: relationInclude<Item, PersonSummary>('actor_id', peopleByIds) },
  idColumn: `${TABLE}.id`,
  map: historyFromRow
}

/** Rows per insert statement for bulk appends (imports): 11 values each, well under both databases' parameter limits. */
const BATCH = 500

export function createTicketHistoryRepository (ctx: RepositoryContext): TicketHistoryRepository {
  const { db } = ctx
  return {
    async add (entries) {
      if (entries.length === 0) return
      const at = now(ctx)
      const rows = entries.map((e) => ({
        ticket_id: e.ticket_id,
        actor_kind: e.actor_kind,
        actor_id: e.actor_id,
        actor_name: e.actor_name,
        field: e.field,
        old_value: json(e.old_value),
        new_value: json(e.new_value),
        public: e.public,
        door: e.door,
        created_at: e.created_at ?? at
      }))
      for (let i = 0; i < rows.length; i += BATCH) await insertRows(ctx, TABLE, rows.slice(i, i + BATCH), false)
    },
    async list (ticketId, publicOnly, query) {
      const base: Knex.QueryBuilder = db(TABLE).select(COLUMNS).where(`${TABLE}.ticket_id`, ticketId)
      if (publicOnly) void base.where(`${TABLE}.public`, true)
      return await listPage(db, ctx.dialect, base, mapping, query)
    }
  }
}
