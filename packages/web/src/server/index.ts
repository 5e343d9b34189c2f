export { helpdeskWeb, helpdeskWeb as default } from './plugin.js'
export type { HelpdeskWebOptions } from './options.js'
export { CONTENT_SECURITY_POLICY } from './security-headers.js'
