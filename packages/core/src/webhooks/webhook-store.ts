import type { ListQuery, Page } from '../list/list-query.js'
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

/** A change to a delivery that is not an attempt (see `recordAttempts`). */
export type WebhookDeliveryPatch = Partial<Pick<WebhookDelivery, 'status' | 'error' | 'next_attempt_at'>> & { body?: string }

/** One attempt on a delivery, as `recordAttempts` writes it. */
export interface WebhookAttemptRecord {
  delivery_id: number
  status: WebhookDeliveryStatus
  response_status: number | null
  duration_ms: number | null
  error: string | null
  next_attempt_at: DateTimeString | null
  /** The body the first attempt built, kept so later attempts resend the same bytes. */
  body?: string
}

/** An endpoint's failure record just after a failure was counted. */
export interface WebhookFailureCount {
  consecutive_failures: number
  failing_since: DateTimeString
}

/** What the delivery adapter needs for one delivery (`deliveryWork`). */
export interface WebhookDeliveryWorkRow {
  delivery: WebhookDelivery
  endpoint: WebhookEndpoint
  secrets: WebhookSecrets
  body: string | null
}

/** The storage port of webhooks (part of `Store`, same conventions). */
export interface WebhookRepository {
  /** Every endpoint, oldest first (by id). */
  list(): Promise<WebhookEndpoint[]>
  /** A page of endpoints by `webhookList`'s sorts and filters. */
  page(query: ListQuery): Promise<Page<WebhookEndpoint>>
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
  /** Deliveries with their endpoint, its secrets and the stored body, in one query whatever their number; those gone (or whose endpoint is) are left out. */
  deliveryWork(ids: number[]): Promise<WebhookDeliveryWorkRow[]>
  /** Writes the patched fields only (the stored body stays unless `body` is given). */
  updateDelivery(id: number, patch: WebhookDeliveryPatch): Promise<void>
  /**
   * Writes attempts on their deliveries: the outcome, and `attempts` one up
   * in the statement itself (never a value read before), so concurrent
   * writers lose no attempt. A fixed number of statements whatever their number.
   */
  recordAttempts(records: WebhookAttemptRecord[]): Promise<void>
  /**
   * Counts one more failed attempt of an active endpoint in one statement
   * (`consecutive_failures + 1`, `failing_since` set unless set): concurrent
   * workers lose no failure. Returns the record after it, or null when the
   * endpoint is gone or switched off (nothing is counted then). Inside a
   * transaction the endpoint stays locked until it ends (PostgreSQL).
   */
  recordFailure(id: number, at: DateTimeString): Promise<WebhookFailureCount | null>
  /** Clears an active endpoint's failure record after a success; false when there was none (or it is switched off: its record stays). */
  clearFailures(id: number): Promise<boolean>
  /**
   * Switches an active endpoint off (`active` false, `disabled_at` = `at`)
   * and cancels its pending deliveries (status `cancelled`, `error`): their
   * jobs then send nothing. False, and nothing changed, when it was not
   * active. Call it in a transaction.
   */
  switchOff(id: number, at: DateTimeString, error: string): Promise<boolean>
  /** One page of an endpoint's deliveries (`webhookDeliveryList`). */
  listDeliveries(endpointId: number, query: ListQuery): Promise<Page<WebhookDelivery>>
  /** Deletes up to `limit` deliveries created before `before`; returns how many. */
  deleteDeliveriesBefore(before: DateTimeString, limit: number): Promise<number>
}
