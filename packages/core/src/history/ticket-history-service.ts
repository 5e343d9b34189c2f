import type { ServiceContext } from '../context.js'
import { NotFoundError } from '../errors.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import { visibleTicket } from '../tickets/ticket-policy.js'
import { requirePerson, type ActorInput } from '../users/actor.js'
import { isStaff } from '../users/user.js'
import type { TicketHistoryEntry } from './ticket-history.js'

/**
 * Reading a ticket's history (`GET /tickets/{id}/history`). Staff who may see
 * the ticket read every entry; a customer reads the public entries (status
 * changes) of their own tickets only. A ticket the caller may not see, or a
 * customer's look at someone else's, is 404 (the ticket-visibility rule).
 */
export class TicketHistoryService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (caller: ActorInput, ticketId: number, query: ListQuery): Promise<Page<WithIncludes<TicketHistoryEntry>>> {
    const actor = requirePerson(caller)
    const { ticket } = await visibleTicket(this.ctx.store, actor, ticketId)
    const staff = isStaff(actor)
    if (!staff && ticket.user_id !== actor.id) throw new NotFoundError('Ticket')
    return await this.ctx.store.ticketHistory.list(ticket.id, !staff, query)
  }
}
