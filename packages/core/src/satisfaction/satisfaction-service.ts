import type { ServiceContext } from '../context.js'
import { ForbiddenError, NotFoundError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { settingsFrom, type Settings } from '../settings/settings.js'
import type { Store } from '../store.js'
import { formatDateTime } from '../time.js'
import { optionalPlainText } from '../text-input.js'
import { ticketEventFacts } from '../tickets/ticket-events.js'
import { ownsTicket, visibleTicket } from '../tickets/ticket-policy.js'
import { TicketStatus, type Ticket } from '../tickets/ticket.js'
import { personActor, requirePerson, type ActorInput, type PersonActor } from '../users/actor.js'
import { UserStatus, type User } from '../users/user.js'
import { SatisfactionLinks, type SatisfactionToken } from './satisfaction-links.js'
import { canSeeSatisfaction } from './satisfaction-policy.js'
import {
  isRated, isSatisfactionValue, SATISFACTION_LIMITS, SatisfactionEventType, satisfactionFacts,
  type NotRatableReason, type SatisfactionInput, type SatisfactionRatedEvent, type SatisfactionRating, type SatisfactionSurvey, type TicketResolution
} from './satisfaction.js'

/** The survey's settings: its wording, whether it is on, how long links work, whether bad ratings notify. */
export type SurveySettings = SatisfactionSurvey & { link_days: number, notify_on_bad: boolean }

export function surveyOf (settings: Settings): SurveySettings {
  return {
    enabled: settings['satisfaction.enabled'],
    question: settings['satisfaction.question'],
    good_label: settings['satisfaction.good_label'],
    bad_label: settings['satisfaction.bad_label'],
    link_days: settings['satisfaction.link_days'],
    notify_on_bad: settings['satisfaction.notify_on_bad']
  }
}

/** The survey's settings as stored now (one query). */
export async function currentSurvey (store: Store): Promise<SurveySettings> {
  const stored = await store.settings.all()
  return surveyOf(settingsFrom(Object.fromEntries(stored.map((s) => [s.key, s.value]))))
}

/** A ticket's survey as its owner or staff see it (`GET /tickets/{id}/satisfaction`). */
export interface TicketSatisfaction {
  survey: SatisfactionSurvey
  /** The ticket's latest resolution while it is closed (what a rating now is about), else null. */
  resolution: number | null
  /** Whether the caller may rate now: the owner, surveys on, the ticket closed. */
  can_rate: boolean
  /** Why not, when `can_rate` is false: `not-owner` for staff, or a reason of the ticket's state. */
  reason: NotRatableReason | 'not-owner' | null
  /** The rating of `resolution`, when given. */
  rating: SatisfactionRating | null
  /** Every rated resolution of the ticket, the latest first. */
  ratings: SatisfactionRating[]
}

/** What a rating link shows before anything is sent (`GET /satisfaction/{token}`). */
export interface LinkSatisfaction {
  ticket: Pick<Ticket, 'id' | 'title' | 'status'>
  survey: SatisfactionSurvey
  /** The resolution the link rates. */
  resolution: number
  can_rate: boolean
  reason: NotRatableReason | null
  /** The rating of that resolution so far, when given. */
  rating: SatisfactionRating | null
  /** When the link stops working. */
  expires_at: string
}

/** When a link stops working (ms). */
function expiresAt (link: SatisfactionToken, survey: SurveySettings): number {
  return (link.issuedAt + survey.link_days * 86400) * 1000
}

const REASON_MESSAGES: Record<NotRatableReason, string> = {
  disabled: 'Satisfaction surveys are turned off.',
  'not-closed': 'This ticket is not closed: it can be rated once it is closed again.',
  superseded: 'This ticket was reopened and closed again since this link was sent: rate its latest closing from the portal.',
  'no-resolution': 'This ticket was closed before ratings were counted and cannot be rated.'
}

function checkedInput (input: SatisfactionInput): { rating: SatisfactionInput['rating'], comment: string | null | undefined } {
  const errors: FieldErrors = {}
  if (!isSatisfactionValue(input.rating)) errors.rating = ['The rating must be "good" or "bad".']
  const comment = input.comment === undefined ? undefined : optionalPlainText(errors, 'comment', input.comment, SATISFACTION_LIMITS.comment)
  throwIfInvalid(errors)
  return { rating: input.rating, comment }
}

/**
 * Customer satisfaction: the owner of a closed ticket rates its latest
 * resolution good or bad, with an optional comment, from the portal (as
 * themselves) or from the signed link of the closing mail (as the ticket's
 * owner, channel `mail`, without a session). One rating per resolution,
 * changeable until the ticket reopens; every change raises
 * `Tickets.SatisfactionRated` with the rating before and after.
 */
export class SatisfactionService {
  private readonly links: SatisfactionLinks

  constructor (private readonly ctx: ServiceContext) {
    this.links = new SatisfactionLinks(ctx.store)
  }

  /** The survey and the ticket's ratings: its owner and staff who can see it (another customer is refused). */
  async forTicket (caller: ActorInput, ticketId: number): Promise<TicketSatisfaction> {
    const actor = requirePerson(caller)
    const { ticket, scope } = await visibleTicket(this.ctx.store, actor, ticketId)
    if (!canSeeSatisfaction(scope.comments, ticket)) throw new ForbiddenError('Only the ticket\'s owner and staff see its ratings.')
    const survey = await currentSurvey(this.ctx.store)
    const resolutions = await this.ctx.store.satisfaction.ofTicket(ticket.id)
    const latest = resolutions[0] ?? null
    const closed = ticket.status === TicketStatus.Closed && latest !== null
    const reason = this.reason(survey, ticket, latest) ?? (ownsTicket(actor, ticket) ? null : 'not-owner')
    return {
      survey: publicSurvey(survey),
      resolution: closed ? latest.resolution : null,
      can_rate: reason === null,
      reason,
      rating: closed && isRated(latest) ? latest : null,
      ratings: resolutions.filter(isRated)
    }
  }

  /** The owner rates the ticket's latest resolution (`PUT /tickets/{id}/satisfaction`); 403 for anyone else or when it cannot be rated. */
  async rate (caller: ActorInput, ticketId: number, input: SatisfactionInput): Promise<SatisfactionRating> {
    const actor = requirePerson(caller)
    const { ticket } = await visibleTicket(this.ctx.store, actor, ticketId)
    if (!ownsTicket(actor, ticket)) throw new ForbiddenError('Only the ticket\'s owner may rate it.')
    return await this.write(actor, ticket.id, null, checkedInput(input))
  }

  /** What a rating link is about (no change is made: mail scanners and previewers open links). 404 for a link that is not ours, 403 once expired. */
  async forLink (token: string): Promise<LinkSatisfaction> {
    const { link, ticket, survey } = await this.verifiedLink(token)
    const resolution = await this.ctx.store.satisfaction.latest(ticket.id)
    const rated = resolution?.resolution === link.resolution && isRated(resolution) ? resolution : null
    return {
      ticket: { id: ticket.id, title: ticket.title, status: ticket.status },
      survey: publicSurvey(survey),
      resolution: link.resolution,
      can_rate: this.reason(survey, ticket, resolution, link.resolution) === null,
      reason: this.reason(survey, ticket, resolution, link.resolution),
      rating: rated,
      expires_at: formatDateTime(new Date(expiresAt(link, survey)))
    }
  }

  /**
   * Rates from a link of a closing mail: the ticket's owner, authenticated by
   * the link alone, acting through `mail`. The link names one resolution of
   * one ticket for one customer: for another ticket (or an altered one) it is
   * not ours (404); once the ticket reopened, or closed again, it rates
   * nothing (403).
   */
  async rateByLink (token: string, input: SatisfactionInput, ip: string | null = null): Promise<SatisfactionRating> {
    const checked = checkedInput(input)
    const { link, owner } = await this.verifiedLink(token)
    return await this.write(personActor(owner, 'mail', ip), link.ticketId, link.resolution, checked)
  }

  /**
   * The token of a rating link for the owner of `ticket`, about its latest
   * resolution, or null when there is nothing to rate now (surveys off, the
   * ticket not closed). For the closing mail.
   */
  async linkToken (ticket: Pick<Ticket, 'id' | 'user_id' | 'status'>): Promise<{ token: string, survey: SatisfactionSurvey } | null> {
    if (ticket.status !== TicketStatus.Closed) return null
    const survey = await currentSurvey(this.ctx.store)
    if (!survey.enabled) return null
    const latest = await this.ctx.store.satisfaction.latest(ticket.id)
    if (latest === null) return null
    return { token: await this.links.mint(ticket.id, latest.resolution, ticket.user_id, this.ctx.clock.now().getTime()), survey: publicSurvey(survey) }
  }

  /** The link's facts, its ticket (still the customer's) and owner; 404 when the link is not ours, 403 when it expired or its owner is banned. */
  private async verifiedLink (token: string): Promise<{ link: SatisfactionToken, ticket: Ticket, owner: User, survey: SurveySettings }> {
    const link = await this.links.verify(token)
    if (link === null) throw new NotFoundError('Rating link')
    const ticket = await this.ctx.store.tickets.findById(link.ticketId)
    // A ticket gone, or now someone else's: the link names nothing any more.
    if (ticket === null || ticket.user_id !== link.customerId) throw new NotFoundError('Rating link')
    const owner = await this.ctx.store.users.findById(link.customerId)
    if (owner === null) throw new NotFoundError('Rating link')
    if (owner.status === UserStatus.Banned) throw new ForbiddenError('This account is blocked.')
    const survey = await currentSurvey(this.ctx.store)
    if (expiresAt(link, survey) <= this.ctx.clock.now().getTime()) {
      throw new ForbiddenError('This rating link has expired: rate the ticket from your tickets in the portal instead.')
    }
    return { link, ticket, owner, survey }
  }

  /** Why `ticket` cannot be rated now (for the link's `resolution` when given), or null. */
  private reason (survey: SatisfactionSurvey, ticket: Ticket, latest: TicketResolution | null, resolution?: number): NotRatableReason | null {
    if (!survey.enabled) return 'disabled'
    if (latest === null) return ticket.status === TicketStatus.Closed ? 'no-resolution' : 'not-closed'
    if (resolution !== undefined && resolution !== latest.resolution) return 'superseded'
    if (ticket.status !== TicketStatus.Closed) return 'not-closed'
    return null
  }

  /** One transaction: the ticket and its latest resolution read again, checked, the rating written and its event raised (when anything changed). */
  private async write (actor: PersonActor, ticketId: number, resolution: number | null, input: ReturnType<typeof checkedInput>): Promise<SatisfactionRating> {
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const ticket = await tx.tickets.findById(ticketId)
      if (ticket === null || ticket.user_id !== actor.id) throw new NotFoundError('Ticket')
      const survey = await currentSurvey(tx)
      const latest = await tx.satisfaction.latest(ticket.id)
      const reason = this.reason(survey, ticket, latest, resolution ?? undefined)
      if (reason !== null || latest === null) throw new ForbiddenError(REASON_MESSAGES[reason ?? 'no-resolution'])
      if (isRated(latest) && latest.rating === input.rating && (input.comment === undefined || input.comment === latest.comment)) return latest
      const written = await tx.satisfaction.rate(ticket.id, latest.resolution, {
        rating: input.rating,
        comment: input.comment,
        customer_id: actor.id,
        agent_id: ticket.assigned_agent_id,
        category_id: ticket.category_id,
        channel: actor.channel
      })
      if (written === null || !isRated(written.after)) throw new NotFoundError('Ticket')
      const { before, after } = written
      if (before.rating === after.rating && before.comment === after.comment) return after
      const category = await tx.categories.findById(ticket.category_id) ?? { id: ticket.category_id, name: '' }
      await this.ctx.events.emit(tx, {
        type: SatisfactionEventType.SatisfactionRated,
        ...ticketEventFacts(actor.id, ticket, category),
        satisfaction: { ...satisfactionFacts(after), rating: after.rating },
        previous: before.rating === null ? null : { rating: before.rating, comment: before.comment }
      } satisfies SatisfactionRatedEvent)
      return after
    })
  }
}

function publicSurvey (survey: SatisfactionSurvey): SatisfactionSurvey {
  return { enabled: survey.enabled, question: survey.question, good_label: survey.good_label, bad_label: survey.bad_label }
}
