import type { Knex } from 'knex'
import {
  automationList, priorityRank, type Automation, type AutomationCandidate, type AutomationDueColumn, type AutomationDueFilter, type AutomationDueText, type Priority, type AutomationRepository, type RuleAction, type RuleConditions,
  type TimeAnchor, type TimeCondition, type WithIncludes
} from '@helpdesk/core'
import { caseFolded, likeEscaped, type Dialect } from '../dialects/dialect.js'
import { caseInsensitive, listPage, type ListMapping } from '../list/list-mapping.js'
import { bool, parseJson } from '../rows/row-values.js'
import { ticketColumns, ticketFromRow, type TicketRow } from '../rows/ticket-rows.js'
import type { RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

type Item = WithIncludes<Automation>

interface AutomationRow {
  id: number
  name: string
  active: number | boolean
  time_condition: string
  conditions: string
  actions: string
  created_at: string
  updated_at: string
}

const columns = ['id', 'name', 'active', 'time_condition', 'conditions', 'actions', 'created_at', 'updated_at'].map((c) => `automations.${c}`)

function automationFromRow (row: AutomationRow): Automation {
  return {
    id: row.id,
    name: row.name,
    active: bool(row.active),
    time_condition: parseJson<TimeCondition>(row.time_condition, { anchor: 'created', hours: 0, business: false }),
    conditions: parseJson<RuleConditions>(row.conditions, { all: [], any: [] }),
    actions: parseJson<RuleAction[]>(row.actions, []),
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

const mapping: ListMapping<typeof automationList, AutomationRow, Item> = {
  spec: automationList,
  sorts: { name: caseInsensitive('automations.name'), created_at: 'automations.created_at', id: 'automations.id' },
  partial: { name: 'automations.name' },
  exact: { active: { column: 'automations.active', type: 'bool' } },
  includes: {},
  idColumn: 'automations.id',
  map: (row) => automationFromRow(row) as Item
}

function toRow (values: Partial<Automation>): Record<string, unknown> {
  const row: Record<string, unknown> = { ...values }
  for (const key of ['time_condition', 'conditions', 'actions'] as const) {
    if (values[key] !== undefined) row[key] = JSON.stringify(values[key])
  }
  return row
}

/** The ticket column each anchor reads (each has an index: `status_changed_at` with the status, migration 0038). */
const ANCHOR_COLUMNS: Record<Exclude<TimeAnchor, 'due'>, string> = {
  created: 'created_at',
  updated: 'updated_at',
  status_changed: 'status_changed_at',
  assigned: 'agent_assigned_at'
}

/** A condition as SQL with its bindings. */
type Sql = readonly [string, Knex.Value[]]

const marks = (values: readonly unknown[]): string => values.map(() => '?').join(', ')

/** A column condition of the rule language, exactly: `is_not`/`not_in` hold for no value (null). */
function columnSql (test: AutomationDueColumn): Sql {
  const column = `"tickets"."${test.column}"`
  if (test.column === 'private') return [`${column} = ?`, [test.value]]
  const value = (v: number | Priority): number => test.column === 'priority' ? priorityRank(v as Priority) : v as number
  switch (test.operator) {
    case 'is': return test.value === null ? [`${column} is null`, []] : [`${column} = ?`, [value(test.value)]]
    case 'is_not': return test.value === null ? [`${column} is not null`, []] : [`(${column} is null or ${column} <> ?)`, [value(test.value)]]
    case 'in': { const values = (test.value as Array<number | Priority>).map(value); return [`${column} in (${marks(values)})`, values] }
    case 'not_in': { const values = (test.value as Array<number | Priority>).map(value); return [`(${column} is null or ${column} not in (${marks(values)}))`, values] }
    case 'above': return [`${column} > ?`, [value(test.value)]]
    default: return [`${column} < ?`, [value(test.value)]]
  }
}

const LIKE = ` like ? escape '\\'`

/** Characters JSON.stringify writes escaped: the raw JSON text does not hold them as they are. */
const JSON_ESCAPED = /[\u0000-\u001f"\\]+/

/** Every one of the SQL conditions (`null`: none, so always true). */
function allOf (parts: Sql[]): Sql | null {
  if (parts.length === 0) return null
  return [`(${parts.map(([sql]) => sql).join(' and ')})`, parts.flatMap(([, bindings]) => bindings)]
}

/** `text` (SQL, case-folded) contains each of `values` (lowercase); with `not`, none of them. */
function containsSql (text: string, values: readonly string[], not = false): Sql | null {
  return allOf(values.map((value): Sql => [not ? `not (${text}${LIKE})` : `${text}${LIKE}`, [`%${likeEscaped(value)}%`]]))
}

/**
 * A text test of the due query (see `AutomationDueText`) as SQL: a superset
 * of the tickets the rule language's condition holds for, never fewer; null
 * where it has none (always true).
 */
function textSql (dialect: Dialect, test: AutomationDueText): Sql | null {
  if (test.of === 'email') {
    // The owner's address ('' without one) is the domain or ends in `@domain` or `.domain` (the domains have no `@`).
    const email = caseFolded(dialect, 'coalesce("owner"."email", \'\')')
    const sql = test.values.map(() => `${email} = ? or ${email}${LIKE} or ${email}${LIKE}`).join(' or ')
    const bindings = test.values.flatMap((d) => [d, `%@${likeEscaped(d)}`, `%.${likeEscaped(d)}`])
    const exists = `exists (select 1 from "users" as "owner" where "owner"."id" = "tickets"."user_id" and (${sql}))`
    return [test.test === 'domain' ? exists : `not ${exists}`, bindings]
  }
  let text = '"tickets"."title"'
  if (test.of !== 'subject') {
    const answer = dialect.jsonText('"tickets"."additional"', ['fields', test.of.slice('field:'.length)])
    if (answer === null) {
      // No JSON read here: the answer is in the stored JSON text (written by JSON.stringify) as it is, but for the characters
      // JSON escapes: the runs between them are in it. A superset; only for `contains`.
      if (test.test !== 'contains') return null
      const parts = test.values.flatMap((value) => value.split(JSON_ESCAPED)).filter((part) => part !== '')
      return containsSql(caseFolded(dialect, '"tickets"."additional"'), parts)
    }
    text = `coalesce(${answer}, '')`
  }
  if (test.test === 'present') return [`${text} <> ''`, []]
  return containsSql(caseFolded(dialect, text), test.values, test.test === 'not_contains')
}

/** A test of the due query as SQL (null: none, always true). */
const dueSql = (dialect: Dialect, test: AutomationDueColumn | AutomationDueText): Sql | null => 'column' in test ? columnSql(test) : textSql(dialect, test)

/** The `all` tests each, then one of the `any` tests when every one of them has SQL (else the run judges `any` alone). */
function whereDue (dialect: Dialect, qb: Knex.QueryBuilder, filter: AutomationDueFilter): void {
  for (const test of [...filter.columns ?? [], ...filter.texts ?? []]) {
    const sql = dueSql(dialect, test)
    if (sql !== null) void qb.whereRaw(...sql)
  }
  if (filter.any === undefined || filter.any === null || filter.any.length === 0) return
  const any = filter.any.map((test) => dueSql(dialect, test))
  if (any.some((sql) => sql === null)) return
  void qb.whereRaw(`(${any.map((sql) => sql?.[0]).join(' or ')})`, any.flatMap((sql) => sql?.[1] ?? []))
}

export function createAutomationRepository (ctx: RepositoryContext): AutomationRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'automations')
  const byId = async (id: number): Promise<Automation | null> => {
    const row = await db('automations').select(columns).where('automations.id', id).first() as AutomationRow | undefined
    return row === undefined ? null : automationFromRow(row)
  }
  return {
    async list (query) {
      return await listPage(db, ctx.dialect, db('automations').select(columns), mapping, query)
    },
    findById: byId,
    async active () {
      return (await db('automations').select(columns).where('automations.active', true).orderBy('automations.id') as AutomationRow[]).map(automationFromRow)
    },
    async count () {
      const row = await db('automations').count({ total: '*' }).first() as { total: number | string } | undefined
      return Number(row?.total ?? 0)
    },
    async create (values) {
      const { id } = await table.insert(toRow(values))
      return await byId(id) as Automation
    },
    async update (id, values) {
      if (!await table.update(id, toRow(values))) return null
      return await byId(id)
    },
    async delete (id) {
      return await table.delete(id)
    },
    async due (automationId, anchor, cutoff, filter, limit, after = null) {
      if (anchor === 'due') return []
      const column = `tickets.${ANCHOR_COLUMNS[anchor]}`
      const qb: Knex.QueryBuilder = db('tickets')
        .select([...ticketColumns.map((c) => c.includes('.') ? c : `tickets.${c}`), 'tickets.status_changed_at', 'automation_marks.anchor_at as mark_anchor_at'])
        .leftJoin('automation_marks', (join) => {
          join.on('automation_marks.ticket_id', '=', 'tickets.id').andOn('automation_marks.automation_id', '=', db.raw('?', [automationId]))
        })
        .whereNotNull(column)
        .where(column, '<=', cutoff)
        // A merged ticket is left alone by rules (docs/tickets.md "Merge and split").
        .whereNull('tickets.merged_into_id')
        .where((w) => { void w.whereNull('automation_marks.anchor_at').orWhereRaw(`automation_marks.anchor_at <> ${column}`) })
        .orderBy([{ column }, { column: 'tickets.id' }])
        .limit(limit)
      if (filter.statuses !== null) void qb.whereIn('tickets.status', filter.statuses)
      if (filter.priorities !== null) void qb.whereIn('tickets.priority', filter.priorities.map(priorityRank))
      for (const { operator, value } of filter.tags ?? []) {
        const tagged = (names: string[]) => db('ticket_tags').join('tags', 'tags.id', 'ticket_tags.tag_id').select(db.raw('1'))
          .whereRaw('"ticket_tags"."ticket_id" = "tickets"."id"').whereRaw(`lower("tags"."name") in (${names.map(() => '?').join(', ')})`, names)
        if (operator === 'includes_any') void qb.whereExists(tagged(value))
        else if (operator === 'includes_none') void qb.whereNotExists(tagged(value))
        else for (const name of value) void qb.whereExists(tagged([name]))
      }
      whereDue(ctx.dialect, qb, filter)
      // `>=` first, so the index range starts at the cursor on both databases (an OR alone reads the range from its start).
      if (after !== null) void qb.where(column, '>=', after.anchor_at).where((w) => { void w.where(column, '>', after.anchor_at).orWhere('tickets.id', '>', after.id) })
      const rows = await qb as Array<TicketRow & { status_changed_at: string | null, mark_anchor_at: string | null }>
      return rows.map((row): AutomationCandidate => {
        const ticket = ticketFromRow(row)
        return {
          ticket,
          instants: {
            created: ticket.created_at,
            updated: ticket.updated_at,
            status_changed: row.status_changed_at === null ? null : String(row.status_changed_at),
            assigned: ticket.agent_assigned_at,
            due: null
          },
          mark: row.mark_anchor_at === null ? null : String(row.mark_anchor_at)
        }
      })
    },
    async mark (automationId, ticketId, anchorAt) {
      await db('automation_marks').insert({ automation_id: automationId, ticket_id: ticketId, anchor_at: anchorAt })
        .onConflict(['automation_id', 'ticket_id']).merge(['anchor_at'])
    }
  }
}
