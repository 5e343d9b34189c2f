import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import { rateLimitRedis } from '@helpdesk/fastify'
import type { ResolvedWebOptions } from './options.js'

/** The buckets, each counted per client IP: KB pages and the sitemap, KB searches, remote images. */
export type WebBucket = 'pages' | 'search' | 'images'

/** What a route does when its bucket is empty: answers 429 with `Retry-After` (seconds) in its own format. */
export type TooManyRequests = (request: FastifyRequest, reply: FastifyReply, retryAfterSeconds: number) => FastifyReply | Promise<FastifyReply>

export interface WebLimits {
  /** The onRequest hook of a route in `bucket`; null when rate limiting is off. */
  hook: (bucket: WebBucket, answer: TooManyRequests) => onRequestAsyncHookHandler | null
}

/**
 * Rate limits of the web plugin's public routes with the API plugin's
 * mechanism: @fastify/rate-limit, counting in the same Redis when one is
 * configured (`rateLimitRedis`), so several instances share one budget; in
 * memory otherwise. Keyed on the client's IP (`request.ip`: set Fastify's
 * `trustProxy` behind a proxy), with keys of their own (`web-pages:`,
 * `web-search:`, `web-images:`) beside the API's. Registered with
 * `global: false` in the plugin's context: only the routes given a hook count.
 */
export async function installWebRateLimit (app: FastifyInstance, options: ResolvedWebOptions): Promise<WebLimits> {
  const settings = options.rateLimit
  if (settings === false) return { hook: () => null }
  const { redis, close } = await rateLimitRedis(settings.redis)
  app.addHook('onClose', close)
  await app.register(rateLimit, {
    global: false,
    timeWindow: settings.timeWindow,
    nameSpace: settings.keyPrefix,
    // Redis down: the pages stay up, unlimited, as the API does.
    skipOnError: true,
    ...(redis !== undefined ? { redis } : {})
  })
  const max: Record<WebBucket, number> = { pages: settings.max, search: settings.searchMax, images: settings.imageMax }
  return {
    hook: (bucket, answer) => {
      const check = app.createRateLimit({
        max: max[bucket],
        timeWindow: settings.timeWindow,
        keyGenerator: (request: FastifyRequest) => `web-${bucket}:${request.ip}`
      })
      return async (request, reply) => {
        const result = await check(request)
        if (result.isAllowed || !result.isExceeded) return
        const seconds = Math.max(1, result.ttlInSeconds)
        await answer(request, reply.code(429).header('retry-after', seconds), seconds)
        // Answered: the route's handler does not run.
        return reply
      }
    }
  }
}
