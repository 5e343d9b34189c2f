import type { ServiceContext } from '../context.js'
import { ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import { checkAttachmentIds } from '../tickets/attachment-links.js'
import { CommentType } from '../tickets/comment.js'
import { sanitizedBody } from '../tickets/ticket-input.js'
import { ensureCanComment, readableTicket, ticketScope, visibleTicket } from '../tickets/ticket-policy.js'
import type { Ticket } from '../tickets/ticket.js'
import { requirePerson, type ActorInput } from '../users/actor.js'
import { DRAFT_LIMITS, type Draft, type DraftInput } from './draft.js'

/**
 * Drafts of replies and notes, saved as the author types (issue 35): one per
 * person and ticket, seen by no one but its author. A person keeps a draft on
 * a ticket they may comment on with that type (staff: replies and notes on
 * the tickets they see; a customer: replies on their own tickets); a ticket
 * the caller cannot see is 404, as everywhere. Sending a comment on the
 * ticket (`CommentService.create`) deletes the author's draft in the same
 * transaction.
 */
export class DraftService {
  constructor (private readonly ctx: ServiceContext) {}

  /** The caller's draft on the ticket, or null when they keep none. */
  async find (caller: ActorInput, ticketId: number): Promise<Draft | null> {
    const actor = requirePerson(caller)
    await visibleTicket(this.ctx.store, actor, ticketId)
    return await this.ctx.store.drafts.find(actor.id, ticketId)
  }

  /**
   * Creates or replaces the caller's draft: the body as a comment's is checked
   * and sanitised (but may be empty), the attachments must be the caller's own
   * unlinked uploads (422 on `attachments.N`), the type one they may send.
   */
  async save (caller: ActorInput, ticketId: number, input: DraftInput): Promise<Draft> {
    const actor = requirePerson(caller)
    const { store } = this.ctx
    const { ticket } = await visibleTicket(store, actor, ticketId)
    const type = input.type ?? CommentType.Reply
    const errors: FieldErrors = {}
    if (type !== CommentType.Reply && type !== CommentType.Note) errors.type = ['The type must be 1 (Reply) or 2 (Note).']
    else ensureCanComment(actor, ticket, type)
    const body = sanitizedBody(errors, input.body)
    const attachmentIds = await checkAttachmentIds(store, actor.id, input.attachments ?? [], errors)
    throwIfInvalid(errors)
    return await store.transaction(async (tx) => {
      if (await tx.drafts.find(actor.id, ticket.id) === null && await tx.drafts.count(actor.id) >= DRAFT_LIMITS.perUser) {
        throw ValidationError.field('ticket_id', `You keep ${DRAFT_LIMITS.perUser} drafts already: send or discard some first.`)
      }
      return await tx.drafts.save({ user_id: actor.id, ticket_id: ticket.id, type, body, private: input.private ?? false, attachment_ids: attachmentIds })
    })
  }

  /** Discards the caller's draft on the ticket (none is no error); its uploads stay, unlinked, until pruned. */
  async discard (caller: ActorInput, ticketId: number): Promise<void> {
    const actor = requirePerson(caller)
    await visibleTicket(this.ctx.store, actor, ticketId)
    await this.ctx.store.drafts.delete(actor.id, ticketId)
  }

  /** The caller's drafts, on tickets they can still see, newest first; the `ticket` include as they may read it. */
  async list (caller: ActorInput, query: ListQuery): Promise<Page<WithIncludes<Draft>>> {
    const actor = requirePerson(caller)
    const scope = await ticketScope(this.ctx.store, actor)
    const page = await this.ctx.store.drafts.list(actor.id, scope.tickets, query)
    return {
      ...page,
      items: page.items.map((draft) => {
        const ticket = draft.ticket as Ticket | null | undefined
        return ticket === undefined || ticket === null ? draft : { ...draft, ticket: readableTicket(actor, ticket) }
      })
    }
  }
}
