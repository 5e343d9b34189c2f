import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  anonymous, ForbiddenError, personActor, UnauthenticatedError, UserStatus,
  type AnonymousActor, type Channel, type Helpdesk, type PersonActor, type User
} from '@helpdesk/core'
import type { HelpdeskPluginOptions } from '../options.js'
import { CSRF_MESSAGE, csrfAllows, sessionToken } from './session-cookie.js'

/** How a route is protected: `required` (default), `optional` (anonymous allowed), `none`. */
export type RouteAuth = 'required' | 'optional' | 'none'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who calls: the signed-in person (with the door they came through,
     * `console` for the session cookie, `api` for a bearer token or the host's
     * `authenticate`, and their address), or `anonymous()`. Set before
     * validation on every route (routes with `auth: 'none'` get `anonymous()`).
     */
    actor: PersonActor | AnonymousActor
    /** The bearer token's id when the caller used one (or the session cookie's token). */
    tokenId: number | null
    /** The session cookie's token when the actor came from it (the console), else null. */
    sessionCookie: string | null
    /**
     * The bearer token's owner and id, verified in `onRequest` before anything keys on the token
     * (rate limits); null without a bearer token or with an unknown, revoked or malformed one.
     */
    verifiedToken: { user: User, tokenId: number, sso?: boolean } | null
  }
  interface FastifyContextConfig {
    auth?: RouteAuth
  }
}

export function bearerToken (request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (header === undefined) return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match?.[1] ?? null
}

async function fromHost (helpdesk: Helpdesk, options: HelpdeskPluginOptions, request: FastifyRequest): Promise<User | null> {
  if (options.authenticate === undefined) return null
  const result = await options.authenticate(request)
  if (result === null || result === undefined) return null
  if ('role' in result) return result
  return await helpdesk.auth.findUser(result)
}

/**
 * The console's session cookie, verified in `onRequest` like a bearer token (same rows, same
 * auth revision) when no bearer token is sent; an unknown or revoked cookie counts as no credentials.
 */
async function verifySessionCookie (helpdesk: Helpdesk, request: FastifyRequest): Promise<void> {
  const token = sessionToken(request)
  if (token === null) return
  const found = await helpdesk.auth.authenticate(token)
  // A session from single sign-on is re-checked with its provider now and then (docs/single-sign-on.md).
  if (found === null || (found.sso === true && !await helpdesk.sso.sessionAlive(found.tokenId))) return
  request.verifiedToken = found
  request.sessionCookie = token
}

/**
 * Verifies a bearer token (else the console's session cookie) in `onRequest` (install this before
 * the rate limiter, which keys on `request.verifiedToken`: an unverified token must not buy a fresh
 * budget), then resolves `request.actor` from the host's `authenticate` option or that token, and enforces the
 * route's `auth`. The enforcing runs before validation, so a caller without credentials gets
 * 401 whatever the body, never a 422 about it; and after the limiter, so refused tokens are counted.
 */
export function installAuthentication (app: FastifyInstance, helpdesk: Helpdesk, options: HelpdeskPluginOptions): void {
  // Set in `preValidation` on every route; null only before it.
  app.decorateRequest('actor', null as never)
  app.decorateRequest('tokenId', null)
  app.decorateRequest('sessionCookie', null)
  app.decorateRequest('verifiedToken', null)
  app.addHook('onRequest', async (request) => {
    if ((request.routeOptions.config.auth ?? 'required') === 'none') return
    const token = bearerToken(request)
    if (token !== null) {
      const found = await helpdesk.auth.authenticate(token)
      request.verifiedToken = found !== null && (found.sso !== true || await helpdesk.sso.sessionAlive(found.tokenId)) ? found : null
    } else {
      await verifySessionCookie(helpdesk, request)
    }
  })
  app.addHook('preValidation', (request, _reply, done) => {
    const mode = request.routeOptions.config.auth ?? 'required'
    // An unknown route is a 404 for everyone (CONTRACT §6), whoever asks.
    if (mode === 'none' || request.is404) {
      request.actor = anonymous()
      done()
      return
    }
    // Without a host `authenticate` option nothing here waits: a callback hook saves a promise per request.
    if (options.authenticate === undefined) {
      try {
        resolveActor(request, mode, null)
        done()
      } catch (error) {
        done(error as Error)
      }
      return
    }
    fromHost(helpdesk, options, request).then((hostUser) => { resolveActor(request, mode, hostUser) }).then(() => { done() }, (error: unknown) => { done(error as Error) })
  })
}

/**
 * Sets `request.actor` from the host's user or the verified token (or cookie), as a person acting
 * through the API (`api`) or the console (`console`, the session cookie) from the request's address;
 * `anonymous()` without credentials. Throws 401/403 as the route's `auth` requires.
 */
function resolveActor (request: FastifyRequest, mode: RouteAuth, hostUser: User | null): void {
  let user: User | null = null
  let channel: Channel = 'api'
  if (hostUser !== null && hostUser.status !== UserStatus.Banned) {
    user = hostUser
  } else {
    if (bearerToken(request) !== null) {
      const found = request.verifiedToken
      if (found !== null) {
        user = found.user
        request.tokenId = found.tokenId
      } else if (mode === 'required') {
        throw new UnauthenticatedError()
      }
    } else if (request.sessionCookie !== null && request.verifiedToken !== null) {
      // A cookie rides along on cross-site requests: changing something also needs the session's CSRF token.
      if (!csrfAllows(request, request.sessionCookie)) throw new ForbiddenError(CSRF_MESSAGE)
      user = request.verifiedToken.user
      channel = 'console'
      request.tokenId = request.verifiedToken.tokenId
    }
  }
  if (user === null) {
    request.actor = anonymous()
    if (mode === 'required') throw new UnauthenticatedError()
    return
  }
  request.actor = personActor(user, channel, request.ip)
}

/** The signed-in person calling a route whose auth is `required` (401 for the anonymous). */
export function actorOf (request: FastifyRequest): PersonActor {
  const actor = request.actor
  if (actor === null || actor.kind !== 'person') throw new UnauthenticatedError()
  return actor
}
