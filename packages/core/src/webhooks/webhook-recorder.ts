import type { DomainEvent, EventRecorder } from '../events.js'
import { loggedIdOf } from '../event-log/event-log.js'
import type { Store } from '../store.js'
import { endpointReceives, WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from './webhook.js'

/** The job that sends one delivery (its handler lives at the edge: it builds the body and does the HTTP). */
export const WEBHOOK_DELIVER_JOB = 'webhook.deliver'
/** With the default backoff (30 s doubling, capped at 4 h) the last attempt comes about a day after the first. */
export const WEBHOOK_MAX_ATTEMPTS = 15

/**
 * Inside the emitting transaction: one delivery row and one `webhook.deliver`
 * job per subscribed endpoint, so deliveries exist exactly when the change
 * committed. One query for the endpoints, two inserts, whatever their number.
 */
/**
 * The active endpoints, read once per transaction (a change often raises
 * several events); at most a second old, should an event be emitted on a
 * store that is not a transaction.
 */
const activeInTransaction = new WeakMap<Store, { at: number, endpoints: Promise<WebhookEndpoint[]> }>()

export const recordWebhookDeliveries: EventRecorder = async (tx: Store, event: DomainEvent) => {
  if (!WEBHOOK_EVENT_TYPES.includes(event.type)) return
  const eventId = loggedIdOf(event)
  if (eventId === null) return
  let active = activeInTransaction.get(tx)
  if (active === undefined || Date.now() - active.at > 1000) {
    active = { at: Date.now(), endpoints: tx.webhooks.active() }
    activeInTransaction.set(tx, active)
  }
  const endpoints = (await active.endpoints).filter((endpoint) => endpointReceives(endpoint, event.type))
  if (endpoints.length === 0) return
  const ids = await tx.webhooks.createDeliveries(endpoints.map((endpoint) => ({ endpoint_id: endpoint.id, event_id: eventId, event_type: event.type })))
  await tx.jobs.enqueue(ids.map((id) => ({ type: WEBHOOK_DELIVER_JOB, payload: { delivery_id: id }, maxAttempts: WEBHOOK_MAX_ATTEMPTS })))
}
