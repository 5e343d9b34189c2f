import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { effectivePermissions, type User } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { clearSessionCookie, clientOf, csrfTokenFor, SESSION_TOKEN_NAME, setSessionCookie } from '../../http/session-cookie.js'
import { Data, LoginBody, Nullable, Permissions, Person, presentPerson, responses, SecondFactorChallenge, Success } from '@helpdesk/shapes'

export const CookieSession = Type.Object({
  user: Person,
  permissions: Type.Composite([Permissions], {
    description: 'What the user may do (administrators: everything; customers: nothing), so a client can leave out what it may not.'
  }),
  csrf_token: Nullable(Type.String({
    description: 'Send as `X-CSRF-Token` on POST, PUT, PATCH and DELETE made with the session cookie. ' +
      'Null when the caller is not using the cookie (a bearer token, or the host app\'s own login).'
  }))
})

/** The body of a cookie session: the user, what they may do, and the CSRF token of `token`. */
export function cookieSessionOf (user: User, avatar: RouteContext['avatar'], csrfToken: string | null) {
  return { user: presentPerson(user, avatar), permissions: effectivePermissions(user), csrf_token: csrfToken }
}

function csrfOf (request: FastifyRequest): string | null {
  return request.sessionCookie === null ? null : csrfTokenFor(request.sessionCookie)
}

/** The console's cookie session: log in, who am I (with the CSRF token), log out. */
export function sessionRoutes (app: HelpdeskApp, { helpdesk, avatar, loginLimit }: RouteContext): void {
  const tags = ['Auth']
  const sessionOf = (user: User, csrfToken: string | null) => cookieSessionOf(user, avatar, csrfToken)

  app.post('/auth/session', {
    schema: {
      tags,
      summary: 'Log in into a session cookie (the web console)',
      description: 'Same checks and login limit as `POST /auth/login`, but the token goes into the HttpOnly cookie `helpdesk_session` ' +
        '(SameSite=Lax, Path=/, Secure over https; Max-Age the sessions\' absolute lifetime), never into the body. ' +
        'Answers the user and the session\'s CSRF token. The session ends after its idle timeout unused (see `GET /auth/sessions`). ' +
        'For a person with two-factor authentication (or whose role requires it) the answer is a `second_factor` challenge instead, ' +
        'and no cookie: complete it with `POST /auth/session/two-factor`. Staff are refused (403) when an administrator set SSO-only sign-in.',
      body: LoginBody,
      response: responses({ 200: Data(Type.Union([CookieSession, SecondFactorChallenge])) })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request, reply) => {
    const result = await helpdesk.signIn.password(request.body.email, request.body.password, SESSION_TOKEN_NAME, clientOf(request))
    if (result.status === 'second-factor') return { data: { second_factor: { challenge: result.challenge, enrol: result.enrol, expires_at: result.expires_at } } }
    setSessionCookie(request, reply, result.token, Math.floor(helpdesk.auth.sessionLifetimeMs / 1000))
    return { data: sessionOf(result.user, csrfTokenFor(result.token)) }
  })

  app.get('/auth/session', {
    schema: {
      tags,
      summary: 'The current session: user and CSRF token',
      description: 'For the session cookie, a host app\'s own login (`authenticate`) or a bearer token; 401 without any.',
      response: responses({ 200: Data(CookieSession) })
    }
  }, async (request) => ({ data: sessionOf(actorOf(request), csrfOf(request)) }))

  app.delete('/auth/session', {
    schema: {
      tags,
      summary: 'Log out of the session cookie',
      description: 'Revokes the session at once, on every instance, and clears the cookie. Needs `X-CSRF-Token` with the cookie. ' +
        'Succeeds without a session too (the cookie is cleared).',
      response: responses({ 200: Success })
    },
    config: { auth: 'optional' }
  }, async (request, reply) => {
    if (request.sessionCookie !== null && request.tokenId !== null) await helpdesk.auth.logout(request.tokenId, actorOf(request))
    clearSessionCookie(request, reply)
    return { success: true as const }
  })
}
