import { Type } from '@sinclair/typebox'
import { apiTokenList, ForbiddenError, LOGIN_TOKEN_NAME } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import { clientOf } from '../../http/session-cookie.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  ApiToken, Data, IdParams, listQuerystring, LoginBody, NewApiToken, Paged, Person, presentPerson, RegisterBody, responses, SecondFactorChallenge, Session, Success, TokenBody
} from '@helpdesk/shapes'

/** What a token list shows of a token: never its hash, nor whether it is a session. */
function presentToken (token: { id: number, name: string | null, created_at: string }): { id: number, name: string | null, created_at: string } {
  return { id: token.id, name: token.name, created_at: token.created_at }
}

export function authRoutes (app: HelpdeskApp, { helpdesk, avatar, loginLimit }: RouteContext): void {
  const tags = ['Auth']

  app.post('/auth/login', {
    schema: {
      tags,
      summary: 'Log in with email and password',
      description: 'Answers a bearer token for `Authorization: Bearer <token>`: a session, which ends after its idle timeout unused ' +
        'and at its absolute lifetime (see `GET /auth/sessions`). Wrong credentials, and banned users, are a 422 on `email`. ' +
        'Attempts are limited per email and IP (429). For a person with two-factor authentication (or whose role requires it) ' +
        'the answer is a `second_factor` challenge instead: complete it with `POST /auth/login/two-factor`.',
      body: LoginBody,
      response: responses({ 200: Data(Type.Union([Session, SecondFactorChallenge])) })
    },
    config: { auth: 'none' },
    preHandler: loginLimit
  }, async (request) => {
    const result = await helpdesk.signIn.password(request.body.email, request.body.password, LOGIN_TOKEN_NAME, clientOf(request))
    if (result.status === 'second-factor') return { data: { second_factor: { challenge: result.challenge, enrol: result.enrol, expires_at: result.expires_at } } }
    return { data: { token: result.token, user: presentPerson(result.user, avatar) } }
  })

  app.post('/auth/register', {
    schema: {
      tags,
      summary: 'Register a customer account',
      description: 'Creates a customer and logs them in. 403 when the server switched registration off. When an administrator turned ' +
        'email verification on (`auth.email_verification`), the customer is Unconfirmed until they open the link mailed to them ' +
        '(with `required`, they cannot open tickets until then).',
      body: RegisterBody,
      response: responses({ 201: Data(Session) })
    },
    config: { auth: 'none' }
  }, async (request, reply) => {
    const { token, user } = await helpdesk.signIn.register(request.body, clientOf(request))
    return await reply.code(201).send({ data: { token, user: presentPerson(user, avatar) } })
  })

  app.post('/auth/logout', {
    schema: { tags, summary: 'Revoke the presented token', response: responses({ 200: Success }) }
  }, async (request) => {
    if (request.tokenId === null) throw new ForbiddenError('Only a bearer token can be logged out.')
    await helpdesk.auth.logout(request.tokenId, actorOf(request))
    return { success: true as const }
  })

  app.get('/auth/me', {
    schema: { tags, summary: 'The authenticated user', response: responses({ 200: Data(Person) }) }
  }, async (request) => ({ data: presentPerson(actorOf(request), avatar) }))

  app.get('/auth/tokens', {
    schema: { tags, summary: 'Your API tokens (login tokens included; paged, filter[name])', querystring: listQuerystring(apiTokenList), response: responses({ 200: Paged(ApiToken) }) }
  }, async (request) => pagedResponse(request, await helpdesk.auth.pageTokens(actorOf(request), listQueryFrom(request, apiTokenList)), presentToken))

  app.post('/auth/tokens', {
    schema: {
      tags,
      summary: 'Create a personal API token (shown once)',
      description: 'A user holds at most 100 personal tokens (login tokens aside): past that, 422 on `name`; revoke one first.',
      body: TokenBody,
      response: responses({ 201: Data(NewApiToken) })
    }
  }, async (request, reply) => {
    const issued = await helpdesk.auth.createToken(actorOf(request), request.body?.name ?? null)
    return await reply.code(201).send({ data: { id: issued.id, name: issued.name, token: issued.token, created_at: issued.created_at } })
  })

  app.delete('/auth/tokens/:id', {
    schema: { tags, summary: 'Revoke one of your tokens', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await helpdesk.auth.deleteToken(actorOf(request), request.params.id)
    return { success: true as const }
  })
}
