import { sessionList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { clearSessionCookie } from '../../http/session-cookie.js'
import { IdParams, listQuerystring, Paged, responses, SessionItem, Success } from '@helpdesk/shapes'

/** A person's own sessions: see them, end one, end all the others. */
export function sessionListRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Auth']

  app.get('/auth/sessions', {
    schema: {
      tags,
      summary: 'Your sessions',
      description: 'The caller\'s live sessions: web console cookies and tokens from `POST /auth/login` or `POST /auth/register` ' +
        '(personal tokens are not sessions: see `GET /auth/tokens`). The one this request uses is `current`. ' +
        'A session ends after its idle timeout unused, and at its absolute lifetime whatever its use.',
      querystring: listQuerystring(sessionList),
      response: responses({ 200: Paged(SessionItem) })
    }
  }, async (request) => {
    const page = await helpdesk.auth.listSessions(actorOf(request), request.tokenId, listQueryFrom(request, sessionList))
    return pagedResponse(request, page, (session) => session)
  })

  app.delete('/auth/sessions/:id', {
    schema: {
      tags,
      summary: 'End one of your sessions',
      description: 'Ends it at once, on every instance (404 when it is not one of your sessions). Ending the current one logs you out ' +
        '(and clears the console\'s cookie).',
      params: IdParams,
      response: responses({ 200: Success })
    }
  }, async (request, reply) => {
    await helpdesk.auth.endSession(actorOf(request), request.params.id)
    if (request.sessionCookie !== null && request.tokenId === request.params.id) clearSessionCookie(request, reply)
    return { success: true as const }
  })

  app.delete('/auth/sessions', {
    schema: {
      tags,
      summary: 'End all your other sessions',
      description: 'Ends every session of yours but the one this request uses, at once, on every instance. ' +
        'With a personal token (or the host app\'s login) that is every session.',
      response: responses({ 200: Success })
    }
  }, async (request) => {
    await helpdesk.auth.endOtherSessions(actorOf(request), request.tokenId)
    return { success: true as const }
  })
}
