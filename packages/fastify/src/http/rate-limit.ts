import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { Redis } from 'ioredis'
import type { RateLimitOptions } from '../options.js'

export const DEFAULT_RATE_LIMIT = 600
export const DEFAULT_LOGIN_LIMIT = 10
const DEFAULT_WINDOW = 60_000

const RESET = 'x-ratelimit-reset'

/**
 * Per user once their token (or session cookie) is verified, so every token and session of one
 * account shares one budget; else per IP: an unknown, revoked, expired or malformed token counts
 * against the caller's IP (CONTRACT §17).
 */
function callerKey (request: FastifyRequest): string {
  const verified = request.verifiedToken
  return verified === null ? `ip:${request.ip}` : `user:${verified.user.id}`
}

/** Login attempts: per email and IP together (CONTRACT §16). */
export function loginKey (request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined
  const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''
  return `login:${request.ip}:${email}`
}

/** The 429 the error handler turns into `{ message }`. */
function tooManyRequests (retryAfterSeconds: number): Error & { statusCode: number } {
  const error = new Error(`Too many requests. Retry in ${retryAfterSeconds} seconds.`) as Error & { statusCode: number }
  error.statusCode = 429
  return error
}

/**
 * Registers @fastify/rate-limit in the plugin's context: every request,
 * unknown routes included, counts against the caller's budget. Headers: X-RateLimit-Limit and
 * X-RateLimit-Remaining on every response, Retry-After (seconds) and
 * X-RateLimit-Reset on 429. @fastify/rate-limit sends X-RateLimit-Reset as
 * seconds until the reset; the contract wants the unix time of the reset, so
 * an onSend hook rewrites it. Returns what to run when the app closes.
 */
export async function installRateLimit (app: FastifyInstance, options: RateLimitOptions): Promise<() => Promise<void>> {
  const { redis, close } = await rateLimitRedis(options.redis)
  await app.register(rateLimit, {
    global: true,
    max: options.max ?? DEFAULT_RATE_LIMIT,
    timeWindow: options.timeWindow ?? DEFAULT_WINDOW,
    keyGenerator: callerKey,
    nameSpace: options.keyPrefix ?? 'helpdesk-rl:',
    skipOnError: true,
    ...(redis !== undefined ? { redis } : {}),
    errorResponseBuilder: (_request, context) => tooManyRequests(Math.ceil(context.ttl / 1000))
  })
  // Routes get their limiter from @fastify/rate-limit; unknown routes (the 404 handler) count too.
  const limitUnknownRoute = app.rateLimit()
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) await limitUnknownRoute.call(app, request, reply)
  })
  app.addHook('onSend', async (_request, reply, payload) => {
    const secondsLeft = reply.getHeader(RESET)
    if (secondsLeft !== undefined) reply.header(RESET, Math.ceil(Date.now() / 1000) + Number(secondsLeft))
    return payload
  })
  return close
}

/**
 * The counters' Redis client of a `redis` option: a URL is connected here
 * (and `close` quits it), a client is the host's own (`close` leaves it).
 * Also used by `@helpdesk/web` for its page limits, so they count in the same Redis.
 */
export async function rateLimitRedis (option: RateLimitOptions['redis']): Promise<{ redis: Redis | undefined, close: () => Promise<void> }> {
  if (typeof option !== 'string') return { redis: option, close: async () => {} }
  // Loaded only when configured: startup without Redis does not pay for the client.
  const { Redis: RedisClient } = await import('ioredis')
  const redis = new RedisClient(option, { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2000 })
  return { redis, close: async () => { await redis.quit() } }
}

/**
 * The login route's stricter limit, per email and IP (CONTRACT §2), on top of
 * the caller's general budget. A preHandler, so the body (the email) is
 * parsed; @fastify/rate-limit's own route limiter would be skipped because the
 * global limiter already ran for the request, hence `createRateLimit`.
 * Empty when rate limiting is off.
 */
export function loginRateLimit (app: FastifyInstance, options: RateLimitOptions | false | undefined): preHandlerAsyncHookHandler[] {
  if (options === false || options === undefined || typeof app.createRateLimit !== 'function') return []
  const check = app.createRateLimit({
    max: options.loginMax ?? DEFAULT_LOGIN_LIMIT,
    timeWindow: options.timeWindow ?? DEFAULT_WINDOW,
    keyGenerator: loginKey
  })
  return [async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await check(request)
    if (result.isAllowed || !result.isExceeded) return
    void reply.header('x-ratelimit-limit', result.max)
    void reply.header('x-ratelimit-remaining', 0)
    void reply.header(RESET, result.ttlInSeconds)
    void reply.header('retry-after', result.ttlInSeconds)
    throw tooManyRequests(result.ttlInSeconds)
  }]
}
