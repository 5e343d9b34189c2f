import type { Knex } from 'knex'
import {
  formatDateTime, parseDateTime, Role, TicketStatus, triggerList, UserStatus,
  type AssignmentCandidate, type RuleAction, type RuleConditions, type Trigger, type TriggerEvent, type TriggerRepository, type WithIncludes
} from '@helpdesk/core'
import { caseInsensitive, listPage, type ListMapping } from '../list/list-mapping.js'
import { bool, parseJson } from '../rows/row-values.js'
import { ticketColumns, ticketFromRow, type TicketRow } from '../rows/ticket-rows.js'
import type { RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

type Item = WithIncludes<Trigger>

interface TriggerRow {
  id: number
  name: string
  position: number
  active: number | boolean
  events: string
  conditions: string
  actions: string
  created_at: string
  updated_at: string
}

const triggerColumns = ['id', 'name', 'position', 'active', 'events', 'conditions', 'actions', 'created_at', 'updated_at'].map((c) => `triggers.${c}`)

function triggerFromRow (row: TriggerRow): Trigger {
  return {
    id: row.id,
    name: row.name,
    position: Number(row.position),
    active: bool(row.active),
    events: parseJson<TriggerEvent[]>(row.events, []),
    conditions: parseJson<RuleConditions>(row.conditions, { all: [], any: [] }),
    actions: parseJson<RuleAction[]>(row.actions, []),
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

const mapping: ListMapping<typeof triggerList, TriggerRow, Item> = {
  spec: triggerList,
  sorts: { position: 'triggers.position', name: caseInsensitive('triggers.name'), created_at: 'triggers.created_at', id: 'triggers.id' },
  partial: { name: 'triggers.name' },
  exact: { active: { column: 'triggers.active', type: 'bool' } },
  includes: {},
  idColumn: 'triggers.id',
  map: (row) => triggerFromRow(row) as Item
}

function toRow (values: Partial<Trigger>): Record<string, unknown> {
  const row: Record<string, unknown> = { ...values }
  for (const key of ['events', 'conditions', 'actions'] as const) {
    if (values[key] !== undefined) row[key] = JSON.stringify(values[key])
  }
  return row
}

/** Triggers, and the reads of running them that touch other tables (the mail cap, assignment candidates). */
export function createTriggerRepository (ctx: RepositoryContext): TriggerRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'triggers')
  const ordered = (): Knex.QueryBuilder => db('triggers').select(triggerColumns).orderBy([{ column: 'triggers.position' }, { column: 'triggers.id' }])
  const byId = async (id: number): Promise<Trigger | null> => {
    const row = await db('triggers').select(triggerColumns).where('triggers.id', id).first() as TriggerRow | undefined
    return row === undefined ? null : triggerFromRow(row)
  }
  return {
    async list (query) {
      return await listPage(db, ctx.dialect, db('triggers').select(triggerColumns), mapping, query)
    },
    findById: byId,
    async all () {
      return (await ordered() as TriggerRow[]).map(triggerFromRow)
    },
    async active () {
      // The list's version first, then (only when it moved) the list: a change committed between the two reads makes
      // the list newer than its token, never older, so the next reader reads again rather than trusting a stale list.
      const rows = await ctx.dialect.run<{ token: string }>(db, 'select "token" from "trigger_list_version" where "id" = 1', [])
      const token = rows[0]?.token
      const cached = ctx.triggerList.entry
      if (token !== undefined && cached !== null && cached.token === token) return [...cached.triggers]
      const triggers = (await ordered().where('triggers.active', true) as TriggerRow[]).map(triggerFromRow)
      if (token !== undefined) ctx.triggerList.entry = { token, triggers: Object.freeze(triggers.map((trigger) => Object.freeze(trigger))) }
      return triggers
    },
    async count () {
      const row = await db('triggers').count({ total: '*' }).first() as { total: number | string } | undefined
      return Number(row?.total ?? 0)
    },
    async nextPosition () {
      const row = await db('triggers').max({ top: 'position' }).first() as { top: number | string | null } | undefined
      return row?.top === null || row?.top === undefined ? 0 : Number(row.top) + 1
    },
    async create (values) {
      const { id } = await table.insert(toRow(values))
      return await byId(id) as Trigger
    },
    async update (id, values) {
      if (!await table.update(id, toRow(values))) return null
      return await byId(id)
    },
    async delete (id) {
      return await table.delete(id)
    },
    async automaticMailsSince (recipient, since) {
      const row = await db('mail_messages').count({ total: '*' })
        .where({ direction: 'out', recipient })
        .whereNull('author_id')
        .where('kind', 'reply')
        .where('created_at', '>=', since)
        .first() as { total: number | string } | undefined
      return Number(row?.total ?? 0)
    },
    async assignmentCandidates (categoryId) {
      const agents = await db('users')
        .select('users.id', 'users.available', 'users.last_assigned_at')
        .whereIn('users.role', [Role.Admin, Role.Agent])
        .whereNot('users.status', UserStatus.Banned)
        .whereIn('users.id', db('agent_categories').select('user_id').where('category_id', categoryId))
        .orderBy('users.id') as Array<{ id: number, available: number | boolean, last_assigned_at: string | null }>
      if (agents.length === 0) return []
      const counts = await db('tickets').select('assigned_agent_id').count({ total: '*' })
        .whereIn('assigned_agent_id', agents.map((agent) => agent.id))
        .whereIn('status', [TicketStatus.Open, TicketStatus.Pending])
        .groupBy('assigned_agent_id') as Array<{ assigned_agent_id: number, total: number | string }>
      const open = new Map(counts.map((row) => [Number(row.assigned_agent_id), Number(row.total)]))
      return agents.map((agent): AssignmentCandidate => ({
        id: agent.id,
        available: bool(agent.available),
        open_tickets: open.get(agent.id) ?? 0,
        last_assigned_at: agent.last_assigned_at === null ? null : String(agent.last_assigned_at)
      }))
    },
    async recentTickets (limit) {
      const rows = await db('tickets').select([...ticketColumns, 'users.email as owner_email'])
        .leftJoin('users', 'users.id', 'tickets.user_id')
        .orderBy('tickets.id', 'desc').limit(limit) as Array<TicketRow & { owner_email: string | null }>
      return rows.map((row) => ({ ticket: ticketFromRow(row), customer_email: row.owner_email === null || row.owner_email === '' ? null : row.owner_email.toLowerCase() }))
    },
    async markAssigned (agentId, at) {
      // Turns are kept to the second: a burst within one second still gets strictly ordered turns (the latest one a second later).
      const row = await db('users').max({ last: 'last_assigned_at' }).first() as { last: string | Date | null } | undefined
      const last = row?.last === null || row?.last === undefined ? null : parseDateTime(typeof row.last === 'string' ? row.last : formatDateTime(row.last))
      const turn = last !== null && last >= parseDateTime(at) ? formatDateTime(new Date(last + 1000)) : at
      await db('users').where('id', agentId).update({ last_assigned_at: turn })
    }
  }
}
