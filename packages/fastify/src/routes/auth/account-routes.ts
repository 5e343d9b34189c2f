import { Type } from '@sinclair/typebox'
import { LOGIN_TOKEN_NAME } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { clientOf, csrfTokenFor, SESSION_TOKEN_NAME, setSessionCookie } from '../../http/session-cookie.js'
import {
  Accepted, ChallengeBody, ChallengeCodeBody, Data, EmailBody, Enrolment, OptionalRecoveryCodes, presentPerson, ResetPasswordBody, responses, SecondFactorChallenge, Session, Success, TokenOnlyBody
} from '@helpdesk/shapes'
import { CookieSession, cookieSessionOf } from './session-routes.js'

/**
 * Getting in without (or beyond) a password: forgot password, magic sign-in links, email
 * verification, and the second step of a sign-in with two-factor authentication.
 */
export function accountRoutes (app: HelpdeskApp, { helpdesk, avatar, loginLimit }: RouteContext): void {
  const tags = ['Auth']
  const cookieLifetime = (): number => Math.floor(helpdesk.auth.sessionLifetimeMs / 1000)

  app.post('/auth/password/forgot', {
    schema: {
      tags,
      summary: 'Mail a password-reset link',
      description: 'Answers 202 whether or not the address belongs to someone, in about the same time: the mail is composed and sent ' +
        'by a background job. The link works once, for an hour by default (`signIn.passwordResetMinutes`). Without a mail transport ' +
        'and a console address nothing is sent, and the answer is the same. Limited per email and IP like logins (429).',
      body: EmailBody,
      response: responses({ 202: Accepted })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request, reply) => {
    await helpdesk.account.requestPasswordReset(request.body.email)
    return await reply.code(202).send({ success: true as const })
  })

  app.post('/auth/password/reset', {
    schema: {
      tags,
      summary: 'Choose a new password with a reset link',
      description: 'Uses the link\'s token up (422 on `token` when it is unknown, used or expired), sets the password, and ends every ' +
        'session of the person\'s on every instance. Personal API tokens are kept. An unconfirmed address counts as confirmed.',
      body: ResetPasswordBody,
      response: responses({ 200: Success })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request) => {
    await helpdesk.account.resetPassword(request.body.token, request.body.password, request.body.password_confirmation)
    return { success: true as const }
  })

  app.post('/auth/magic-link', {
    schema: {
      tags,
      summary: 'Mail a customer a sign-in link',
      description: 'For customers (those created from a mail have no password). Answers 202 whether or not the address is a customer\'s. ' +
        'The link works once, for 15 minutes by default (`signIn.magicLinkMinutes`), and signs in only the person it was mailed to.',
      body: EmailBody,
      response: responses({ 202: Accepted })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request, reply) => {
    await helpdesk.account.requestMagicLink(request.body.email)
    return await reply.code(202).send({ success: true as const })
  })

  app.post('/auth/magic-link/session', {
    schema: {
      tags,
      summary: 'Sign in with a magic link (session cookie)',
      description: 'Uses the link\'s token up and starts a console session (the cookie, as `POST /auth/session`); opening it confirms ' +
        'an unconfirmed address. A customer with two-factor authentication gets a `second_factor` challenge instead. 422 on `token` ' +
        'when it is unknown, used or expired.',
      body: TokenOnlyBody,
      response: responses({ 200: Data(Type.Union([CookieSession, SecondFactorChallenge])) })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request, reply) => {
    const result = await helpdesk.signIn.magicLink(request.body.token, SESSION_TOKEN_NAME, clientOf(request))
    if (result.status === 'second-factor') return { data: { second_factor: { challenge: result.challenge, enrol: result.enrol, expires_at: result.expires_at } } }
    setSessionCookie(request, reply, result.token, cookieLifetime())
    return { data: cookieSessionOf(result.user, avatar, csrfTokenFor(result.token)) }
  })

  app.post('/auth/email/verification', {
    schema: {
      tags,
      summary: 'Mail yourself a new verification link',
      description: 'While your address is unconfirmed (422 on `email` once it is confirmed). The link works once, for 48 hours by default.',
      response: responses({ 202: Accepted })
    }
  }, async (request, reply) => {
    await helpdesk.account.requestVerification(actorOf(request))
    return await reply.code(202).send({ success: true as const })
  })

  app.post('/auth/email/verify', {
    schema: {
      tags,
      summary: 'Confirm an address with a verification link',
      description: 'Uses the link\'s token up; the customer becomes Active. 422 on `token` when it is unknown, used or expired.',
      body: TokenOnlyBody,
      response: responses({ 200: Success })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request) => {
    await helpdesk.account.verifyEmail(request.body.token)
    return { success: true as const }
  })

  app.post('/auth/two-factor/enrolment-challenge', {
    schema: {
      tags,
      summary: 'Enrol during sign-in (role requires two-factor)',
      description: 'For a sign-in challenge with `enrol: true`: a new TOTP secret with its QR code. Confirm it by completing the ' +
        'sign-in with the first code from the app (`POST /auth/session/two-factor` or `/auth/login/two-factor`), which also answers ' +
        'the recovery codes. 422 on `challenge` when it expired.',
      body: ChallengeBody,
      response: responses({ 200: Data(Enrolment) })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request) => ({ data: await helpdesk.signIn.enrolment(request.body.challenge) }))

  app.post('/auth/session/two-factor', {
    schema: {
      tags,
      summary: 'Complete a sign-in with a second factor (session cookie)',
      description: 'The challenge of `POST /auth/session` (or `/auth/magic-link/session`) and a code: a TOTP code or a recovery code ' +
        '(used up). A code already used within its window is refused. 422 on `code` when wrong; after 5 wrong codes the challenge ' +
        'is gone (sign in again), and after 10 wrong codes in 15 minutes the person\'s codes are refused for the rest of them (429).',
      body: ChallengeCodeBody,
      response: responses({ 200: Data(Type.Composite([CookieSession, Type.Object(OptionalRecoveryCodes)])) })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request, reply) => {
    const result = await helpdesk.signIn.secondFactor(request.body.challenge, request.body.code, SESSION_TOKEN_NAME, clientOf(request))
    setSessionCookie(request, reply, result.token, cookieLifetime())
    return { data: { ...cookieSessionOf(result.user, avatar, csrfTokenFor(result.token)), recovery_codes: result.recovery_codes ?? null } }
  })

  app.post('/auth/login/two-factor', {
    schema: {
      tags,
      summary: 'Complete a sign-in with a second factor (bearer token)',
      description: 'As `POST /auth/session/two-factor`, for the challenge of `POST /auth/login`: answers a bearer token.',
      body: ChallengeCodeBody,
      response: responses({ 200: Data(Type.Composite([Session, Type.Object(OptionalRecoveryCodes)])) })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request) => {
    const result = await helpdesk.signIn.secondFactor(request.body.challenge, request.body.code, LOGIN_TOKEN_NAME, clientOf(request))
    return { data: { token: result.token, user: presentPerson(result.user, avatar), recovery_codes: result.recovery_codes ?? null } }
  })
}
