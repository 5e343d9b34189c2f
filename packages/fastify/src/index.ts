export { helpdesk, helpdesk as default } from './plugin.js'
export { buildHelpdesk, helpdeskMailSettings } from './services.js'
export { openapiOptions } from './http/openapi.js'
export { frameworkErrors } from './http/framework-errors.js'
export type {
  HelpdeskPluginOptions, HelpdeskPluginCommonOptions, HelpdeskPluginStoreOptions, HelpdeskPluginPrebuiltOptions, HelpdeskServiceOptions, HelpdeskMailOptions, RateLimitOptions, AuthenticateResult, EventStreamPluginOptions,
  InboundMailWorkerOptions
} from './options.js'
export type { RouteAuth } from './http/authentication.js'
export type { HelpdeskInbound } from './http/job-workers.js'
// Webhook delivery lives in @helpdesk/webhooks; re-exported for hosts that imported it from here.
export { registerWebhookDelivery, checkWebhookTarget, isPublicAddress, WebhookTargetError, type WebhookDeliveryOptions } from '@helpdesk/webhooks'
// For @helpdesk/web: its page limits and its remote-image proxy use the same Redis and the same address guard.
export { rateLimitRedis } from './http/rate-limit.js'
export { guardedLookup } from '@helpdesk/webhooks'
export { common as schemas } from '@helpdesk/shapes'
export {
  HelpdeskError, ValidationError, BadQueryError, UnauthenticatedError, ForbiddenError, NotFoundError,
  PayloadTooLargeError, UnavailableError, helpdeskErrors, isHelpdeskError, type HelpdeskErrorCode
} from '@helpdesk/core'
