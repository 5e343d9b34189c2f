import type { ServiceContext } from '../context.js'
import { ForbiddenError, ValidationError } from '../errors.js'
import { formatDateTime } from '../time.js'
import { visibleTicket } from '../tickets/ticket-policy.js'
import { requirePerson, type ActorInput, type PersonActor } from '../users/actor.js'
import { isStaff } from '../users/user.js'
import { DEFAULT_PRESENCE_CLIENT_ID, isPresenceClientId, isPresenceState, PRESENCE_TTL_MS, type PresenceState, type TicketPresence } from './presence.js'

/**
 * Who else is on a ticket (collision detection, issue 35): staff who may see
 * a ticket beat while they view it (`viewing`) or write on it (`typing`);
 * rows live in the database with a short expiry, so every instance sees the
 * same people and a closed tab drops out on its own. Each tab of a person
 * beats and leaves for itself (`clientId`); the others see the person while
 * any of their tabs is there. Customers neither set nor see presence (403 on
 * a ticket they can see, 404 on one they cannot).
 */
export class PresenceService {
  constructor (private readonly ctx: ServiceContext) {}

  /**
   * A heartbeat of one tab (`clientId`; API clients that send none share the
   * default one): present in `state` for the next `PRESENCE_TTL_MS`; answers
   * who else is there.
   */
  async beat (caller: ActorInput, ticketId: number, state: PresenceState, clientId: string = DEFAULT_PRESENCE_CLIENT_ID): Promise<TicketPresence> {
    const actor = await this.staffOn(caller, ticketId)
    if (!isPresenceState(state)) throw ValidationError.field('state', 'The state must be viewing or typing.')
    checkClientId(clientId)
    const now = this.ctx.clock.now()
    await this.ctx.store.presence.upsert({
      ticket_id: ticketId, user_id: actor.id, client_id: clientId, state, expires_at: formatDateTime(new Date(now.getTime() + PRESENCE_TTL_MS))
    }, formatDateTime(now))
    return await this.others(actor.id, ticketId, formatDateTime(now))
  }

  /** One tab left the ticket (closed or moved on): gone for the others at once unless another tab of the caller is still there. */
  async leave (caller: ActorInput, ticketId: number, clientId: string = DEFAULT_PRESENCE_CLIENT_ID): Promise<void> {
    const actor = await this.staffOn(caller, ticketId)
    checkClientId(clientId)
    await this.ctx.store.presence.remove(ticketId, actor.id, clientId, formatDateTime(this.ctx.clock.now()))
  }

  /** Who else is on the ticket now. */
  async list (caller: ActorInput, ticketId: number): Promise<TicketPresence> {
    const actor = await this.staffOn(caller, ticketId)
    return await this.others(actor.id, ticketId, formatDateTime(this.ctx.clock.now()))
  }

  /** Deletes rows expired for a while (they are ignored already); the `presence.prune` job runs it. */
  async pruneExpired (): Promise<number> {
    const before = formatDateTime(new Date(this.ctx.clock.now().getTime() - PRESENCE_TTL_MS))
    let total = 0
    for (let deleted = 1000; deleted === 1000; total += deleted) deleted = await this.ctx.store.presence.deleteExpired(before, 1000)
    return total
  }

  private async staffOn (caller: ActorInput, ticketId: number): Promise<PersonActor> {
    const actor = requirePerson(caller)
    await visibleTicket(this.ctx.store, actor, ticketId)
    if (!isStaff(actor)) throw new ForbiddenError('Only staff see who is on a ticket.')
    return actor
  }

  private async others (userId: number, ticketId: number, now: string): Promise<TicketPresence> {
    const entries = await this.ctx.store.presence.liveOf([ticketId], now)
    return { ticket_id: ticketId, now, entries: entries.filter((entry) => entry.user.id !== userId) }
  }
}

function checkClientId (clientId: string): void {
  if (!isPresenceClientId(clientId)) throw ValidationError.field('client_id', 'The client id must be 1 to 64 letters, digits, hyphens or underscores.')
}
