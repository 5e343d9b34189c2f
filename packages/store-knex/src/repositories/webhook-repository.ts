import type { WebhookDelivery, WebhookEndpoint, WebhookRepository } from '@helpdesk/core'
import { bool, parseJson } from '../rows/row-values.js'
import { now, quoted, type RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

const endpointColumns = ['id', 'url', 'events', 'description', 'active', 'disabled_at', 'consecutive_failures', 'failing_since', 'created_at', 'updated_at']
/** Read inside every transaction that raises a webhook event: a statement kept prepared, not a builder. */
const activeEndpoints = `select ${quoted(endpointColumns)} from "webhook_endpoints" where "active" = ? order by "id"`
const deliveryColumns = ['id', 'endpoint_id', 'event_id', 'event_type', 'status', 'attempts', 'response_status', 'duration_ms', 'error', 'next_attempt_at', 'created_at', 'updated_at']

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

export function createWebhookRepository (ctx: RepositoryContext): WebhookRepository {
  const { db } = ctx
  const endpoints = () => db('webhook_endpoints').select(endpointColumns)
  const endpointRows = tableRows(ctx, 'webhook_endpoints')
  return {
    async list () {
      return (await endpoints().orderBy('id') as Row[]).map(endpointFromRow)
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
    async deliveryWork (id) {
      const row = await db('webhook_deliveries as d').join('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select([
          ...deliveryColumns.map((c) => `d.${c}`), 'd.body as delivery_body',
          ...endpointColumns.map((c) => `e.${c} as e_${c}`), 'e.secret', 'e.previous_secret', 'e.previous_secret_expires_at'
        ])
        .where('d.id', id).first() as Row | undefined
      if (row === undefined) return null
      const endpointRow = Object.fromEntries(endpointColumns.map((c) => [c, row[`e_${c}`]]))
      return {
        delivery: deliveryFromRow(row),
        endpoint: endpointFromRow(endpointRow),
        secrets: { current: String(row.secret), previous: (row.previous_secret as string | null) ?? null, previous_expires_at: (row.previous_secret_expires_at as string | null) ?? null },
        body: (row.delivery_body as string | null) ?? null
      }
    },
    async updateDelivery (id, patch) {
      await db('webhook_deliveries').where('id', id).update({ ...patch, updated_at: now(ctx) })
    },
    async listDeliveries (endpointId, filter) {
      const query = db('webhook_deliveries').select(deliveryColumns).where('endpoint_id', endpointId).orderBy('id', 'desc').limit(filter.limit)
      if (filter.status !== undefined) void query.where('status', filter.status)
      return (await query as Row[]).map(deliveryFromRow)
    },
    async deleteDeliveriesBefore (before, limit) {
      return await db('webhook_deliveries')
        .whereIn('id', db('webhook_deliveries').select('id').where('created_at', '<', before).orderBy('id').limit(limit))
        .delete()
    }
  }
}
