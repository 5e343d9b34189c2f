import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Helpdesk, Store } from '@helpdesk/core'
import swagger from '@fastify/swagger'
import helpdeskPlugin, { buildHelpdesk, frameworkErrors, openapiOptions, type HelpdeskPluginPrebuiltOptions, type InboundMailWorkerOptions } from '@helpdesk/fastify'
import helpdeskWeb, { type HelpdeskWebOptions } from '@helpdesk/web'
import type { HelpdeskConfig } from './config.js'
import { trackRequestsInFlight } from './graceful-shutdown.js'

/** Where `helpdesk serve` shows Swagger UI (and `/docs/json`, the OpenAPI document). */
export const DOCS_PATH = '/docs'

/** The services the server runs, built from the configuration's service options (registration, where uploaded files live, sessions, mail) as the plugin builds them. */
export function helpdeskFor (config: HelpdeskConfig, store: Store): Helpdesk {
  const { registration, storageDir, sessions, signIn, mail } = config.plugin
  return buildHelpdesk(store, {
    registration, storageDir, ...(sessions !== undefined ? { sessions } : {}), ...(signIn !== undefined ? { signIn } : {}), ...(mail !== undefined ? { mail } : {})
  })
}

/**
 * The one place the configuration becomes the plugin's options: the HTTP ones
 * (the services were built by `helpdeskFor` with `registration`, `storageDir`,
 * `sessions` and the mail settings; of mail only the inbound secret stays with the plugin).
 */
export function pluginOptionsFor (config: HelpdeskConfig, helpdesk: Helpdesk): HelpdeskPluginPrebuiltOptions {
  const { registration: _registration, storageDir: _storageDir, sessions: _sessions, signIn: _signIn, mail, rateLimit, ...http } = config.plugin
  // `pageMax` is the web plugin's (`webOptionsFor`).
  const apiRateLimit = rateLimit === false ? false : (({ pageMax: _pageMax, ...api }) => api)(rateLimit)
  return { ...http, rateLimit: apiRateLimit, helpdesk, ...(mail?.inboundSecret !== undefined ? { mail: { inboundSecret: mail.inboundSecret } } : {}) }
}

/** The web plugin's pages count against a budget per IP (default 120 a window), in the API's Redis; `rateLimit.pageMax: 0` or `rateLimit: false` switches it off. */
export const DEFAULT_PAGE_RATE_LIMIT = 120

/**
 * The web plugin's options from the configuration: mounted at `/`, the public
 * URL of canonical links and the sitemap (`webUrl`), page limits in the API's
 * window and Redis, and the image proxy's address guard.
 */
export function webOptionsFor (config: HelpdeskConfig): HelpdeskWebOptions {
  const limits = config.plugin.rateLimit
  const pageMax = limits === false ? 0 : limits.pageMax ?? DEFAULT_PAGE_RATE_LIMIT
  return {
    prefix: '/',
    apiPrefix: config.plugin.prefix,
    ...(config.webUrl !== null ? { baseUrl: config.webUrl } : {}),
    rateLimit: limits === false || pageMax === 0
      ? false
      : {
          max: pageMax,
          ...(limits.timeWindow !== undefined ? { timeWindow: limits.timeWindow } : {}),
          ...(limits.redis !== undefined ? { redis: limits.redis } : {}),
          ...(limits.keyPrefix !== undefined ? { keyPrefix: limits.keyPrefix } : {})
        },
    remoteImages: { allowPrivateTargets: config.imageProxyAllowPrivateTargets }
  }
}

/**
 * The standalone server `helpdesk serve` runs: the plugin on a bare Fastify
 * app, with Swagger UI at /docs and (unless `web` is off) the web console and
 * the public knowledge-base pages at `/`.
 */
