import { createHash } from 'node:crypto'
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Redis } from 'ioredis'
import type { RateLimitOptions } from '../options.js'
import { bearerToken } from './authentication.js'

export const DEFAULT_RATE_LIMIT = 600
export const DEFAULT_LOGIN_LIMIT = 10

/** Per token when one is presented (hashed: the raw token never becomes a counter key), else per IP. */
function callerKey (request: FastifyRequest): string {
  const token = bearerToken(request)
  return token === null ? `ip:${request.ip}` : `token:${createHash('sha256').update(token).digest('hex')}`
}

/** Login attempts: per email and IP together (CONTRACT §16). */
export function loginKey (request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined
  const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''
  return `login:${request.ip}:${email}`
}

/**
 * Registers @fastify/rate-limit in the plugin's context: every route counts
 * against the caller's budget; the login route has its own stricter limit
 * (set on the route through `loginRateLimit`). Headers: X-RateLimit-Limit,
 * X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After on 429.
 */
export async function installRateLimit (app: FastifyInstance, options: RateLimitOptions): Promise<() => Promise<void>> {
  let redis: Redis | undefined
  let ownRedis = false
  if (typeof options.redis === 'string') {
    redis = new Redis(options.redis, { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2000 })
    ownRedis = true
  } else if (options.redis !== undefined) {
    redis = options.redis
  }
  await app.register(rateLimit, {
    global: true,
    max: options.max ?? DEFAULT_RATE_LIMIT,
    timeWindow: options.timeWindow ?? 60_000,
    keyGenerator: callerKey,
    nameSpace: 'helpdesk-rl:',
    skipOnError: true,
    ...(redis !== undefined ? { redis } : {}),
    errorResponseBuilder: (_request, context) => {
      const error = new Error(`Too many requests. Retry in ${Math.ceil(context.ttl / 1000)} seconds.`) as Error & { statusCode: number }
      error.statusCode = context.statusCode
      return error
    }
  })
  return async () => { if (ownRedis) await redis?.quit() }
}

export function loginRateLimit (options: RateLimitOptions | false): false | { max: number, timeWindow: number | string, keyGenerator: (r: FastifyRequest) => string } {
  if (options === false) return false
  return { max: options.loginMax ?? DEFAULT_LOGIN_LIMIT, timeWindow: options.timeWindow ?? 60_000, keyGenerator: loginKey }
}
