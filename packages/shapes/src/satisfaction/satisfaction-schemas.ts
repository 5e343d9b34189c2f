import { Type, type Static } from '@sinclair/typebox'
import {
  SATISFACTION_LIMITS,
  type LinkSatisfaction as LinkSatisfactionEntity, type SatisfactionSurvey, type TicketResolution, type TicketSatisfaction as TicketSatisfactionEntity
} from '@helpdesk/core'
import { DateTime, Nullable } from '../common.js'

const RatingValue = Type.Union([Type.Literal('good'), Type.Literal('bad')], { description: '`good` or `bad`.' })

const Reason = Nullable(Type.Union([
  Type.Literal('disabled'), Type.Literal('not-closed'), Type.Literal('superseded'), Type.Literal('no-resolution'), Type.Literal('not-owner')
], {
  description: 'Why `can_rate` is false: surveys are off (`disabled`), the ticket is open again (`not-closed`), it was closed again since the link was ' +
    'sent (`superseded`), it was closed before closings were counted (`no-resolution`), or the caller is not its owner (`not-owner`); null when it may be rated.'
}))

/** One rating: of one resolution (closing) of a ticket. */
export const SatisfactionRating = Type.Object({
  ticket_id: Type.Integer(),
  resolution: Type.Integer({ description: 'Which closing of the ticket it rates: 1 for the first, counting up each time the ticket is closed again.' }),
  rating: RatingValue,
  comment: Nullable(Type.String({ description: 'The customer\'s words, plain text.' })),
  user_id: Nullable(Type.Integer({ description: 'The customer who rated (the ticket\'s owner then); null once deleted.' })),
  agent_id: Nullable(Type.Integer({ description: 'The assignee when it was rated.' })),
  category_id: Nullable(Type.Integer({ description: 'The ticket\'s category when it was rated.' })),
  channel: Nullable(Type.String({ description: 'Where the latest rating came from: `mail` (the closing mail\'s link), `console` (the portal) or `api`.' })),
  closed_at: DateTime,
  created_at: DateTime,
  updated_at: DateTime
}, { description: 'A customer\'s rating of one closing of their ticket.' })

const Survey = Type.Object({
  enabled: Type.Boolean({ description: 'Whether customers are asked (`satisfaction.enabled`).' }),
  question: Type.String(),
  good_label: Type.String(),
  bad_label: Type.String()
}, { description: 'The survey as the administrator worded it.' })

export const TicketSatisfaction = Type.Object({
  survey: Survey,
  resolution: Nullable(Type.Integer({ description: 'The closing a rating now is about (the latest, while the ticket is closed); null while it is open.' })),
  can_rate: Type.Boolean({ description: 'Whether the caller may rate (or change the rating) now: the owner, surveys on, the ticket closed.' }),
  reason: Reason,
  rating: Nullable(SatisfactionRating),
  ratings: Type.Array(SatisfactionRating, { description: 'Every rated closing of the ticket, the latest first.' })
})

export const LinkSatisfaction = Type.Object({
  ticket: Type.Object({ id: Type.Integer(), title: Type.String(), status: Type.Integer({ description: '1 Open, 2 Pending, 3 Closed.' }) }),
  survey: Survey,
  resolution: Type.Integer({ description: 'The closing the link rates.' }),
  can_rate: Type.Boolean(),
  reason: Reason,
  rating: Nullable(SatisfactionRating),
  expires_at: Type.String({ description: 'When the link stops working (UTC, `YYYY-MM-DD HH:MM:SS`): `satisfaction.link_days` after the mail was sent.' })
})

const Comment = Type.Optional(Nullable(Type.String({
  maxLength: SATISFACTION_LIMITS.comment,
  description: `Optional, plain text, at most ${SATISFACTION_LIMITS.comment} characters. Absent: the comment given before stays; null or blank: removed.`
})))

export const RatingBody = Type.Object({ rating: RatingValue, comment: Comment }, {
  examples: [{ rating: 'good' }, { rating: 'bad', comment: 'It took a week.' }]
})

const Token = Type.String({ minLength: 1, maxLength: 128, description: 'The `token` of the link\'s fragment (`/satisfaction#token=…`).' })

export const LinkBody = Type.Object({ token: Token }, { examples: [{ token: '42.1.7.1767225600.1.0f1e2d3c4b5a69788796a5b4c3d2e1f0' }] })

export const LinkRatingBody = Type.Object({ token: Token, rating: RatingValue, comment: Comment }, {
  examples: [{ token: '42.1.7.1767225600.1.0f1e2d3c4b5a69788796a5b4c3d2e1f0', rating: 'good' }]
})

export function presentRating (rating: TicketResolution): Static<typeof SatisfactionRating> {
  return {
    ticket_id: rating.ticket_id,
    resolution: rating.resolution,
    rating: rating.rating ?? 'good',
    comment: rating.comment,
    user_id: rating.customer_id,
    agent_id: rating.agent_id,
    category_id: rating.category_id,
    channel: rating.channel,
    closed_at: rating.closed_at,
    created_at: rating.rated_at ?? rating.closed_at,
    updated_at: rating.rating_updated_at ?? rating.rated_at ?? rating.closed_at
  }
}

function presentSurvey (survey: SatisfactionSurvey): Static<typeof Survey> {
  return { enabled: survey.enabled, question: survey.question, good_label: survey.good_label, bad_label: survey.bad_label }
}

export function presentTicketSatisfaction (view: TicketSatisfactionEntity): Static<typeof TicketSatisfaction> {
  return {
    survey: presentSurvey(view.survey),
    resolution: view.resolution,
    can_rate: view.can_rate,
    reason: view.reason,
    rating: view.rating === null ? null : presentRating(view.rating),
    ratings: view.ratings.map(presentRating)
  }
}

export function presentLinkSatisfaction (view: LinkSatisfactionEntity): Static<typeof LinkSatisfaction> {
  return {
    ticket: { id: view.ticket.id, title: view.ticket.title, status: view.ticket.status },
    survey: presentSurvey(view.survey),
    resolution: view.resolution,
    can_rate: view.can_rate,
    reason: view.reason,
    rating: view.rating === null ? null : presentRating(view.rating),
    expires_at: view.expires_at
  }
}

/** The survey's administrator settings (`GET/PATCH /settings`), as properties of the settings object. */
export const SatisfactionSettings = {
  'satisfaction.enabled': Type.Boolean({ description: 'Customers are asked to rate a closed ticket, in the closing mail and in the portal. Default true.' }),
  'satisfaction.question': Type.String({ minLength: 1, maxLength: SATISFACTION_LIMITS.question, description: 'The survey\'s question.' }),
  'satisfaction.good_label': Type.String({ minLength: 1, maxLength: SATISFACTION_LIMITS.label, description: 'The words of the good choice.' }),
  'satisfaction.bad_label': Type.String({ minLength: 1, maxLength: SATISFACTION_LIMITS.label, description: 'The words of the bad choice.' }),
  'satisfaction.notify_on_bad': Type.Boolean({ description: 'A bad rating notifies the ticket\'s assignee (else the agents of its category). Default true.' }),
  'satisfaction.link_days': Type.Integer({
    minimum: SATISFACTION_LIMITS.linkDays.min, maximum: SATISFACTION_LIMITS.linkDays.max, description: 'Days a rating link in a closing mail works. Default 30.'
  })
}
