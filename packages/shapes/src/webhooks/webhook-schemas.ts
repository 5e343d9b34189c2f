import { Type, type Static } from '@sinclair/typebox'
import type { WebhookDelivery as DeliveryEntity, WebhookEndpoint } from '@helpdesk/core'
import { DateTime, Nullable, NullableDateTime } from '../common.js'

const EventTypes = Type.Array(Type.String({ maxLength: 100 }), {
  minItems: 1, maxItems: 100, description: 'Event types (docs/webhooks.md), or `["*"]` for all.', examples: [['Tickets.TicketCreated', 'Tickets.CommentAdded']]
})

export const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  active: Type.Boolean(),
  disabled_at: Nullable(DateTime),
  consecutive_failures: Type.Integer({ description: 'Failed attempts since the last success, counted while the endpoint is active (docs/webhooks.md).' }),
  failing_since: Type.Union([DateTime, Type.Null()], { description: 'When the current run of failures began; null after a success.' }),
  created_at: DateTime,
  updated_at: DateTime
})

export const WebhookWithSecret = Type.Intersect([Webhook, Type.Object({
  secret: Type.String({ description: 'The signing secret, shown this once (docs/webhooks.md).' })
})])

export const WebhookCreate = Type.Object({
  url: Type.String({ maxLength: 2048 }),
  events: EventTypes,
  description: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  active: Type.Optional(Type.Boolean())
}, { examples: [{ url: 'https://example.com/helpdesk-hook', events: ['*'], description: 'CRM sync' }] })

export const WebhookUpdate = Type.Partial(WebhookCreate, { description: 'Absent keys keep their value; `active: true` switches a disabled endpoint back on.' })

export const RotateSecretBody = Type.Object({
  overlap_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 604800, description: 'How long the old secret keeps signing too. Default 86400.' }))
}, { examples: [{ overlap_seconds: 3600 }] })

export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  event_id: Type.Integer(),
  event_type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('cancelled')], {
    description: '`cancelled`: dropped unsent when the endpoint was switched off; redeliverable by its event id.'
  }),
  attempts: Type.Integer(),
  response_status: Nullable(Type.Integer()),
  duration_ms: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  next_attempt_at: NullableDateTime,
  created_at: DateTime,
  updated_at: DateTime
})

export const DeliveryParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  delivery_id: Type.Integer({ minimum: 1 })
})

export const RedeliverEventBody = Type.Object({ event_id: Type.Integer({ minimum: 1, description: 'An event-log id (a payload\'s `id`).' }) }, { examples: [{ event_id: 1842 }] })

export function presentWebhook (endpoint: WebhookEndpoint): Static<typeof Webhook> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    active: endpoint.active,
    disabled_at: endpoint.disabled_at,
    consecutive_failures: endpoint.consecutive_failures,
    failing_since: endpoint.failing_since,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at
  }
}

export function presentDelivery (delivery: DeliveryEntity): Static<typeof WebhookDelivery> {
  const { endpoint_id: _endpoint, ...shown } = delivery
  return shown
}
