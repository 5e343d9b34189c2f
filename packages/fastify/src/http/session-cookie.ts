import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { COOKIE_SESSION_TOKEN_NAME, type SessionClient } from '@helpdesk/core'

/** The console's session cookie: a session token (a row in `api_tokens` named `session`), carried in a cookie. */
export const SESSION_COOKIE = 'helpdesk_session'
/** Name of the token row behind a cookie session, as `GET /auth/tokens` lists it. */
export const SESSION_TOKEN_NAME = COOKIE_SESSION_TOKEN_NAME
export const CSRF_HEADER = 'x-csrf-token'
export const CSRF_MESSAGE = 'CSRF token missing or invalid.'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The session token in the request's cookie, if any (parsed by @fastify/cookie in the plugin's context). */
export function sessionToken (request: FastifyRequest): string | null {
  const value = (request as { cookies?: Record<string, string | undefined> }).cookies?.[SESSION_COOKIE]
  return value === undefined || value === '' ? null : value
}

/**
 * The CSRF token of a session: an HMAC of a fixed label keyed with the session
 * token. Any instance can recompute it from the cookie (nothing shared), and
 * it reveals nothing about the token it is derived from.
 */
export function csrfTokenFor (session: string): string {
  return createHmac('sha256', session).update('helpdesk csrf v1').digest('base64url')
}

/** Whether a cookie-authenticated request may go ahead: safe methods always, others with the session's CSRF token. */
export function csrfAllows (request: FastifyRequest, session: string): boolean {
  if (SAFE_METHODS.has(request.method)) return true
  const presented = request.headers[CSRF_HEADER]
  if (typeof presented !== 'string') return false
  const expected = Buffer.from(csrfTokenFor(session))
  const given = Buffer.from(presented)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * HttpOnly, SameSite=Lax, Path=/; Secure when the request came over https (`request.protocol` honours trustProxy).
 * The browser keeps it as long as the server's absolute lifetime of sessions (`maxAgeSeconds`); the server
 * ends the session sooner when it idles, on logout or on any auth revision change.
 */
export function setSessionCookie (request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true, sameSite: 'lax', path: '/', secure: request.protocol === 'https', maxAge: maxAgeSeconds
  })
}

export function clearSessionCookie (request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: request.protocol === 'https' })
}

/** What a login records on its session to tell sessions apart: the client's `User-Agent` and address. */
export function clientOf (request: FastifyRequest): SessionClient {
  return { userAgent: request.headers['user-agent'] ?? null, ip: request.ip }
}
