import { defineList } from '../list/list-spec.js'
import { ArticleEventType } from '../knowledge-base/article-events.js'
import { NotificationType } from '../notifications/notification.js'
import { SatisfactionEventType } from '../satisfaction/satisfaction.js'
import { SlaEventType } from '../sla/sla-events.js'
import { TicketEventType } from '../tickets/ticket-events.js'
import type { DateTimeString } from '../time.js'
import { CustomerEventType } from '../users/customer-events.js'

/** Every event type an endpoint may subscribe to (`*` subscribes to all, including ones added later). */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [...new Set([
  ...Object.values(NotificationType).filter((type) => type !== NotificationType.WebhookEndpointDisabled),
  TicketEventType.TicketUpdated, TicketEventType.TicketDeleted, TicketEventType.CommentUpdated, TicketEventType.CommentDeleted,
  TicketEventType.TicketUnmerged, TicketEventType.TicketSplit,
  ...Object.values(CustomerEventType),
  ...Object.values(ArticleEventType),
  ...Object.values(SatisfactionEventType),
  ...Object.values(SlaEventType)
])]

export const WebhookEventType = {
  /** To administrators: an endpoint failed for so long it was switched off. */
  EndpointDisabled: 'Webhooks.EndpointDisabled'
} as const

/** A receiver of events, managed by administrators. Its secrets never leave the service except once, on creation or rotation. */
export interface WebhookEndpoint {
  id: number
  url: string
  /** Event types, or `['*']` for all. */
  events: string[]
  description: string | null
  active: boolean
  /** When the service switched it off after sustained failure (null when active, or switched off by hand). */
  disabled_at: DateTimeString | null
  /**
   * Failed attempts since the last success, counted while the endpoint is
   * active: it stays at the count that switched it off.
   */
  consecutive_failures: number
  /** When the current run of failures began; null after a success. */
  failing_since: DateTimeString | null
  created_at: DateTimeString
  updated_at: DateTimeString
}

/** The signing secrets: during a rotation's overlap the previous one signs too. */
export interface WebhookSecrets {
  current: string
  previous: string | null
  previous_expires_at: DateTimeString | null
}

/**
 * `pending` until it succeeds, gives up (`failed`), or is dropped unsent
 * (`cancelled`: its endpoint was switched off while it waited; it stays
 * redeliverable by its event id).
 */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled'

export const WEBHOOK_DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = ['pending', 'succeeded', 'failed', 'cancelled']

/** Webhook endpoints (`GET /webhooks`, administrators): paged like every list. */
export const webhookList = defineList({
  resource: 'webhooks',
  includes: [],
  sorts: ['id', 'created_at', 'url'],
  defaultSort: 'id',
  keyTypes: { id: 'int', created_at: 'datetime', url: 'string' },
  partialFilters: ['url', 'description'],
  /** `active`: 1 for endpoints that receive events, 0 for switched-off ones. */
  exactFilters: ['active']
})

/** An endpoint's deliveries, newest first (`GET /webhooks/{id}/deliveries`): paged like every list. */
export const webhookDeliveryList = defineList({
  resource: 'webhook deliveries',
  includes: [],
  sorts: ['id'],
  defaultSort: '-id',
  keyTypes: { id: 'int' },
  partialFilters: [],
  exactFilters: ['status', 'event_type', 'event_id']
})

export interface WebhookDelivery {
  id: number
  endpoint_id: number
  /** The event-log id: `Helpdesk-Event-Id`, the payload's `id`. */
  event_id: number
  event_type: string
  status: WebhookDeliveryStatus
  attempts: number
  response_status: number | null
  duration_ms: number | null
  error: string | null
  next_attempt_at: DateTimeString | null
  created_at: DateTimeString
  updated_at: DateTimeString
}

/** The longest url an endpoint may have. */
export const WEBHOOK_URL_MAX_LENGTH = 2048

/**
 * What is wrong with an endpoint's url, in words for the caller, or null:
 * http or https only, no credentials (the message never repeats them), at
 * most 2048 characters. Whether its host is a public address is the
 * delivery adapter's check, after this one.
 */
export function webhookUrlProblem (url: string): string | null {
  if (url.trim() === '') return 'The url field is required.'
  if (url.length > WEBHOOK_URL_MAX_LENGTH) return `The url may not be greater than ${WEBHOOK_URL_MAX_LENGTH} characters.`
  let parsed: URL
  try {
    parsed = new URL(url.trim())
  } catch {
    return 'The url must be an absolute http or https URL.'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    const scheme = parsed.protocol.slice(0, -1)
    return `The url's scheme "${scheme.length > 20 ? `${scheme.slice(0, 20)}...` : scheme}" is not allowed: use http or https.`
  }
  if (parsed.username !== '' || parsed.password !== '') return 'The url must not contain credentials (a user name or password): the endpoint\'s secret signs each delivery.'
  return null
}

export interface WebhookInput {
  url?: string
  events?: string[]
  description?: string | null
  active?: boolean
}

/** Whether an endpoint receives events of `type` (the subscription rule). */
export function endpointReceives (endpoint: Pick<WebhookEndpoint, 'active' | 'events'>, type: string): boolean {
  if (!endpoint.active) return false
  return endpoint.events.includes(type) || (endpoint.events.includes('*') && WEBHOOK_EVENT_TYPES.includes(type))
}

/** When an endpoint is switched off: every attempt failing for a day, or this many failed attempts in a row. */
export interface WebhookDisablePolicy {
  /** Default 24 hours. */
  failingForMs: number
  /** Default 100. */
  consecutiveFailures: number
}

export const DEFAULT_WEBHOOK_DISABLE_POLICY: WebhookDisablePolicy = { failingForMs: 24 * 60 * 60 * 1000, consecutiveFailures: 100 }

export function shouldDisable (endpoint: Pick<WebhookEndpoint, 'consecutive_failures' | 'failing_since'>, now: Date, policy: WebhookDisablePolicy): boolean {
  if (endpoint.consecutive_failures >= policy.consecutiveFailures) return true
  if (endpoint.failing_since === null) return false
  const since = Date.parse(`${endpoint.failing_since.replace(' ', 'T')}Z`)
  return now.getTime() - since >= policy.failingForMs
}
