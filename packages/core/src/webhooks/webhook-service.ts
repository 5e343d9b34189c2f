import { randomBytes } from 'node:crypto'
import { nowString, type ServiceContext } from '../context.js'
import { NotFoundError, ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { formatDateTime } from '../time.js'
import { ensure } from '../users/user-policy.js'
import { actsAsAdmin, type Actor, type ActorInput } from '../users/actor.js'
import { WEBHOOK_DELIVER_JOB, WEBHOOK_MAX_ATTEMPTS } from './webhook-recorder.js'
import type { WebhookDeliveryPatch } from './webhook-store.js'
import type { LoggedEvent } from '../event-log/event-log.js'
import {
  DEFAULT_WEBHOOK_DISABLE_POLICY, shouldDisable, WEBHOOK_EVENT_TYPES, WebhookEventType,
  type WebhookDelivery, type WebhookDeliveryStatus, type WebhookDisablePolicy, type WebhookEndpoint, type WebhookInput, type WebhookSecrets
} from './webhook.js'

/** How long a rotated-out secret keeps signing by default. */
export const WEBHOOK_SECRET_OVERLAP_SECONDS = 24 * 60 * 60
/** How long deliveries stay listed. */
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 14

export function canManageWebhooks (actor: ActorInput): boolean {
  return actsAsAdmin(actor)
}

function newSecret (): string {
  return `whsec_${randomBytes(24).toString('base64url')}`
}

/** What one attempt came to, as the delivery adapter saw it. */
export interface WebhookAttemptOutcome {
  ok: boolean
  response_status: number | null
  duration_ms: number
  error: string | null
  /** When it is tried again; null: not again (succeeded, or given up). */
  next_attempt_at: string | null
  /** The body built for this first attempt, kept with its outcome so later attempts resend these bytes. */
  body?: string
}

/** Everything the delivery adapter needs for one attempt. */
export interface WebhookDeliveryWork {
  delivery: WebhookDelivery
  endpoint: WebhookEndpoint
  /** The secrets that sign now (the previous one only during its overlap). */
  secrets: string[]
  body: string | null
}

function checkedInput (input: WebhookInput, creating: boolean): FieldErrors {
  const errors: FieldErrors = {}
  if (input.url !== undefined || creating) {
    const url = input.url ?? ''
    let parsed: URL | null = null
    try { parsed = new URL(url) } catch { /* below */ }
    if (url.trim() === '') errors.url = ['The url field is required.']
    else if (parsed === null || !['http:', 'https:'].includes(parsed.protocol) || url.length > 2048) errors.url = ['The url must be an http or https URL of at most 2048 characters.']
    else if (parsed.username !== '' || parsed.password !== '') errors.url = ['The url must not contain credentials.']
  }
  if (input.events !== undefined || creating) {
    const events = input.events ?? []
    if (events.length === 0) errors.events = ['Name at least one event type, or "*".']
    const unknown = events.filter((type) => type !== '*' && !WEBHOOK_EVENT_TYPES.includes(type))
    if (unknown.length > 0) errors.events = [`Unknown event types: ${unknown.join(', ')}.`]
  }
  if (input.description !== undefined && input.description !== null && input.description.length > 255) {
    errors.description = ['The description may not be greater than 255 characters.']
  }
  return errors
}

/**
 * Webhook endpoints and their deliveries: administrators only. Deliveries
 * are created by `recordWebhookDeliveries` with the event; the adapter at the
 * edge sends them (`webhook.deliver` jobs) and reports each attempt here.
 */
export class WebhookService {
  constructor (private readonly ctx: ServiceContext) {}

  /** Every endpoint (the CLI's `webhooks:list` passes `SYSTEM`). */
  async list (actor: ActorInput): Promise<WebhookEndpoint[]> {
    ensure(canManageWebhooks(actor))
    return await this.ctx.store.webhooks.list()
  }

  async view (actor: ActorInput, id: number): Promise<WebhookEndpoint> {
    ensure(canManageWebhooks(actor))
    return await this.ctx.store.webhooks.findById(id) ?? notFound()
  }

  /** The new endpoint and its secret (shown this once). */
  async create (actor: ActorInput, input: WebhookInput): Promise<{ endpoint: WebhookEndpoint, secret: string }> {
    ensure(canManageWebhooks(actor))
    throwIfInvalid(checkedInput(input, true))
    const secret = newSecret()
    const endpoint = await this.ctx.store.webhooks.create({
      url: input.url!.trim(), events: [...new Set(input.events)], description: input.description ?? null, active: input.active ?? true, secret
    })
    return { endpoint, secret }
  }

  /** Switching an endpoint back on clears its failure record. */
  async update (actor: ActorInput, id: number, input: WebhookInput): Promise<WebhookEndpoint> {
    const current = await this.view(actor, id)
    throwIfInvalid(checkedInput(input, false))
    const reactivated = input.active === true && !current.active
    return await this.ctx.store.webhooks.update(id, {
      ...(input.url !== undefined ? { url: input.url.trim() } : {}),
      ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(reactivated ? { disabled_at: null, consecutive_failures: 0, failing_since: null } : {})
    }) ?? notFound()
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    ensure(canManageWebhooks(actor))
    if (!await this.ctx.store.webhooks.delete(id)) notFound()
  }

  /** A new secret; the old one keeps signing (a second `v1`) for `overlapSeconds`. */
  async rotateSecret (actor: ActorInput, id: number, overlapSeconds = WEBHOOK_SECRET_OVERLAP_SECONDS): Promise<{ endpoint: WebhookEndpoint, secret: string }> {
    ensure(canManageWebhooks(actor))
    if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > 7 * 24 * 3600) {
      throw ValidationError.field('overlap_seconds', 'The overlap must be from 0 to 604800 seconds.')
    }
    const secret = newSecret()
    const until = formatDateTime(new Date(this.ctx.clock.now().getTime() + overlapSeconds * 1000))
    if (!await this.ctx.store.webhooks.rotateSecret(id, secret, until)) notFound()
    return { endpoint: await this.ctx.store.webhooks.findById(id) ?? notFound(), secret }
  }

  async deliveries (actor: Actor, id: number, filter: { status?: WebhookDeliveryStatus, limit?: number } = {}): Promise<WebhookDelivery[]> {
    await this.view(actor, id)
    return await this.ctx.store.webhooks.listDeliveries(id, { ...filter, limit: Math.min(Math.max(filter.limit ?? 50, 1), 100) })
  }

  /** Sends a past delivery again: a new delivery of the same event with the same bytes. */
  async redeliver (actor: Actor, id: number, deliveryId: number): Promise<WebhookDelivery> {
    await this.view(actor, id)
    const delivery = await this.ctx.store.webhooks.findDelivery(deliveryId)
    if (delivery === null || delivery.endpoint_id !== id) throw new NotFoundError('Delivery')
    const body = await this.ctx.store.webhooks.bodyOf(deliveryId)
    return await this.enqueue(id, delivery.event_id, delivery.event_type, body)
  }

  /** Sends any event still in the event log to this endpoint (subscribed to it or not). */
  async redeliverEvent (actor: Actor, id: number, eventId: number): Promise<WebhookDelivery> {
    await this.view(actor, id)
    const [event] = await this.ctx.store.eventLog.findByIds([eventId])
    if (event === undefined || !WEBHOOK_EVENT_TYPES.includes(event.type)) throw ValidationError.field('event_id', 'No such event in the event log.')
    return await this.enqueue(id, event.id, event.type, null)
  }

  /** For the delivery adapter: the delivery with its endpoint, signing secrets and stored body; null when gone. */
  async work (deliveryId: number): Promise<WebhookDeliveryWork | null> {
    const found = await this.ctx.store.webhooks.deliveryWork(deliveryId)
    if (found === null) return null
    return { ...found, secrets: signingSecrets(found.secrets, nowString(this.ctx)) }
  }

  /** For the delivery adapter: the logged event a delivery sends, or null once it left the event log. */
  async eventOf (work: WebhookDeliveryWork): Promise<LoggedEvent | null> {
    const [event] = await this.ctx.store.eventLog.findByIds([work.delivery.event_id])
    return event ?? null
  }

  /** Marks a delivery failed without an attempt (its endpoint was switched off). */
  async abandon (deliveryId: number, error: string): Promise<void> {
    await this.ctx.store.webhooks.updateDelivery(deliveryId, { status: 'failed', error, next_attempt_at: null })
  }

  /** Keeps the body built for the first attempt: retries resend these bytes. */
  async storeBody (deliveryId: number, body: string): Promise<void> {
    await this.ctx.store.webhooks.updateDelivery(deliveryId, { body })
  }

  /**
   * Records an attempt on the delivery and its endpoint. Failure after failure
   * (`policy`) switches the endpoint off and tells the administrators
   * (`Webhooks.EndpointDisabled`), in one transaction. Returns whether it did.
   */
  async recordAttempt (work: WebhookDeliveryWork, outcome: WebhookAttemptOutcome, policy: WebhookDisablePolicy = DEFAULT_WEBHOOK_DISABLE_POLICY): Promise<boolean> {
    const { events, store } = this.ctx
    const status: WebhookDeliveryStatus = outcome.ok ? 'succeeded' : outcome.next_attempt_at === null ? 'failed' : 'pending'
    const patch: WebhookDeliveryPatch = {
      status, attempts: work.delivery.attempts + 1, response_status: outcome.response_status, duration_ms: outcome.duration_ms,
      error: outcome.error, next_attempt_at: outcome.next_attempt_at, ...(outcome.body !== undefined ? { body: outcome.body } : {})
    }
    // The common case, a success on a healthy endpoint: one statement.
    if (outcome.ok && work.endpoint.consecutive_failures === 0) {
      await store.webhooks.updateDelivery(work.delivery.id, patch)
      return false
    }
    return await events.transaction(store, async (tx) => {
      await tx.webhooks.updateDelivery(work.delivery.id, patch)
      const endpoint = await tx.webhooks.findById(work.endpoint.id)
      if (endpoint === null) return false
      if (outcome.ok) {
        if (endpoint.consecutive_failures > 0) await tx.webhooks.update(endpoint.id, { consecutive_failures: 0, failing_since: null })
        return false
      }
      const failing = { consecutive_failures: endpoint.consecutive_failures + 1, failing_since: endpoint.failing_since ?? nowString(this.ctx) }
      const disable = endpoint.active && shouldDisable(failing, this.ctx.clock.now(), policy)
      const updated = await tx.webhooks.update(endpoint.id, disable ? { ...failing, active: false, disabled_at: nowString(this.ctx) } : failing)
      if (disable && updated !== null) {
        await events.emit(tx, {
          type: WebhookEventType.EndpointDisabled,
          actor_id: null,
          webhook: { id: updated.id, url: updated.url, consecutive_failures: updated.consecutive_failures, failing_since: updated.failing_since }
        })
      }
      return disable
    })
  }

  private async enqueue (endpointId: number, eventId: number, eventType: string, body: string | null): Promise<WebhookDelivery> {
    return await this.ctx.store.transaction(async (tx) => {
      const [id] = await tx.webhooks.createDeliveries([{ endpoint_id: endpointId, event_id: eventId, event_type: eventType, body }])
      await tx.jobs.enqueue([{ type: WEBHOOK_DELIVER_JOB, payload: { delivery_id: id }, maxAttempts: WEBHOOK_MAX_ATTEMPTS }])
      return await tx.webhooks.findDelivery(id!) ?? notFound()
    })
  }
}

function signingSecrets (secrets: WebhookSecrets, now: string): string[] {
  const overlap = secrets.previous !== null && secrets.previous_expires_at !== null && secrets.previous_expires_at > now
  return overlap ? [secrets.current, secrets.previous!] : [secrets.current]
}

function notFound (): never {
  throw new NotFoundError('Webhook')
}
