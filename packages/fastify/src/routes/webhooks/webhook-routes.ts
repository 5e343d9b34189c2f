import { ValidationError, webhookDeliveryList, webhookList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  Data, DeliveryParams, IdParams, listQuerystring, Paged, presentDelivery, presentWebhook, RedeliverEventBody, responses, RotateSecretBody, Success, Webhook, WebhookCreate, WebhookDelivery, WebhookUpdate, WebhookWithSecret
} from '@helpdesk/shapes'
import { checkWebhookTarget, WebhookTargetError } from '@helpdesk/webhooks'
import { Type } from '@sinclair/typebox'

/** Administrators manage webhook endpoints and look at their deliveries (docs/webhooks.md). */
export function webhookRoutes (app: HelpdeskApp, { helpdesk, options }: RouteContext): void {
  const tags = ['Webhooks']
  const webhooks = helpdesk.webhooks
  const allowPrivate = options.webhooks?.allowPrivateTargets ?? false

  /** SSRF: a new or changed url must resolve to public addresses only (checked again on every delivery). A url the service refuses anyway is not looked up. */
  const checkTarget = async (url: string | undefined): Promise<void> => {
    if (url === undefined) return
    try {
      await checkWebhookTarget(url, allowPrivate)
    } catch (error) {
      if (error instanceof WebhookTargetError) throw ValidationError.field('url', `The url must point to a public address: ${error.message}`)
      throw error
    }
  }

  app.get('/webhooks', {
    schema: {
      tags,
      summary: 'List webhook endpoints (paged; filter[active], filter[url], filter[description])',
      querystring: listQuerystring(webhookList),
      response: responses({ 200: Paged(Webhook) })
    }
  }, async (request) => pagedResponse(request, await webhooks.page(actorOf(request), listQueryFrom(request, webhookList)), presentWebhook))

  app.post('/webhooks', {
    schema: { tags, summary: 'Create a webhook endpoint; the response shows its secret this once', body: WebhookCreate, response: responses({ 201: Data(WebhookWithSecret) }) }
  }, async (request, reply) => {
    const actor = actorOf(request)
    await webhooks.list(actor) // administrators only, before any DNS lookup
    await checkTarget(request.body.url)
    const { endpoint, secret } = await webhooks.create(actor, request.body)
    return await reply.code(201).send({ data: { ...presentWebhook(endpoint), secret } })
  })

  app.get('/webhooks/:id', {
    schema: { tags, summary: 'View a webhook endpoint', params: IdParams, response: responses({ 200: Data(Webhook) }) }
  }, async (request) => ({ data: presentWebhook(await webhooks.view(actorOf(request), request.params.id)) }))

  app.patch('/webhooks/:id', {
    schema: { tags, summary: 'Update a webhook endpoint (partial)', params: IdParams, body: WebhookUpdate, response: responses({ 200: Data(Webhook) }) }
  }, async (request) => {
    const actor = actorOf(request)
    await webhooks.view(actor, request.params.id)
    await checkTarget(request.body.url)
    return { data: presentWebhook(await webhooks.update(actor, request.params.id, request.body)) }
  })

  app.delete('/webhooks/:id', {
    schema: { tags, summary: 'Delete a webhook endpoint with its deliveries', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await webhooks.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })

  app.post('/webhooks/:id/secret', {
    schema: {
      tags,
      summary: 'Rotate the signing secret; the old one keeps signing (a second v1) during the overlap',
      params: IdParams,
      body: Type.Optional(RotateSecretBody),
      response: responses({ 200: Data(WebhookWithSecret) })
    }
  }, async (request) => {
    const body = (request.body ?? {}) as { overlap_seconds?: number }
    const { endpoint, secret } = await webhooks.rotateSecret(actorOf(request), request.params.id, body.overlap_seconds)
    return { data: { ...presentWebhook(endpoint), secret } }
  })

  app.get('/webhooks/:id/deliveries', {
    schema: {
      tags,
      summary: 'An endpoint\'s deliveries, newest first (paged; filter[status], filter[event_type], filter[event_id])',
      params: IdParams,
      querystring: listQuerystring(webhookDeliveryList),
      response: responses({ 200: Paged(WebhookDelivery) })
    }
  }, async (request) => {
    const page = await webhooks.deliveries(actorOf(request), request.params.id, listQueryFrom(request, webhookDeliveryList))
    return pagedResponse(request, page, presentDelivery)
  })

  app.post('/webhooks/:id/deliveries/:delivery_id/redeliver', {
    schema: { tags, summary: 'Send a delivery again (same event id, same bytes) as a new delivery', params: DeliveryParams, response: responses({ 202: Data(WebhookDelivery) }) }
  }, async (request, reply) => {
    const delivery = await webhooks.redeliver(actorOf(request), request.params.id, request.params.delivery_id)
    return await reply.code(202).send({ data: presentDelivery(delivery) })
  })

  app.post('/webhooks/:id/redeliver', {
    schema: { tags, summary: 'Send any past event (by event id) to this endpoint', params: IdParams, body: RedeliverEventBody, response: responses({ 202: Data(WebhookDelivery) }) }
  }, async (request, reply) => {
    const delivery = await webhooks.redeliverEvent(actorOf(request), request.params.id, request.body.event_id)
    return await reply.code(202).send({ data: presentDelivery(delivery) })
  })
}
