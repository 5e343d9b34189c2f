import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  Data, IdParams, LinkBody, LinkRatingBody, LinkSatisfaction, presentLinkSatisfaction, presentRating, presentTicketSatisfaction, RatingBody, responses, SatisfactionRating, TicketSatisfaction
} from '@helpdesk/shapes'

/**
 * Customer satisfaction: a ticket's survey and ratings for its owner and
 * staff, the owner's rating from the portal, and the signed links of closing
 * mails. A link's token travels in the body, never in a URL, so it stays out
 * of access logs.
 */
export function satisfactionRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Satisfaction']
  const satisfaction = helpdesk.satisfaction

  app.get('/tickets/:id/satisfaction', {
    schema: {
      tags,
      summary: 'A ticket\'s satisfaction survey and ratings (its owner and staff)',
      description: 'The survey as worded by the administrator, whether the caller may rate now, the rating of the current closing, and every rated ' +
        'closing. Another customer who can read a public ticket is refused (403): ratings are the owner\'s and staff\'s business.',
      params: IdParams,
      response: responses({ 200: Data(TicketSatisfaction) })
    }
  }, async (request) => ({ data: presentTicketSatisfaction(await satisfaction.forTicket(actorOf(request), request.params.id)) }))

  app.put('/tickets/:id/satisfaction', {
    schema: {
      tags,
      summary: 'Rate a closed ticket, or change its rating (its owner)',
      description: 'Rates the ticket\'s latest closing `good` or `bad`, with an optional comment. One rating per closing, changeable until the ' +
        'ticket reopens; closed again, it may be rated anew. 403 for anyone but the owner, while the ticket is open, or when surveys are off.',
      params: IdParams,
      body: RatingBody,
      response: responses({ 200: Data(SatisfactionRating) })
    }
  }, async (request) => ({ data: presentRating(await satisfaction.rate(actorOf(request), request.params.id, request.body)) }))

  app.post('/satisfaction/link', {
    config: { auth: 'none' },
    schema: {
      tags,
      summary: 'What a rating link of a closing mail is about (changes nothing)',
      description: 'The console\'s `/satisfaction` page asks this before showing the choice to confirm. 404 for a token that is not one of ours ' +
        '(forged, altered, or for a ticket that is gone or has another owner now), 403 once it expired (`satisfaction.link_days`).',
      body: LinkBody,
      response: responses({ 200: Data(LinkSatisfaction) })
    }
  }, async (request) => ({ data: presentLinkSatisfaction(await satisfaction.forLink(request.body.token)) }))

  app.put('/satisfaction/link', {
    config: { auth: 'none' },
    schema: {
      tags,
      summary: 'Rate a closed ticket with the link of its closing mail',
      description: 'No session: the signed token is the ticket owner\'s authority, for the one closing it names (channel `mail`). A link ' +
        'cannot rate another ticket or a later closing: 404 for a forged or altered token, 403 once expired, the ticket reopened or closed again.',
      body: LinkRatingBody,
      response: responses({ 200: Data(SatisfactionRating) })
    }
  }, async (request) => {
    const { token, ...input } = request.body
    return { data: presentRating(await satisfaction.rateByLink(token, input, request.ip)) }
  })
}
