import type { Knex } from 'knex'
import {
  CommentType, Role, slaCalendarList, slaPolicyList,
  type SlaCalendar, type SlaPolicy, type SlaRepository, type TicketSlaState, type WithIncludes
} from '@helpdesk/core'
import { caseInsensitive, countInclude, listPage, relationInclude, type ListMapping } from '../list/list-mapping.js'
import { bool, parseJson } from '../rows/row-values.js'
import { now, type RepositoryContext } from './repository-context.js'

interface CalendarRow {
  id: number
  name: string
  time_zone: string
  hours: string
  holidays: string
  twenty_four_seven: number | boolean
  built_in: number | boolean
  created_at: string
  updated_at: string
}

interface PolicyRow {
  id: number
  name: string
  position: number
  is_default: number | boolean
  conditions: string
  first_response_minutes: number | null
  next_response_minutes: number | null
  resolution_minutes: number | null
  calendar_id: number
  warning_minutes: number | null
  warnings_follow_calendar: number | boolean
  created_at: string
  updated_at: string
}

interface StateRow {
  ticket_id: number
  policy_id: number | null
  timeline: string
  targets: string
  announced: string
  paused_minutes: number
  evaluated_at: string
}

const int = (value: number | string | null): number | null => value === null ? null : Number(value)

