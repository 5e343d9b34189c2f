import type { ServiceContext } from '../context.js'
import { ConflictError, ForbiddenError, NotFoundError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import { ensure } from '../users/user-policy.js'
import { requirePerson, type ActorInput, type AutomationActor, type PersonActor } from '../users/actor.js'
import { isStaff, type User } from '../users/user.js'
import { checkAttachmentIds, linkAttachments } from './attachment-links.js'
import { removeFiles } from './attachment-service.js'
import { CommentType, commentPreview, type Comment, type CommentTypeNumber } from './comment.js'
import {
  changedFields, ticketEventFacts, TicketEventType,
  type CommentAddedEvent, type CommentDeletedEvent, type CommentUpdatedEvent, type TicketClosedByAgentEvent,
  type TicketClosedByCustomerEvent, type TicketUpdatedEvent
} from './ticket-events.js'
import { checkedBody } from './ticket-input.js'
import { recordTicketChanges } from '../history/ticket-history-recorder.js'
import { runTriggersOnChange } from '../triggers/trigger-runner.js'
import {
  canModifyComment, canSeeComment, canSeeTicket, commentVisibility, ensureCanComment, readableTicket, ticketScope, visibleTicket,
  type CommentVisibility
} from './ticket-policy.js'
import { landingTicket } from './ticket-merge.js'
import { statusAfterComment, type Ticket } from './ticket.js'

/** 409 when it ends the request: the ticket was merged while the comment was on its way (`create` sends it on once). */
class MergedMeanwhile extends ConflictError {
  constructor (ticket: Ticket) {
    super(`Ticket #${ticket.id} was merged into #${ticket.merged_into_id ?? ''} while the comment was being sent: send it again.`)
  }
}

/** A new comment, whichever door it came through. */
export interface CommentInput {
  /** Plain text or HTML; sanitised before storage. */
  body: string
  /** 1 Reply, 2 Note. */
  type: CommentTypeNumber
  private?: boolean | undefined
  /** Closes the ticket unless it is closed already (CONTRACT §8). */
  close?: boolean | undefined
  /** Ids of the caller's own unlinked attachments. */
  attachments?: string[] | undefined
  /**
   * Collision check: the id of the newest comment the author had seen when the draft began (0: none).
   * When someone else has since added a comment the author may see, nothing is written (409 ConflictError).
   */
  if_no_comments_after?: number | undefined
}

/** How a comment is written, besides what it says. */
export interface CommentWriteOptions {
  /**
   * The rule the author used (a macro): its events carry it as `rule`, so
   * history can say "by Ada, with macro Refund". The author stays the person.
   */
  rule?: AutomationActor['rule'] | undefined
}

/**
 * Comments of tickets: a caller sees those of tickets they can see, minus
 * what `commentVisibility` hides from customers (notes, others' private
 * replies). People read and write them (`requirePerson`).
 */
export class CommentService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (caller: ActorInput, ticketId: number, query: ListQuery): Promise<Page<WithIncludes<Comment>>> {
    const actor = requirePerson(caller)
    const { ticket, scope } = await visibleTicket(this.ctx.store, actor, ticketId)
    const page = await this.ctx.store.comments.list(ticket, scope.comments, query)
    return { ...page, items: page.items.map((comment) => withReadableTicket(actor, comment)) }
  }

  async view (caller: ActorInput, id: number, query: ListQuery): Promise<WithIncludes<Comment>> {
    const actor = requirePerson(caller)
    const { comment } = await this.visible(actor, id)
    return withReadableTicket(actor, await this.ctx.store.comments.withIncludes(comment, query))
  }

  /**
   * The whole comment (private ones included) for a webhook's payload, which
   * shows resources as to an administrator; null once the comment is gone.
   * No actor: the caller is the delivery job, never a request.
   */
  async findForWebhook (id: number): Promise<Comment | null> {
    return await this.ctx.store.comments.findById(id)
  }

  /**
   * Adds a reply or note and moves the ticket through its life cycle in the
   * same transaction: staff reply on Open -> Pending, customer reply on
   * Pending/Closed -> Open, `close` -> Closed (CONTRACT §8).
   */
  async create (caller: ActorInput, ticketId: number, input: CommentInput, options: CommentWriteOptions = {}): Promise<Comment> {
    const actor = requirePerson(caller)
    const { store } = this.ctx
    // Twice at most: a merge committed between finding where the comment lands and writing it sends it on (`MergedMeanwhile`).
    for (let attempt = 1; ; attempt++) {
      const { ticket: addressed, scope } = await visibleTicket(store, actor, ticketId)
      const ticket = await this.landing(actor, addressed)
      ensureCanComment(actor, ticket, input.type)
      try {
        // The author's draft goes with the comment they send: the one on the ticket they wrote to, even when
        // the comment lands on the ticket it was merged into (their draft there is another text). A macro's comment is not a draft.
        return await this.write(actor, ticket, input, options, options.rule === undefined ? addressed.id : null, scope.comments)
      } catch (error) {
        if (!(error instanceof MergedMeanwhile) || attempt >= 2) throw error
      }
    }
  }

  /**
   * A reply that arrived by mail from `author`: the inbound mail service has
   * established that the author belongs to the ticket (its owner, staff, or a
   * participant Cc'd in on the thread), so the commenting rule is not asked.
   */
  async createFromMail (author: ActorInput, ticket: Ticket, input: Omit<CommentInput, 'type'>): Promise<Comment> {
    const actor = requirePerson(author)
    try {
      return await this.write(actor, await landingTicket(this.ctx.store, ticket), { ...input, type: CommentType.Reply })
    } catch (error) {
      if (!(error instanceof MergedMeanwhile)) throw error
      const current = await this.ctx.store.tickets.findById(ticket.id) ?? ticket
      return await this.write(actor, await landingTicket(this.ctx.store, current), { ...input, type: CommentType.Reply })
    }
  }

  /**
   * Where a comment addressed to `ticket` goes: the ticket it was merged
   * into (docs/tickets.md), which the caller must be able to see too (403
   * otherwise), or `ticket` itself.
   */
  private async landing (actor: PersonActor, ticket: Ticket): Promise<Ticket> {
    if (ticket.merged_into_id == null) return ticket
    const landing = await landingTicket(this.ctx.store, ticket)
    if (landing.id === ticket.id) return ticket
    if (!canSeeTicket((await ticketScope(this.ctx.store, actor)).tickets, landing)) {
      throw new ForbiddenError(`Ticket #${ticket.id} was merged into a ticket you cannot see.`)
    }
    return landing
  }

  /**
   * Writes the comment on `ticket` (where it lands); `draftOf`: the ticket whose draft of the author's it sends (null: none);
   * `visibility`: what the author may see of its comments, for the `if_no_comments_after` collision check.
   */
  private async write (
    actor: PersonActor, landed: Ticket, input: CommentInput, options: CommentWriteOptions = {}, draftOf: number | null = null,
    visibility: CommentVisibility = commentVisibility(actor)
  ): Promise<Comment> {
    const { store } = this.ctx
    const errors: FieldErrors = {}
    const body = checkedBody(errors, input.body)
    if (input.type !== CommentType.Reply && input.type !== CommentType.Note) errors.type = ['The type must be 1 (Reply) or 2 (Note).']
    const attachmentIds = await checkAttachmentIds(store, actor.id, input.attachments ?? [], errors)
    throwIfInvalid(errors)
    const byStaff = isStaff(actor)

    return await this.ctx.events.transaction(store, async (tx) => {
      // Read again under the ticket's row lock (merges take it too): a reply never lands on a ticket merged meanwhile.
      await tx.ticketMerges.lock([landed.id])
      const ticket = await tx.tickets.findById(landed.id) ?? ticketNotFound()
      if (ticket.merged_into_id != null) throw new MergedMeanwhile(ticket)
      // The collision check reads under that lock, so it and the write are one step: of two authors sending
      // against the same newest comment at once, the second reads the first one's comment and gets the 409.
      if (input.if_no_comments_after !== undefined) {
        const newer = await tx.comments.idsAfter(ticket, visibility, input.if_no_comments_after, actor.id, 100)
        if (newer.length > 0) {
          throw new ConflictError(`${newer.length === 1 ? 'A comment was' : `${newer.length} comments were`} added since your draft began (${newer.map((id) => `#${id}`).join(', ')}): read ${newer.length === 1 ? 'it' : 'them'}, then send again without if_no_comments_after.`)
        }
      }
      const comment = await tx.comments.create({
        ticket_id: ticket.id,
        user_id: actor.id,
        body,
        preview: commentPreview(body),
        type: input.type,
        private: input.private ?? false
      })
      // Sent: the draft goes, and the uploads it held that the comment carries are linked to the comment (and so leave it).
      if (draftOf !== null) await tx.drafts.delete(actor.id, draftOf)
      await linkAttachments(tx, actor.id, attachmentIds, { ticket_id: ticket.id, comment_id: comment.id })
      const next = statusAfterComment(ticket.status, { isReply: input.type === CommentType.Reply, byStaff, close: input.close === true })
      // A reply is activity the owner sees: updated_at moves even when the status does not. A note is
      // staff-only: it moves updated_at only through a status change, or the owner could tell one was written.
      const statusChanged = next.status !== ticket.status
      const updated: Ticket = statusChanged || input.type === CommentType.Reply
        ? await tx.tickets.update(ticket.id, statusChanged ? { status: next.status } : {}) ?? ticket
        : ticket
      if (statusChanged) await recordTicketChanges(tx, actor, ticket, updated)
      const category = await tx.categories.findById(ticket.category_id) ?? { id: ticket.category_id, name: '' }
      const facts = { ...ticketEventFacts(actor.id, updated, category), ...(options.rule !== undefined ? { rule: options.rule } : {}) }
      await this.ctx.events.emit(tx, {
        type: TicketEventType.CommentAdded,
        ...facts,
        comment: { id: comment.id, type: comment.type, private: comment.private, preview: comment.preview, user_id: actor.id },
        by_staff: byStaff
      } satisfies CommentAddedEvent)
      if (updated.status !== ticket.status) {
        await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...facts, changes: ['status'] } satisfies TicketUpdatedEvent)
      }
      if (next.closed) {
        await this.ctx.events.emit(tx, byStaff
          ? { type: TicketEventType.TicketClosedByAgent, ...facts } satisfies TicketClosedByAgentEvent
          : { type: TicketEventType.TicketClosedByCustomer, ...facts } satisfies TicketClosedByCustomerEvent)
      }
      await runTriggersOnChange(this.ctx, tx, actor, { event: byStaff ? 'comment.staff' : 'comment.customer', ticket: updated, previous: { ticket }, comment: body })
      return comment
    })
  }

  /** Replaces the body: the author and administrators (`canModifyComment`). */
  async update (caller: ActorInput, id: number, body: string): Promise<Comment> {
    const actor = requirePerson(caller)
    const { comment, ticket } = await this.modifiable(actor, id)
    const errors: FieldErrors = {}
    const clean = checkedBody(errors, body)
    throwIfInvalid(errors)
    return await this.changed(actor, comment, ticket, { body: clean, preview: commentPreview(clean) })
  }

  /** PUT (public) / DELETE (private) /comments/{id}/privacy. */
  async setPrivate (caller: ActorInput, id: number, isPrivate: boolean): Promise<Comment> {
    const actor = requirePerson(caller)
    const { comment, ticket } = await this.modifiable(actor, id)
    if (comment.private === isPrivate) return comment
    return await this.changed(actor, comment, ticket, { private: isPrivate })
  }

  /** Writes the change and raises `Tickets.CommentUpdated` in one transaction. */
  private async changed (actor: PersonActor, comment: Comment, ticket: Ticket, patch: Partial<Pick<Comment, 'body' | 'preview' | 'private'>>): Promise<Comment> {
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const updated = await tx.comments.update(comment.id, patch) ?? notFound()
      const category = await tx.categories.findById(ticket.category_id) ?? { id: ticket.category_id, name: '' }
      await this.ctx.events.emit(tx, {
        type: TicketEventType.CommentUpdated,
        ...ticketEventFacts(actor.id, ticket, category),
        comment: updated,
        changes: changedFields(comment, patch).filter((field) => field !== 'preview')
      } satisfies CommentUpdatedEvent)
      return updated
    })
  }

  /** Deletes the comment with its attachments and their files. */
  async delete (caller: ActorInput, id: number): Promise<void> {
    const actor = requirePerson(caller)
    const { comment, ticket } = await this.modifiable(actor, id)
    const fileNames = await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const names = await tx.attachments.fileNamesOfComment(comment.id)
      if (!await tx.comments.delete(comment.id)) notFound()
      const category = await tx.categories.findById(ticket.category_id) ?? { id: ticket.category_id, name: '' }
      await this.ctx.events.emit(tx, { type: TicketEventType.CommentDeleted, ...ticketEventFacts(actor.id, ticket, category), comment } satisfies CommentDeletedEvent)
      return names
    })
    await removeFiles(this.ctx.files, fileNames)
  }

  /** The comment and its ticket; 404 unless the caller can see both. */
  private async visible (actor: PersonActor, id: number): Promise<{ comment: Comment, ticket: Ticket }> {
    const comment = await this.ctx.store.comments.findById(id) ?? notFound()
    const { ticket, scope } = await visibleTicket(this.ctx.store, actor, comment.ticket_id)
      .catch((error: unknown) => { throw error instanceof NotFoundError ? new NotFoundError('Comment') : error })
    if (!canSeeComment(scope.comments, comment, ticket)) notFound()
    return { comment, ticket }
  }

  private async modifiable (actor: PersonActor, id: number): Promise<{ comment: Comment, ticket: Ticket }> {
    const found = await this.visible(actor, id)
    ensure(canModifyComment(actor, found.comment), 'Only the author of a comment and administrators may change it.')
    return found
  }
}

/** The `ticket` include as the caller may read it. */
function withReadableTicket (actor: User, comment: WithIncludes<Comment>): WithIncludes<Comment> {
  const ticket = comment.ticket as Ticket | null | undefined
  return ticket === undefined || ticket === null ? comment : { ...comment, ticket: readableTicket(actor, ticket) }
}

function notFound (): never {
  throw new NotFoundError('Comment')
}

function ticketNotFound (): never {
  throw new NotFoundError('Ticket')
}
