import type { Knex } from 'knex'
import {
  ValidationError, WEBHOOK_DELIVERY_STATUSES, webhookDeliveryList, webhookList,
  type WebhookDelivery, type WebhookDeliveryStatus, type WebhookEndpoint, type WebhookRepository
} from '@helpdesk/core'
import { caseInsensitive, listPage, type ListMapping } from '../list/list-mapping.js'
import { bool, parseJson } from '../rows/row-values.js'
import { now, quoted, type RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

const endpointColumns = ['id', 'url', 'events', 'description', 'active', 'disabled_at', 'consecutive_failures', 'failing_since', 'created_at', 'updated_at']
/** Read inside every transaction that raises a webhook event: a statement kept prepared, not a builder. */
const activeEndpoints = `select ${quoted(endpointColumns)} from "webhook_endpoints" where "active" = ? order by "id"`
const deliveryColumns = ['id', 'endpoint_id', 'event_id', 'event_type', 'status', 'attempts', 'response_status', 'duration_ms', 'error', 'next_attempt_at', 'created_at', 'updated_at']
/** Deliveries with their endpoint and its secrets: what a delivery attempt reads, for a claimed batch at once. */
const deliveryWorkSelect = `select ${deliveryColumns.map((c) => `"d"."${c}"`).join(', ')}, "d"."body" as "delivery_body",
  ${endpointColumns.map((c) => `"e"."${c}" as "e_${c}"`).join(', ')}, "e"."secret", "e"."previous_secret", "e"."previous_secret_expires_at"
  from "webhook_deliveries" as "d" join "webhook_endpoints" as "e" on "e"."id" = "d"."endpoint_id" where `
/** One more failure of an active endpoint, counted by the statement itself. */
const recordFailureSql = `update "webhook_endpoints" set "consecutive_failures" = "consecutive_failures" + 1,
  "failing_since" = coalesce("failing_since", ?), "updated_at" = ? where "id" = ? and "active" = ? returning "consecutive_failures", "failing_since"`
/** The columns of one attempt, as `recordAttempts` binds them. */
const attemptColumns = [
  { name: 'id', type: 'bigint' }, { name: 'status', type: 'text' }, { name: 'response_status', type: 'integer' }, { name: 'duration_ms', type: 'integer' },
  { name: 'error', type: 'text' }, { name: 'next_attempt_at', type: 'timestamp' }, { name: 'body', type: 'text' }
] as const

type Row = Record<string, unknown>

function endpointFromRow (row: Row): WebhookEndpoint {
  return {
    id: Number(row.id),
    url: String(row.url),
    events: parseJson<string[]>(row.events, []),
    description: (row.description as string | null) ?? null,
    active: bool(row.active),
    disabled_at: (row.disabled_at as string | null) ?? null,
    consecutive_failures: Number(row.consecutive_failures),
    failing_since: (row.failing_since as string | null) ?? null,
    created_at: String(row.created_at),
    updated_at: String(row.updated_at)
  }
}

function deliveryFromRow (row: Row): WebhookDelivery {
  return {
    id: Number(row.id),
    endpoint_id: Number(row.endpoint_id),
    event_id: Number(row.event_id),
    event_type: String(row.event_type),
    status: row.status as WebhookDelivery['status'],
    attempts: Number(row.attempts),
    response_status: row.response_status === null ? null : Number(row.response_status),
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
    error: (row.error as string | null) ?? null,
    next_attempt_at: (row.next_attempt_at as string | null) ?? null,
    created_at: String(row.created_at),
    updated_at: String(row.updated_at)
  }
}

const endpointMapping: ListMapping<typeof webhookList, Row, WebhookEndpoint> = {
  spec: webhookList,
  sorts: { id: 'webhook_endpoints.id', created_at: 'webhook_endpoints.created_at', url: caseInsensitive('webhook_endpoints.url') },
  partial: { url: 'webhook_endpoints.url', description: 'webhook_endpoints.description' },
  exact: { active: { column: 'webhook_endpoints.active', type: 'bool' } },
  includes: {},
  idColumn: 'webhook_endpoints.id',
  map: endpointFromRow
}

const deliveryMapping: ListMapping<typeof webhookDeliveryList, Row, WebhookDelivery> = {
  spec: webhookDeliveryList,
  sorts: { id: 'webhook_deliveries.id' },
  partial: {},
  exact: {
    status: (qb, values) => {
      const unknown = values.find((value) => !WEBHOOK_DELIVERY_STATUSES.includes(value as WebhookDeliveryStatus))
      if (unknown !== undefined) throw ValidationError.field('filter.status', `The status filter has an invalid value "${unknown}": use ${WEBHOOK_DELIVERY_STATUSES.join(', ')}.`)
      void qb.whereIn('webhook_deliveries.status', values)
    },
    event_type: { column: 'webhook_deliveries.event_type', type: 'string' },
    event_id: { column: 'webhook_deliveries.event_id', type: 'int' }
  },
  includes: {},
  idColumn: 'webhook_deliveries.id',
  map: deliveryFromRow
}

export function createWebhookRepository (ctx: RepositoryContext): WebhookRepository {
  const { db } = ctx
  const endpoints = () => db('webhook_endpoints').select(endpointColumns)
  const endpointRows = tableRows(ctx, 'webhook_endpoints')
  return {
    async list () {
      return (await endpoints().orderBy('id') as Row[]).map(endpointFromRow)
    },
    async page (query) {
      return await listPage(db, ctx.dialect, db('webhook_endpoints').select(endpointColumns.map((c) => `webhook_endpoints.${c}`)), endpointMapping, query)
    },
    async findById (id) {
      const row = await endpoints().where('id', id).first() as Row | undefined
      return row === undefined ? null : endpointFromRow(row)
    },
    async active () {
      return (await ctx.dialect.run<Row>(db, activeEndpoints, [true])).map(endpointFromRow)
    },
    async create (endpoint) {
      const { id } = await endpointRows.insert({
        url: endpoint.url, events: JSON.stringify(endpoint.events), description: endpoint.description, active: endpoint.active,
        secret: endpoint.secret, consecutive_failures: 0
      })
      return (await this.findById(id))!
    },
    async update (id, patch) {
      const { events, ...rest } = patch
      const updated = await endpointRows.update(id, { ...rest, ...(events !== undefined ? { events: JSON.stringify(events) } : {}) })
      return updated ? await this.findById(id) : null
    },
    async delete (id) {
      return await endpointRows.delete(id)
    },
    async secretsOf (id) {
      const row = await db('webhook_endpoints').select('secret', 'previous_secret', 'previous_secret_expires_at').where('id', id).first() as Row | undefined
      if (row === undefined) return null
      return { current: String(row.secret), previous: (row.previous_secret as string | null) ?? null, previous_expires_at: (row.previous_secret_expires_at as string | null) ?? null }
    },
    async rotateSecret (id, secret, previousExpiresAt) {
      const count = await db('webhook_endpoints').where('id', id).update({
        previous_secret: db.ref('secret'), previous_secret_expires_at: previousExpiresAt, secret, updated_at: now(ctx)
      })
      return count > 0
    },
    async createDeliveries (deliveries) {
      if (deliveries.length === 0) return []
      const at = now(ctx)
      const ids: number[] = []
      for (let i = 0; i < deliveries.length; i += 200) {
        const rows = await db('webhook_deliveries').insert(deliveries.slice(i, i + 200).map((d) => ({
          endpoint_id: d.endpoint_id, event_id: d.event_id, event_type: d.event_type, status: 'pending', attempts: 0,
          body: d.body ?? null, next_attempt_at: at, created_at: at, updated_at: at
        }))).returning('id') as Array<{ id: number | string }>
        ids.push(...rows.map((r) => Number(r.id)))
      }
      return ids
    },
    async findDelivery (id) {
      const row = await db('webhook_deliveries').select(deliveryColumns).where('id', id).first() as Row | undefined
      return row === undefined ? null : deliveryFromRow(row)
    },
    async bodyOf (deliveryId) {
      const row = await db('webhook_deliveries').select('body').where('id', deliveryId).first() as { body: string | null } | undefined
      return row?.body ?? null
    },
    async deliveryWork (ids) {
      if (ids.length === 0) return []
      const list = ctx.dialect.inIds('"d"."id"', ids, 'bigint')
      const rows = await ctx.dialect.run<Row>(db, deliveryWorkSelect + list.sql, list.bindings)
      return rows.map((row) => ({
        delivery: deliveryFromRow(row),
        endpoint: endpointFromRow(Object.fromEntries(endpointColumns.map((c) => [c, row[`e_${c}`]]))),
        secrets: { current: String(row.secret), previous: (row.previous_secret as string | null) ?? null, previous_expires_at: (row.previous_secret_expires_at as string | null) ?? null },
        body: (row.delivery_body as string | null) ?? null
      }))
    },
    async updateDelivery (id, patch) {
      await db('webhook_deliveries').where('id', id).update({ ...patch, updated_at: now(ctx) })
    },
    async recordAttempts (records) {
      if (records.length === 0) return
      const table = ctx.dialect.rowsTable(attemptColumns, records.map((r) => [
        r.delivery_id, r.status, r.response_status, r.duration_ms, r.error, r.next_attempt_at, r.body ?? null
      ]))
      await ctx.dialect.run(db, `update "webhook_deliveries" set "status" = v."status", "attempts" = "webhook_deliveries"."attempts" + 1,
        "response_status" = v."response_status", "duration_ms" = v."duration_ms", "error" = v."error", "next_attempt_at" = v."next_attempt_at",
        "body" = coalesce(v."body", "webhook_deliveries"."body"), "updated_at" = ?
        from ${table.sql} where "webhook_deliveries"."id" = v."id"`, [now(ctx), ...table.bindings])
    },
    async recordFailure (id, at) {
      const [row] = await ctx.dialect.run<{ consecutive_failures: number | string, failing_since: string }>(db, recordFailureSql, [at, now(ctx), id, true])
      return row === undefined ? null : { consecutive_failures: Number(row.consecutive_failures), failing_since: row.failing_since }
    },
    async clearFailures (id) {
      const count = await db('webhook_endpoints').where({ id, active: true }).where((q) => { void q.where('consecutive_failures', '>', 0).orWhereNotNull('failing_since') })
        .update({ consecutive_failures: 0, failing_since: null, updated_at: now(ctx) })
      return count > 0
    },
    async switchOff (id, at, error) {
      const count = await db('webhook_endpoints').where({ id, active: true }).update({ active: false, disabled_at: at, updated_at: now(ctx) })
      if (count === 0) return false
      // Rows another statement is writing at this moment (an attempt's outcome) are theirs to settle.
      const pending = db('webhook_deliveries').select('id').where({ endpoint_id: id, status: 'pending' })
      if (ctx.dialect.name === 'postgres') void pending.forUpdate().skipLocked()
      await db('webhook_deliveries').whereIn('id', pending).update({ status: 'cancelled', error, next_attempt_at: null, updated_at: now(ctx) })
      return true
    },
    async listDeliveries (endpointId, query) {
      const base: Knex.QueryBuilder = db('webhook_deliveries').select(deliveryColumns.map((c) => `webhook_deliveries.${c}`)).where('webhook_deliveries.endpoint_id', endpointId)
      return await listPage(db, ctx.dialect, base, deliveryMapping, query)
    },
    async deleteDeliveriesBefore (before, limit) {
      return await db('webhook_deliveries')
        .whereIn('id', db('webhook_deliveries').select('id').where('created_at', '<', before).orderBy('id').limit(limit))
        .delete()
    }
  }
}