function calendarFromRow (row: CalendarRow): SlaCalendar {
  return {
    id: Number(row.id),
    name: row.name,
    time_zone: row.time_zone,
    hours: parseJson(row.hours, {} as SlaCalendar['hours']),
    holidays: parseJson(row.holidays, [] as SlaCalendar['holidays']),
    twenty_four_seven: bool(row.twenty_four_seven),
    built_in: bool(row.built_in),
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

function policyFromRow (row: PolicyRow): SlaPolicy {
  return {
    id: Number(row.id),
    name: row.name,
    position: Number(row.position),
    is_default: bool(row.is_default),
    conditions: parseJson(row.conditions, {}),
    first_response_minutes: int(row.first_response_minutes),
    next_response_minutes: int(row.next_response_minutes),
    resolution_minutes: int(row.resolution_minutes),
    calendar_id: Number(row.calendar_id),
    warning_minutes: int(row.warning_minutes),
    warnings_follow_calendar: bool(row.warnings_follow_calendar),
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

function stateFromRow (row: StateRow): TicketSlaState {
  return {
    ticket_id: Number(row.ticket_id),
    policy_id: int(row.policy_id),
    timeline: parseJson(row.timeline, { created_at: '', status: 1, policy: 'none', events: [] }),
    targets: parseJson(row.targets, {}),
    announced: parseJson(row.announced, {}),
    paused_minutes: Number(row.paused_minutes),
    evaluated_at: row.evaluated_at
  }
}

const STATE_OF_TICKET = 'select "ticket_id", "policy_id", "timeline", "targets", "announced", "paused_minutes", "evaluated_at" from "ticket_sla" where "ticket_id" = ?'
const SAVE_STATE = 'insert into "ticket_sla" ("ticket_id", "policy_id", "timeline", "targets", "announced", "paused_minutes", "evaluated_at") ' +
  'values (?, ?, ?, ?, ?, ?, ?) on conflict ("ticket_id") do update set "policy_id" = excluded."policy_id", "timeline" = excluded."timeline", ' +
  '"targets" = excluded."targets", "announced" = excluded."announced", "paused_minutes" = excluded."paused_minutes", "evaluated_at" = excluded."evaluated_at"'
const SAVE_DUE = 'update "tickets" set "first_response_due_at" = ?, "next_response_due_at" = ?, "resolution_due_at" = ?, "sla_next_due_at" = ? where "id" = ?'

/** Rows per statement of `saveTicketStates` (well under SQLite's bound-parameter limit: seven per state). */
const STATES_PER_STATEMENT = 500
const DUE_COLUMNS = [
  { name: 'id', type: 'integer' },
  { name: 'first_response_due_at', type: 'timestamp' },
  { name: 'next_response_due_at', type: 'timestamp' },
  { name: 'resolution_due_at', type: 'timestamp' },
  { name: 'sla_next_due_at', type: 'timestamp' }
] as const

type CalendarItem = WithIncludes<SlaCalendar>
type PolicyItem = WithIncludes<SlaPolicy>

const calendarMapping: ListMapping<typeof slaCalendarList, CalendarRow, CalendarItem> = {
  spec: slaCalendarList,
  sorts: { id: 'sla_calendars.id', name: caseInsensitive('sla_calendars.name'), created_at: 'sla_calendars.created_at' },
  partial: { name: 'sla_calendars.name' },
  exact: {},
  includes: { 'policies-count': countInclude<CalendarItem>('sla_policies', 'calendar_id') },
  idColumn: 'sla_calendars.id',
  map: (row) => calendarFromRow(row) as CalendarItem
}

const calendarsByIds = async (db: Knex, ids: Array<number | string>): Promise<SlaCalendar[]> =>
  (await db('sla_calendars').whereIn('id', ids.map(Number)) as CalendarRow[]).map(calendarFromRow)

const policyMapping: ListMapping<typeof slaPolicyList, PolicyRow, PolicyItem> = {
  spec: slaPolicyList,
  // The default policy is matched last whatever its position: it is listed last too.
  sorts: { position: 'sla_policies.position', id: 'sla_policies.id', name: caseInsensitive('sla_policies.name') },
  partial: { name: 'sla_policies.name' },
  exact: { calendar: { column: 'sla_policies.calendar_id', type: 'int' } },
  includes: { calendar: relationInclude<PolicyItem, SlaCalendar>('calendar_id', calendarsByIds) },
  idColumn: 'sla_policies.id',
  map: (row) => policyFromRow(row) as PolicyItem
}

function calendarValues (calendar: Parameters<SlaRepository['createCalendar']>[0]): Partial<CalendarRow> {
  return {
    name: calendar.name,
    time_zone: calendar.time_zone,
    hours: JSON.stringify(calendar.hours),
    holidays: JSON.stringify(calendar.holidays),
    twenty_four_seven: calendar.twenty_four_seven
  }
}

function policyValues (policy: Partial<Parameters<SlaRepository['createPolicy']>[0]>): Partial<PolicyRow> {
  const { conditions, ...rest } = policy
  const values: Record<string, unknown> = { ...rest }
  if (conditions !== undefined) values.conditions = JSON.stringify(conditions)
  return values as Partial<PolicyRow>
}

export function createSlaRepository (ctx: RepositoryContext): SlaRepository {
  const { db, dialect } = ctx
  const ordered = (qb: Knex.QueryBuilder): Knex.QueryBuilder => qb.orderBy('is_default', 'asc').orderBy('position', 'asc').orderBy('id', 'asc')
  return {
    async listCalendars (query) {
      return await listPage(db, dialect, db('sla_calendars').select('sla_calendars.*'), calendarMapping, query)
    },
    async allCalendars () {
      return (await db('sla_calendars').orderBy('id') as CalendarRow[]).map(calendarFromRow)
    },
    async findCalendar (id) {
      const row = await db('sla_calendars').where('id', id).first() as CalendarRow | undefined
      return row === undefined ? null : calendarFromRow(row)
    },
    async createCalendar (calendar) {
      const at = now(ctx)
      const [row] = await db('sla_calendars').insert({ ...calendarValues(calendar), built_in: false, created_at: at, updated_at: at }).returning('*') as CalendarRow[]
      return calendarFromRow(row!)
    },
    async updateCalendar (id, calendar) {
      const count = await db('sla_calendars').where('id', id).update({ ...calendarValues(calendar), updated_at: now(ctx) })
      return count === 0 ? null : await this.findCalendar(id)
    },
    async deleteCalendar (id) {
      return await db('sla_calendars').where('id', id).delete() > 0
    },
    async policiesUsing (calendarId) {
      const row = await db('sla_policies').where('calendar_id', calendarId).count({ n: '*' }).first() as { n: number | string } | undefined
      return Number(row?.n ?? 0)
    },

    async listPolicies (query) {
      const base = db('sla_policies').select('sla_policies.*')
      // Matching order: the default policy last, whatever the sort asked.
      if (query.sort.length === 0 || query.sort[0]?.field === 'position') void base.orderBy('sla_policies.is_default', 'asc')
      return await listPage(db, dialect, base, policyMapping, query)
    },
    async allPolicies () {
      return (await ordered(db('sla_policies')) as PolicyRow[]).map(policyFromRow)
    },
    async findPolicy (id) {
      const row = await db('sla_policies').where('id', id).first() as PolicyRow | undefined
      return row === undefined ? null : policyFromRow(row)
    },
    async createPolicy (policy) {
      const at = now(ctx)
      const top = await db('sla_policies').where('is_default', false).max({ p: 'position' }).first() as { p: number | string | null } | undefined
      const [row] = await db('sla_policies').insert({
        ...policyValues(policy), position: Number(top?.p ?? 0) + 1, is_default: false, created_at: at, updated_at: at
      }).returning('*') as PolicyRow[]
      return policyFromRow(row!)
    },
    async updatePolicy (id, patch) {
      const count = await db('sla_policies').where('id', id).update({ ...policyValues(patch), updated_at: now(ctx) })
      return count === 0 ? null : await this.findPolicy(id)
    },
    async deletePolicy (id) {
      return await db('sla_policies').where('id', id).where('is_default', false).delete() > 0
    },
    async reorderPolicies (ids) {
      const at = now(ctx)
      for (const [i, id] of ids.entries()) await db('sla_policies').where('id', id).update({ position: i + 1, updated_at: at })
    },

    async ticketStates (ticketIds) {
      const out = new Map<number, TicketSlaState>()
      if (ticketIds.length === 0) return out
      // One ticket (every ticket change reads its own): a prepared statement.
      const rows = ticketIds.length === 1
        ? await dialect.run<StateRow>(db, STATE_OF_TICKET, [ticketIds[0]])
        : await db('ticket_sla').whereIn('ticket_id', [...ticketIds]) as StateRow[]
      for (const row of rows) out.set(Number(row.ticket_id), stateFromRow(row))
      return out
    },
    async saveTicketState (state, due) {
      // Written out and prepared: it runs in the transaction of every ticket change.
      await dialect.run(db, SAVE_STATE, [
        state.ticket_id, state.policy_id, JSON.stringify(state.timeline), JSON.stringify(state.targets), JSON.stringify(state.announced),
        state.paused_minutes, state.evaluated_at
      ])
      if (due !== null) {
        await dialect.run(db, SAVE_DUE, [due.first_response_due_at, due.next_response_due_at, due.resolution_due_at, due.sla_next_due_at, state.ticket_id])
      }
    },
    async saveTicketStates (entries) {
      for (let i = 0; i < entries.length; i += STATES_PER_STATEMENT) {
        const chunk = entries.slice(i, i + STATES_PER_STATEMENT)
        await db('ticket_sla').insert(chunk.map(({ state }) => ({
          ticket_id: state.ticket_id,
          policy_id: state.policy_id,
          timeline: JSON.stringify(state.timeline),
          targets: JSON.stringify(state.targets),
          announced: JSON.stringify(state.announced),
          paused_minutes: state.paused_minutes,
          evaluated_at: state.evaluated_at
        }))).onConflict('ticket_id').merge(['policy_id', 'timeline', 'targets', 'announced', 'paused_minutes', 'evaluated_at'])
        const due = chunk.filter((entry) => entry.due !== null)
        if (due.length === 0) continue
        const table = dialect.rowsTable(DUE_COLUMNS, due.map(({ state, due }) => [
          state.ticket_id, due!.first_response_due_at, due!.next_response_due_at, due!.resolution_due_at, due!.sla_next_due_at
        ]))
        await db.raw('update "tickets" set "first_response_due_at" = v."first_response_due_at", "next_response_due_at" = v."next_response_due_at", ' +
          '"resolution_due_at" = v."resolution_due_at", "sla_next_due_at" = v."sla_next_due_at" ' +
          `from ${table.sql} where "tickets"."id" = v."id"`, table.bindings as Knex.RawBinding[])
      }
    },
    async dueBefore (before, limit) {
      const rows = await db('tickets')
        .select('id', 'first_response_due_at', 'next_response_due_at', 'resolution_due_at', 'sla_next_due_at')
        .whereNotNull('sla_next_due_at').where('sla_next_due_at', '<=', before)
        .orderBy('sla_next_due_at', 'asc').limit(limit) as Array<{ id: number } & Record<string, string | null>>
      return rows.map((row) => ({
        ticket_id: Number(row.id),
        first_response_due_at: row.first_response_due_at ?? null,
        next_response_due_at: row.next_response_due_at ?? null,
        resolution_due_at: row.resolution_due_at ?? null,
        sla_next_due_at: row.sla_next_due_at ?? null
      }))
    },
    async claimAnnouncement (entry) {
      const inserted = await db('sla_announcements').insert({ ...entry, created_at: now(ctx) })
        .onConflict(['ticket_id', 'target', 'kind', 'due_at']).ignore().returning('ticket_id') as unknown[]
      return inserted.length > 0
    },
    async withoutState (ticketIds) {
      if (ticketIds.length === 0) return []
      const qb = db('ticket_sla').select('ticket_id')
      dialect.whereIdIn(qb, 'ticket_id', ticketIds)
      const having = new Set((await qb as Array<{ ticket_id: number }>).map((row) => Number(row.ticket_id)))
      return ticketIds.filter((id) => !having.has(id))
    },
    async conversations (ticketIds) {
      const out = new Map<number, { replies: Array<{ at: string, staff: boolean }>, last_activity_at: string | null }>()
      if (ticketIds.length === 0) return out
      const qb = db('comments').leftJoin('users', 'users.id', 'comments.user_id')
        .select('comments.ticket_id', 'comments.type', 'comments.created_at', 'users.role')
        .orderBy('comments.id', 'asc')
      dialect.whereIdIn(qb, 'comments.ticket_id', ticketIds)
      const rows = await qb as Array<{ ticket_id: number, type: number | string, created_at: string, role: number | string | null }>
      for (const row of rows) {
        const id = Number(row.ticket_id)
        const at = row.created_at
        const entry = out.get(id) ?? { replies: [], last_activity_at: null }
        out.set(id, entry)
        if (Number(row.type) === CommentType.Reply) entry.replies.push({ at, staff: row.role !== null && Number(row.role) !== Role.Customer })
        if (entry.last_activity_at === null || at > entry.last_activity_at) entry.last_activity_at = at
      }
      return out
    },
    async openTicketIds (afterId, limit, closedStatuses) {
      const rows = await db('tickets').select('id').where('id', '>', afterId).whereNotIn('status', [...closedStatuses])
        .orderBy('id', 'asc').limit(limit) as Array<{ id: number }>
      return rows.map((r) => Number(r.id))
    }
  }
}
