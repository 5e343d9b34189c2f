import { timingSafeEqual, createHash } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { Type, type Static } from '@sinclair/typebox'
import { actsAsAdmin, ForbiddenError, mailList, ValidationError } from '@helpdesk/core'
import { parseMail, receiveRaw } from '@helpdesk/mail'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Data, errorBody, IdParams, InboundResult, MailListQuery, MailPage, ReleaseBody, responses, Success, UnsubscribeParams } from '@helpdesk/shapes'

/** Raw MIME up to 40 MiB: attachments up to the 30 MiB upload limit, base64-encoded. */
const RAW_MAIL_LIMIT = 40 * 2 ** 20
const RAW_TYPES = ['message/rfc822', 'application/octet-stream', 'text/plain']

function sameSecret (given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

/**
 * Mail: the HTTP door for inbound mail (raw MIME, for providers'
 * inbound-parse webhooks), the records of sent and received mail for
 * administrators, and the one-click unsubscribe of customer mail.
 */
export function mailRoutes (app: HelpdeskApp, { helpdesk, options }: RouteContext): void {
  const tags = ['Mail']
  const mail = helpdesk.mail
  /** One page of received (`in`) or sent (`out`) mail, newest first: the mail list (`status` is the older spelling of `filter[status]`). */
  const mailPage = async (request: FastifyRequest, direction: 'in' | 'out') => {
    const query = listQueryFrom(request, mailList)
    const { status } = request.query as Static<typeof MailListQuery>
    if (status !== undefined && query.exact.status === undefined) query.exact.status = [status]
    return pagedResponse(request, await mail.list(actorOf(request), direction, query), (message) => message)
  }
  const secret = options.mail?.inboundSecret

  /** Administrators, or a caller presenting the configured inbound secret. */
  function mayPostInbound (request: FastifyRequest): void {
    const given = request.headers['x-helpdesk-inbound-secret']
    if (secret !== undefined && secret !== '' && typeof given === 'string' && sameSecret(given, secret)) return
    if (!actsAsAdmin(actorOf(request))) throw new ForbiddenError('Only administrators (or a caller with the inbound secret) may post mail.')
  }

  // Its own scope: the raw-MIME body parsers must not reach the JSON routes.
  void app.register(async (scope: HelpdeskApp) => {
    scope.addContentTypeParser(RAW_TYPES, { parseAs: 'buffer', bodyLimit: RAW_MAIL_LIMIT }, (_request, body, done) => { done(null, body) })
    scope.post('/mail/inbound', {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Receive one mail as raw MIME (message/rfc822): an inbound-parse webhook',
        description: 'Administrators, or a caller sending the configured secret in `X-Helpdesk-Inbound-Secret`. ' +
          'The mail becomes a ticket or a reply, or is kept with the reason it was not processed; the same Message-ID twice counts once.',
        response: responses({ 200: Data(InboundResult), 413: errorBody('The message is over 40 MB.') })
      }
    }, async (request) => {
      mayPostInbound(request)
      const body = request.body
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw ValidationError.field('body', 'Send the raw message as the body (Content-Type: message/rfc822).')
      }
      return { data: await receiveRaw(mail.inbound, body) }
    })

    // RFC 8058: mail clients POST `List-Unsubscribe=One-Click` as a form; the body says nothing more.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => { done(null, {}) })
    scope.post('/mail/unsubscribe/:token', {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'One-click unsubscribe (RFC 8058) from the link in a mail\'s List-Unsubscribe header',
        params: UnsubscribeParams,
        response: responses({ 200: Success })
      }
    }, async (request) => {
      await mail.unsubscribe(request.params.token)
      return { success: true as const }
    })
  })

  app.get('/mail/inbound', {
    schema: { tags, summary: 'Received mail, newest first (administrators)', querystring: MailListQuery, response: responses({ 200: MailPage }) }
  }, async (request) => await mailPage(request, 'in'))

  app.get('/mail/inbound/:id/raw', {
    schema: {
      tags,
      summary: 'The original of a received mail (administrators)',
      params: IdParams,
      produces: ['message/rfc822'],
      response: responses({ 200: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The message as received.' }) })
    }
  }, async (request, reply) => {
    const raw = await mail.raw(actorOf(request), request.params.id)
    return await reply.type('message/rfc822').header('content-security-policy', "default-src 'none'; sandbox").header('content-disposition', `attachment; filename="mail-${request.params.id}.eml"`).send(raw)
  })

  app.post('/mail/inbound/:id/release', {
    schema: {
      tags,
      summary: 'Post a held mail as a reply on its ticket (administrators)',
      description: 'A mail is held when its sender is not verified (see `error`). Releasing posts it on its ticket as `user_id`, or as its sender; ' +
        'a customer other than the owner becomes a participant, and the reply is mailed like any other. 422 when the mail is not held.',
      params: IdParams,
      body: ReleaseBody,
      response: responses({ 200: Data(InboundResult) })
    }
  }, async (request) => {
    const actor = actorOf(request)
    // The original is parsed again, as when it arrived; `raw` checks the caller first.
    const raw = await mail.raw(actor, request.params.id)
    return { data: await mail.inbound.release(actor, request.params.id, await parseMail(raw), { userId: request.body?.user_id }) }
  })

  app.post('/mail/inbound/:id/discard', {
    schema: {
      tags,
      summary: 'Discard a held mail: kept on record, never posted (administrators)',
      params: IdParams,
      response: responses({ 200: Data(InboundResult) })
    }
  }, async (request) => ({ data: await mail.inbound.discard(actorOf(request), request.params.id) }))

  app.get('/mail/messages', {
    schema: { tags, summary: 'Sent mail with its delivery status, newest first (administrators)', querystring: MailListQuery, response: responses({ 200: MailPage }) }
  }, async (request) => await mailPage(request, 'out'))
}
