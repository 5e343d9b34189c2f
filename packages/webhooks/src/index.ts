// Webhooks, a channel beside mail: the `webhook.deliver` job handler, the payloads (built from @helpdesk/shapes
// as the help desk itself sees a resource), the signing and the guarded POST. Which events go where is core's.
export { registerWebhookDelivery, type WebhookDeliveryOptions } from './webhook-delivery.js'
export { webhookBody } from './webhook-payload.js'
export { checkWebhookTarget, embeddedIPv4, guardedLookup, isPublicAddress, WebhookTargetError } from './webhook-targets.js'
