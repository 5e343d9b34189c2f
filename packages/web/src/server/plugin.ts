import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { installKnowledgeBasePages } from './kb/routes.js'
import { resolveOptions, type HelpdeskWebOptions } from './options.js'
import { DEFAULT_APP_DIR } from './paths.js'
import { installWebRateLimit } from './rate-limit.js'
import { installRemoteImages } from './remote-images.js'
import { installSecurityHeaders } from './security-headers.js'
import { installApp } from './spa.js'

async function helpdeskWebPlugin (host: FastifyInstance, raw: HelpdeskWebOptions): Promise<void> {
  if (!host.hasDecorator('helpdesk')) {
    throw new Error('@helpdesk/web: register @helpdesk/fastify before the console plugin (it reads through app.helpdesk).')
  }
  const options = resolveOptions(raw, DEFAULT_APP_DIR)
  // Its own encapsulated context: the console's headers and routes reach nothing of the host's.
  await host.register(async (app) => {
    // Pages, not API endpoints: kept out of the host's OpenAPI document (Swagger UI).
    app.addHook('onRoute', (route) => { route.schema = { ...route.schema, hide: true } })
    installSecurityHeaders(app)
    const limits = await installWebRateLimit(app, options)
    installKnowledgeBasePages(app, options, limits)
    installRemoteImages(app, options, limits)
    await installApp(app, options)
  })
}

/**
 * The web console as a Fastify plugin: the built single-page app (with SPA
 * fallback) and the server-rendered public knowledge base, mounted at
 * `prefix` (default `/`), and the console's proxy for remote images in
 * bodies. Register `@helpdesk/fastify` first, at `apiPrefix`.
 */
export const helpdeskWeb = fp(helpdeskWebPlugin, { name: '@helpdesk/web', fastify: '5.x', dependencies: ['@helpdesk/fastify'] })
export default helpdeskWeb