export async function buildServer (
  config: HelpdeskConfig, helpdesk: Helpdesk, options: { logger?: boolean, workers?: boolean, inboundMail?: InboundMailWorkerOptions | undefined } = {}
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false || config.logLevel === 'silent'
      ? false
      : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // URLs Fastify refuses before routing (broken escapes, over-long ids) get the contract's `{ message }` too.
    frameworkErrors
  })
  trackRequestsInFlight(app)
  // Every answer of the server, Swagger UI and its 404s included, not only the API's.
  // A callback hook, not an async one: it runs on every response.
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('x-content-type-options', 'nosniff')
    done(null, payload)
  })
  // Registered at the root so Swagger UI lists every route the plugin adds.
  await app.register(swagger, openapiOptions(config.plugin.prefix))
  installDocs(app)
  // The plugin runs the background jobs (imports, pruning, webhook deliveries) from ready to close, unless `--no-workers`,
  // and the inbound mail doors (SMTP listener, IMAP poller) of the configuration: the same place an embedding host uses.
  await app.register(helpdeskPlugin, {
    ...pluginOptionsFor(config, helpdesk), workers: options.workers ?? true, ...(options.inboundMail !== undefined ? { inboundMail: options.inboundMail } : {})
  })
  if (config.web) await app.register(helpdeskWeb, webOptionsFor(config))
  app.setNotFoundHandler(async (_request, reply) => await reply.code(404).send({ message: 'Not found.' }))
  return app
}

/**
 * Swagger UI's pages run only its own files (`@fastify/swagger-ui` serves the
 * initializer as a file, nothing is inline): scripts and styles from this
 * origin only, requests to this origin only (the document and "Try it out"),
 * never in a frame of another page.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'"
].join('; ')

/** Every answer under `DOCS_PATH`, whatever Swagger UI set. */
const DOCS_HEADERS: Record<string, string> = {
  'content-security-policy': DOCS_CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin'
}

/** Hop-by-hop and per-connection headers of the docs app's answer, which the server's own answer sets itself. */
const UNFORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date'])

/**
 * Swagger UI at `DOCS_PATH`, loaded with its first request: `@fastify/swagger-ui`
 * and the static-file stack it brings (`@fastify/static`, `@fastify/send`,
 * glob, minimatch, mime: about 80 files)
 * stay off the start-up path. It runs on a Fastify instance of its own that
 * never listens, given the document this server's `@fastify/swagger`
 * generates, and each request under `DOCS_PATH` is handed to it (`inject`);
 * what it does not know gets the server's own 404. Its answers carry
 * `DOCS_HEADERS`, and a token pasted into "Authorize" stays in the page's
 * memory (no `persistAuthorization`: it would keep it in this origin's
 * localStorage, which the console shares). `BaseLayout` leaves out the top
 * bar (a box to load another document, and a logo whose SVG carries an inline
 * `<style>` the policy refuses).
 */
function installDocs (app: FastifyInstance): void {
  let docs: Promise<FastifyInstance> | undefined
  const build = async (): Promise<FastifyInstance> => {
    const { default: swaggerUi } = await import('@fastify/swagger-ui')
    const ui = Fastify({ logger: false })
    // The document of the server (every route it has), under the name Swagger UI depends on.
    await ui.register(fp(async (instance) => { instance.decorate('swagger', app.swagger.bind(app)) }, { name: '@fastify/swagger' }))
    await ui.register(swaggerUi, { routePrefix: DOCS_PATH, uiConfig: { deepLinking: true, persistAuthorization: false, layout: 'BaseLayout' } })
    await ui.ready()
    return ui
  }
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    docs ??= build().catch((error: unknown) => { docs = undefined; throw error })
    const ui = await docs
    const answer = await ui.inject({ method: request.method as 'GET' | 'HEAD', url: request.url, headers: request.headers })
    if (answer.statusCode === 404) {
      reply.callNotFound()
      return reply
    }
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !UNFORWARDED.has(name)) void reply.header(name, value)
    }
    void reply.headers(DOCS_HEADERS)
    // A redirect or a 304 carries no body (and so no content type to invent).
    return await reply.code(answer.statusCode).send(answer.rawPayload.length > 0 ? answer.rawPayload : undefined)
  }
  const hide = { schema: { hide: true } }
  app.route({ method: ['GET', 'HEAD'], url: DOCS_PATH, handler, exposeHeadRoute: false, ...hide })
  app.route({ method: ['GET', 'HEAD'], url: `${DOCS_PATH}/*`, handler, exposeHeadRoute: false, ...hide })
  app.addHook('onClose', async () => { if (docs !== undefined) await (await docs.catch(() => null))?.close() })
}
