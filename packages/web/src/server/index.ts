export { helpdeskWeb, helpdeskWeb as default } from './plugin.js'
export type { HelpdeskWebOptions, RemoteImageOptions, WebRateLimitOptions } from './options.js'
export { CONTENT_SECURITY_POLICY, KB_CONTENT_SECURITY_POLICY } from './security-headers.js'
