import { audit } from '../audit/audit-log.js'
import { randomBytes } from 'node:crypto'
import { nowString, type ServiceContext } from '../context.js'
import { NotFoundError, ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { formatDateTime } from '../time.js'
import { ensure } from '../users/user-policy.js'
import { actsAsAdmin, type ActorInput } from '../users/actor.js'
import { WEBHOOK_DELIVER_JOB, WEBHOOK_MAX_ATTEMPTS } from './webhook-recorder.js'
import type { WebhookAttemptRecord, WebhookDeliveryWorkRow } from './webhook-store.js'
import type { LoggedEvent } from '../event-log/event-log.js'
import type { ListQuery, Page } from '../list/list-query.js'
import { TurnBatch } from '../turn-batch.js'
import {
  DEFAULT_WEBHOOK_DISABLE_POLICY, shouldDisable, WEBHOOK_EVENT_TYPES, WebhookEventType, webhookUrlProblem,
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
    const problem = webhookUrlProblem(input.url ?? '')
    if (problem !== null) errors.url = [problem]
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
  /** The deliveries the adapter asks for in one turn, read together. */
  private readonly works: TurnBatch<number, WebhookDeliveryWorkRow | null>
  /** Their logged events, read together. */
  private readonly loggedEvents: TurnBatch<number, LoggedEvent | null>
  /** Attempts on healthy endpoints, written together (group commit). */
  private readonly attempts: TurnBatch<WebhookAttemptRecord, void>

  constructor (private readonly ctx: ServiceContext) {
    this.works = new TurnBatch(async (ids) => {
      const found = new Map((await ctx.store.webhooks.deliveryWork(ids)).map((row) => [row.delivery.id, row]))
      return ids.map((id) => found.get(id) ?? null)
    })
    this.loggedEvents = new TurnBatch(async (ids) => {
      const found = new Map((await ctx.store.eventLog.findByIds([...new Set(ids)])).map((event) => [event.id, event]))
      return ids.map((id) => found.get(id) ?? null)
    })
    this.attempts = new TurnBatch(async (records) => {
      await ctx.store.webhooks.recordAttempts(records)
      return []
    })
  }

  /** Every endpoint (the CLI's `webhooks:list` passes `SYSTEM`). */
  async list (actor: ActorInput): Promise<WebhookEndpoint[]> {
    ensure(canManageWebhooks(actor))
    return await this.ctx.store.webhooks.list()
  }

  /** A page of endpoints (`GET /webhooks`), administrators only. */
  async page (actor: ActorInput, query: ListQuery): Promise<Page<WebhookEndpoint>> {
    ensure(canManageWebhooks(actor))
    return await this.ctx.store.webhooks.page(query)
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
    const endpoint = await this.ctx.store.transaction(async (tx) => {
      const created = await tx.webhooks.create({
        url: input.url!.trim(), events: [...new Set(input.events)], description: input.description ?? null, active: input.active ?? true, secret
      })
      await audit(tx, actor, { action: 'webhook.created', subject_type: 'webhook', subject_id: created.id, after: created })
      return created
    })
    return { endpoint, secret }
  }

  /** Switching an endpoint back on clears its failure record. */
  async update (actor: ActorInput, id: number, input: WebhookInput): Promise<WebhookEndpoint> {
    const current = await this.view(actor, id)
    throwIfInvalid(checkedInput(input, false))
    const reactivated = input.active === true && !current.active
    return await this.ctx.store.transaction(async (tx) => {
      const updated = await tx.webhooks.update(id, {
        ...(input.url !== undefined ? { url: input.url.trim() } : {}),
        ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(reactivated ? { disabled_at: null, consecutive_failures: 0, failing_since: null } : {})
      }) ?? notFound()
      await audit(tx, actor, { action: 'webhook.updated', subject_type: 'webhook', subject_id: id, before: current, after: updated })
      return updated
    })
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    ensure(canManageWebhooks(actor))
    await this.ctx.store.transaction(async (tx) => {
      const before = await tx.webhooks.findById(id)
      if (before === null || !await tx.webhooks.delete(id)) notFound()
      await audit(tx, actor, { action: 'webhook.deleted', subject_type: 'webhook', subject_id: id, before })
    })
  }

  /** A new secret; the old one keeps signing (a second `v1`) for `overlapSeconds`. */
  async rotateSecret (actor: ActorInput, id: number, overlapSeconds = WEBHOOK_SECRET_OVERLAP_SECONDS): Promise<{ endpoint: WebhookEndpoint, secret: string }> {
    ensure(canManageWebhooks(actor))
    if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > 7 * 24 * 3600) {
      throw ValidationError.field('overlap_seconds', 'The overlap must be from 0 to 604800 seconds.')
    }
    const secret = newSecret()
    const until = formatDateTime(new Date(this.ctx.clock.now().getTime() + overlapSeconds * 1000))
    const endpoint = await this.ctx.store.transaction(async (tx) => {
      if (!await tx.webhooks.rotateSecret(id, secret, until)) notFound()
      // The secrets themselves never reach the log: only that one was rotated, and how long the old one still signs.
      await audit(tx, actor, { action: 'webhook.secret_rotated', subject_type: 'webhook', subject_id: id, after: { previous_signs_until: until } })
      return await tx.webhooks.findById(id) ?? notFound()
    })
    return { endpoint, secret }
  }

  /** One page of an endpoint's deliveries, newest first (`webhookDeliveryList`: filters status, event type, event id). */
  async deliveries (actor: ActorInput, id: number, query: ListQuery): Promise<Page<WebhookDelivery>> {
    await this.view(actor, id)
    return await this.ctx.store.webhooks.listDeliveries(id, query)
  }

  /** Sends a past delivery again: a new delivery of the same event with the same bytes. */
  async redeliver (actor: ActorInput, id: number, deliveryId: number): Promise<WebhookDelivery> {
    await this.view(actor, id)
    const delivery = await this.ctx.store.webhooks.findDelivery(deliveryId)
    if (delivery === null || delivery.endpoint_id !== id) throw new NotFoundError('Delivery')
    const body = await this.ctx.store.webhooks.bodyOf(deliveryId)
    return await this.enqueue(id, delivery.event_id, delivery.event_type, body)
  }

  /** Sends any event still in the event log to this endpoint (subscribed to it or not). */
  async redeliverEvent (actor: ActorInput, id: number, eventId: number): Promise<WebhookDelivery> {
    await this.view(actor, id)
    const [event] = await this.ctx.store.eventLog.findByIds([eventId])
    if (event === undefined || !WEBHOOK_EVENT_TYPES.includes(event.type)) throw ValidationError.field('event_id', 'No such event in the event log.')
    return await this.enqueue(id, event.id, event.type, null)
  }

  /**
   * For the delivery adapter: the delivery with its endpoint, signing secrets
   * and stored body; null when gone. The deliveries asked for in one turn
   * (a claimed batch of jobs) are read with one query.
   */
  async work (deliveryId: number): Promise<WebhookDeliveryWork | null> {
    const found = await this.works.add(deliveryId)
    if (found === null) return null
    return { ...found, secrets: signingSecrets(found.secrets, nowString(this.ctx)) }
  }

  /** For the delivery adapter: the logged event a delivery sends, or null once it left the event log (one query per turn, like `work`). */
  async eventOf (work: WebhookDeliveryWork): Promise<LoggedEvent | null> {
    return await this.loggedEvents.add(work.delivery.event_id)
  }

  /** Settles a delivery without an attempt: `failed` (its event left the log), or `cancelled` (its endpoint is switched off). */
  async abandon (deliveryId: number, error: string, status: 'failed' | 'cancelled' = 'failed'): Promise<void> {
    await this.ctx.store.webhooks.updateDelivery(deliveryId, { status, error, next_attempt_at: null })
  }

  /** Keeps the body built for the first attempt: retries resend these bytes. */
  async storeBody (deliveryId: number, body: string): Promise<void> {
    await this.ctx.store.webhooks.updateDelivery(deliveryId, { body })
  }

  /**
   * Records an attempt on the delivery and its endpoint. Failures are
   * counted in the database itself (no count read first, so concurrent
   * workers on any number of instances lose none); the failure that reaches
   * the `policy` switches the endpoint off, cancels its pending deliveries
   * and tells the administrators (`Webhooks.EndpointDisabled`), all in one
   * transaction. Returns true when the delivery must not be retried: its
   * endpoint is switched off (by this failure or before), so a retry it
   * would have had is cancelled.
   */
  async recordAttempt (work: WebhookDeliveryWork, outcome: WebhookAttemptOutcome, policy: WebhookDisablePolicy = DEFAULT_WEBHOOK_DISABLE_POLICY): Promise<boolean> {
    const { events, store } = this.ctx
    const status: WebhookDeliveryStatus = outcome.ok ? 'succeeded' : outcome.next_attempt_at === null ? 'failed' : 'pending'
    const record: WebhookAttemptRecord = {
      delivery_id: work.delivery.id, status, response_status: outcome.response_status, duration_ms: outcome.duration_ms,
      error: outcome.error, next_attempt_at: outcome.next_attempt_at, ...(outcome.body !== undefined ? { body: outcome.body } : {})
    }
    // The common case, a success on a healthy endpoint: written with the other outcomes of its turn, one statement for all.
    if (outcome.ok && work.endpoint.consecutive_failures === 0) {
      await this.attempts.add(record)
      return false
    }
    if (outcome.ok) {
      await store.transaction(async (tx) => {
        await tx.webhooks.clearFailures(work.endpoint.id)
        await tx.webhooks.recordAttempts([record])
      })
      return false
    }
    return await events.transaction(store, async (tx) => {
      // The endpoint first: its row lock orders concurrent failures of one endpoint.
      const now = nowString(this.ctx)
      const failing = await tx.webhooks.recordFailure(work.endpoint.id, now)
      let stopped = failing === null
      if (failing !== null && shouldDisable(failing, this.ctx.clock.now(), policy)) {
        stopped = true
        if (await tx.webhooks.switchOff(work.endpoint.id, now, 'Dropped unsent: the endpoint was switched off.')) {
          await events.emit(tx, {
            type: WebhookEventType.EndpointDisabled,
            actor_id: null,
            webhook: { id: work.endpoint.id, url: work.endpoint.url, consecutive_failures: failing.consecutive_failures, failing_since: failing.failing_since }
          })
        }
      }
      // A retry it would have had is dropped with the endpoint's other pending deliveries.
      const dropped = stopped && record.status === 'pending'
      await tx.webhooks.recordAttempts([dropped
        ? { ...record, status: 'cancelled', next_attempt_at: null, error: `${record.error ?? 'Failed'}; not retried: the endpoint is switched off.` }
        : record])
      return stopped
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
