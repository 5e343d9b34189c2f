import type { DateTimeString } from '../time.js'
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint, WebhookSecrets } from './webhook.js'

export interface NewWebhookEndpoint {
  url: string
  events: string[]
  description: string | null
  active: boolean
  secret: string
}

export type WebhookEndpointPatch = Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'active' | 'disabled_at' | 'consecutive_failures' | 'failing_since'>>

export interface NewWebhookDelivery {
  endpoint_id: number
  event_id: number
  event_type: string
  /** A redelivery resends the stored bytes of the delivery it repeats. */
  body?: string | null
}

export type WebhookDeliveryPatch = Partial<Pick<WebhookDelivery, 'status' | 'attempts' | 'response_status' | 'duration_ms' | 'error' | 'next_attempt_at'>> & { body?: string }

/** The storage port of webhooks (part of `Store`, same conventions). */
export interface WebhookRepository {
  /** Every endpoint, oldest first (by id). */
  list(): Promise<WebhookEndpoint[]>
  findById(id: number): Promise<WebhookEndpoint | null>
  /** Active endpoints; the caller applies `endpointReceives` (one query per event, whatever the number of endpoints). */
  active(): Promise<WebhookEndpoint[]>
  create(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint>
  update(id: number, patch: WebhookEndpointPatch): Promise<WebhookEndpoint | null>
  /** Deletes the endpoint and its deliveries. */
  delete(id: number): Promise<boolean>
  /** Null when the endpoint does not exist. Secrets are read only here and by `deliveryWork`, never with the endpoint. */
  secretsOf(id: number): Promise<WebhookSecrets | null>
  /** Replaces the secret; the old one keeps signing until `previousExpiresAt`. False when the endpoint does not exist. */
  rotateSecret(id: number, secret: string, previousExpiresAt: DateTimeString): Promise<boolean>
  /** Inserts the deliveries (pending, no attempt yet); returns their ids in order. */
  createDeliveries(deliveries: NewWebhookDelivery[]): Promise<number[]>
  findDelivery(id: number): Promise<WebhookDelivery | null>
  /** The stored request body (null until the first attempt built it). */
  bodyOf(deliveryId: number): Promise<string | null>
  /** A delivery with its endpoint, the endpoint's secrets and the stored body, in one query; null when either is gone. */
  deliveryWork(id: number): Promise<{ delivery: WebhookDelivery, endpoint: WebhookEndpoint, secrets: WebhookSecrets, body: string | null } | null>
  /** Writes the patched fields only (the stored body stays unless `body` is given). */
  updateDelivery(id: number, patch: WebhookDeliveryPatch): Promise<void>
  /** Newest first. */
  listDeliveries(endpointId: number, filter: { status?: WebhookDeliveryStatus, limit: number }): Promise<WebhookDelivery[]>
  /** Deletes up to `limit` deliveries created before `before`; returns how many. */
  deleteDeliveriesBefore(before: DateTimeString, limit: number): Promise<number>
}
