import type { Knex } from 'knex'
import {
  auditLogList, parseSince,
  type AuditEntry, type AuditLogRepository, type HistoryActorKind, type PersonSummary, type WithIncludes
} from '@helpdesk/core'
import { listPage, relationInclude, type ListMapping } from '../list/list-mapping.js'
import { parseJson } from '../rows/row-values.js'
import { peopleByIds } from './customer-note-repository.js'
import { insertRows, now, type RepositoryContext } from './repository-context.js'

type Item = WithIncludes<AuditEntry>

const TABLE = 'audit_log'
const COLUMNS = ['id', 'actor_kind', 'actor_id', 'actor_name', 'ip', 'action', 'subject_type', 'subject_id', 'before', 'after', 'created_at'].map((c) => `${TABLE}.${c}`)

interface AuditRow {
  id: number | string
  actor_kind: string
  actor_id: number | string | null
  actor_name: string | null
  ip: string | null
  action: string
  subject_type: string
  subject_id: string | null
  before: string | null
  after: string | null
  created_at: string
}

function auditFromRow (row: AuditRow): Item {
  return {
    id: Number(row.id),
    actor_kind: row.actor_kind as HistoryActorKind,
    actor_id: row.actor_id === null ? null : Number(row.actor_id),
    actor_name: row.actor_name,
    ip: row.ip,
    action: row.action,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    before: parseJson<unknown>(row.before, null),
    after: parseJson<unknown>(row.after, null),
    created_at: row.created_at
  } as Item
}

const mapping: ListMapping<typeof auditLogList, AuditRow, Item> = {
  spec: auditLogList,
  sorts: { id: `${TABLE}.id`, created_at: `${TABLE}.created_at` },
  partial: {},
  exact: {
    action: { column: `${TABLE}.action`, type: 'string' },
    actor: { column: `${TABLE}.actor_id`, type: 'int' },
    subject_type: { column: `${TABLE}.subject_type`, type: 'string' },
    subject_id: { column: `${TABLE}.subject_id`, type: 'string' },
    // The end of a time range: entries strictly before the (earliest) time given.
    created_before: (qb, values) => {
      const times = values.map((value) => parseSince('created_before', value)).sort()
      if (times[0] !== undefined) void qb.where(`${TABLE}.created_at`, '<', times[0])
    }
  },
  since: { created_since: `${TABLE}.created_at` },
  includes: { user: relationInclude<Item, PersonSummary>('actor_id', peopleByIds) },
  idColumn: `${TABLE}.id`,
  map: auditFromRow
}

const json = (value: unknown): string | null => value === null || value === undefined ? null : JSON.stringify(value)

export function createAuditLogRepository (ctx: RepositoryContext): AuditLogRepository {
  const { db } = ctx
  return {
    async add (entry) {
      await insertRows(ctx, TABLE, [{
        actor_kind: entry.actor_kind,
        actor_id: entry.actor_id,
        actor_name: entry.actor_name,
        ip: entry.ip,
        action: entry.action,
        subject_type: entry.subject_type,
        subject_id: entry.subject_id,
        before: json(entry.before),
        after: json(entry.after),
        created_at: now(ctx)
      }], false)
    },
    async list (query) {
      const base: Knex.QueryBuilder = db(TABLE).select(COLUMNS)
      return await listPage(db, ctx.dialect, base, mapping, query)
    },
    async deleteBefore (before, limit) {
      return Number(await db(TABLE).whereIn('id', db(TABLE).select('id').where('created_at', '<', before).orderBy('id').limit(limit)).delete())
    }
  }
}

