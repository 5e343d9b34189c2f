import type { Category } from '../categories/category.js'
import { ensureMayOpenTicket } from '../settings/settings.js'
import { nowString, type ServiceContext } from '../context.js'
import { ForbiddenError, NotFoundError, ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Store, WithIncludes } from '../store.js'
import { ensure } from '../users/user-policy.js'
import { requirePerson, type ActorInput, type PersonActor } from '../users/actor.js'
import { isStaff, Role, UserStatus, type PersonSummary, type User } from '../users/user.js'
import { checkAttachmentIds, linkAttachments } from './attachment-links.js'
import { applyBulkTicketAction, type BulkTicketInput, type BulkTicketOutcome } from './bulk-ticket-actions.js'
import { removeFiles } from './attachment-service.js'
import { checkFieldAnswers, checkPurchaseCode } from './ticket-fields.js'
import { changedFields, ticketEventFacts, TicketEventType, type TicketAssignedEvent, type TicketClosedByAgentEvent, type TicketCreatedByAgentEvent, type TicketCreatedEvent, type TicketDeletedEvent, type TicketUpdatedEvent } from './ticket-events.js'
import { importTickets, type TicketImport } from './ticket-import.js'
import { checkedBody, checkedTitle, type TicketInput, type TicketUpdateInput } from './ticket-input.js'
import { ensureNotMerged } from './ticket-merge.js'
import { ownerUser, resolveTicketOwner, type TicketOwner } from './ticket-owner.js'
import {
  canAssignTickets, canAssignTo, canChangeTicketPrivacy, canDeleteTickets, readableTicket, ticketEditRights, ticketScope, visibleTicket, type TicketScope
} from './ticket-policy.js'
import { isTicketStatus, TicketStatus, withRecordedDue, type Ticket, type TicketAdditional } from './ticket.js'
import { checkedPriority, checkedTicketTags, sameTags } from './ticket-tags.js'
import { ticketWithTagNames, ticketWithTags } from './ticket-tag-events.js'
import type { TicketPatch } from './ticket-store.js'
import { recordTicketChanges } from '../history/ticket-history-recorder.js'
import { ticketAfterTriggers } from '../triggers/trigger-runner.js'

/** Runs `check`, moving a ValidationError's field errors into `errors` so all problems are reported at once. */
async function collect (errors: FieldErrors, check: () => Promise<void>): Promise<void> {
  try {
    await check()
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    Object.assign(errors, error.errors)
  }
}

/**
 * Tickets: who sees which is `ticketScope` (ticket-policy.ts), for lists and
 * single views alike. People read and write them (`requirePerson`).
 */
export class TicketService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (caller: ActorInput, query: ListQuery): Promise<Page<WithIncludes<Ticket>>> {
    const actor = requirePerson(caller)
    // Tags are staff's labels: a customer may not probe them through a filter.
    if (!isStaff(actor) && query.exact.tags !== undefined) throw new ForbiddenError('Only staff may filter tickets by tags.')
    const page = await this.ctx.store.tickets.list(await ticketScope(this.ctx.store, actor), query)
    return { ...page, items: page.items.map((ticket) => readableTicket(actor, ticket)) }
  }

  /**
   * One ticket with the query's includes; records the read afterwards, so
   * `last_read_by_me` shows the previous visit.
   */
  async view (caller: ActorInput, id: number, query: ListQuery): Promise<WithIncludes<Ticket>> {
    const actor = requirePerson(caller)
    const { ticket, scope } = await this.visible(actor, id)
    const viewed = await this.ctx.store.tickets.withIncludes(ticket, scope, query)
    await this.ctx.store.tickets.markRead(ticket.id, actor.id, nowString(this.ctx))
    return readableTicket(actor, viewed)
  }

  /** A ticket the caller may see (404 otherwise): for other modules, e.g. canned-response placeholders. */
  async findById (caller: ActorInput, id: number): Promise<Ticket> {
    const actor = requirePerson(caller)
    return (await this.visible(actor, id)).ticket
  }

  /** A customer's own ticket, or staff's on behalf of a customer (who is created when the email is new). */
  async create (caller: ActorInput, input: TicketInput): Promise<Ticket> {
    const actor = requirePerson(caller)
    const { store } = this.ctx
    await ensureMayOpenTicket(store, actor)
    if (!isStaff(actor) && (input.priority !== undefined || input.tags !== undefined)) {
      throw new ForbiddenError('Only staff may set the priority or tags of a ticket.')
    }
    const errors: FieldErrors = {}
    const title = checkedTitle(errors, input.title)
    const body = checkedBody(errors, input.body)
    const priority = input.priority !== undefined ? checkedPriority(errors, input.priority) : undefined
    const tags = input.tags !== undefined ? checkedTicketTags(errors, input.tags) : []
    const category = await store.categories.findById(input.category)
    if (category === null) errors.category = ['The selected category is invalid.']
    const attachmentIds = await checkAttachmentIds(store, actor.id, input.attachments ?? [], errors)
    const owner = await resolveTicketOwner(store, actor, input, errors)
    let fields: Record<string, string> = {}
    if (category !== null) {
      await collect(errors, async () => { fields = await checkFieldAnswers(store, category.id, input.fields) })
      await collect(errors, async () => { await checkPurchaseCode(this.ctx, category, input.purchase_code) })
    }
    throwIfInvalid(errors)
    if (category === null || owner === null) throw new ValidationError(errors)
    const additional: TicketAdditional = { fields }
    const purchaseCode = input.purchase_code?.trim() ?? ''
    if (purchaseCode !== '') additional.purchase_code = purchaseCode

    const write = async (owner: TicketOwner): Promise<Ticket> => await this.ctx.events.transaction(store, async (tx) => {
      const user = await ownerUser(this.ctx, tx, owner, actor)
      const ticket = await tx.tickets.create({
        user_id: user.id,
        creator_id: actor.id,
        category_id: category.id,
        status: TicketStatus.Open,
        private: input.private ?? true,
        title,
        body,
        additional,
        ...(priority !== undefined ? { priority } : {})
      })
      await linkAttachments(tx, actor.id, attachmentIds, { ticket_id: ticket.id, comment_id: null })
      const tagged = tags.length > 0 ? await tx.tickets.setTags(ticket.id, tags) : []
      const evented = ticketWithTags(ticket, tagged)
      const facts = ticketEventFacts(actor.id, evented, category)
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketCreated, ...facts, channel: actor.channel } satisfies TicketCreatedEvent)
      if (isStaff(actor)) {
        await this.ctx.events.emit(tx, { type: TicketEventType.TicketCreatedByAgent, ...facts } satisfies TicketCreatedByAgentEvent)
      }
      return await ticketAfterTriggers(this.ctx, tx, actor, { event: 'ticket.created', ticket: withRecordedDue(ticket, evented), tags: tagged, owner: user, category })
    })
    try {
      return await write(owner)
    } catch (error) {
      // A concurrent request created the new customer first (its email is taken now, and this transaction rolled back): the ticket is theirs.
      if (!('create' in owner) || !(error instanceof ValidationError) || error.errors.email === undefined) throw error
      const existing = await store.users.findByEmail(owner.create.email)
      if (existing === null || existing.role !== Role.Customer) throw error
      return await write({ user: existing })
    }
  }

  /** Partial update: the owner changes title and body; staff also category, status, priority, tags and privacy. */
  async update (caller: ActorInput, id: number, input: TicketUpdateInput): Promise<Ticket> {
    const actor = requirePerson(caller)
    const { ticket } = await this.visible(actor, id)
    return await this.updateVisible(actor, ticket, input)
  }

  /** `update` of a ticket already found visible to `actor` (also the bulk actions' way in, bulk-ticket-actions.ts). */
  async updateVisible (actor: PersonActor, ticket: Ticket, input: TicketUpdateInput): Promise<Ticket> {
    const id = ticket.id
    const rights = ticketEditRights(actor, ticket)
    ensure(rights !== 'none')
    if (rights === 'text' && (input.category !== undefined || input.status !== undefined || input.private !== undefined ||
      input.priority !== undefined || input.tags !== undefined)) {
      throw new ForbiddenError('Only staff may change the category, status, priority, tags or privacy of a ticket this way.')
    }
    const errors: FieldErrors = {}
    const patch: TicketPatch = {}
    if (input.title !== undefined) patch.title = checkedTitle(errors, input.title)
    if (input.body !== undefined) patch.body = checkedBody(errors, input.body)
    if (input.category !== undefined) {
      if (await this.ctx.store.categories.findById(input.category) === null) errors.category = ['The selected category is invalid.']
      else patch.category_id = input.category
    }
    if (input.status !== undefined) {
      if (!isTicketStatus(input.status)) errors.status = ['The status must be 1 (Open), 2 (Pending) or 3 (Closed).']
      else patch.status = input.status
    }
    if (input.private !== undefined) patch.private = input.private
    if (input.priority !== undefined) {
      const priority = checkedPriority(errors, input.priority)
      if (priority !== undefined) patch.priority = priority
    }
    const tags = input.tags !== undefined ? checkedTicketTags(errors, input.tags) : undefined
    throwIfInvalid(errors)
    // A merged ticket changes only by undoing the merge; asking for what it has already (bulk "close") is no change.
    const refusedKey = (changes: string[], tagsChange: boolean): string | null => changes.length > 0 || tagsChange ? (changes.includes('status') ? 'status' : changes[0] ?? 'tags') : null
    const asked = refusedKey(changedFields(ticket, patch).map(patchKeyToInput), tags !== undefined)
    if (asked !== null) ensureNotMerged(ticket, asked)
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const before = (await tx.tickets.tagsOf([id])).get(id) ?? []
      const tagsChange = tags !== undefined && !sameTags(before.map((tag) => tag.name), tags)
      const updated = await tx.tickets.update(id, patch)
      if (updated === null) throw new NotFoundError('Ticket')
      // Merged while this request was on its way (the row as written says so): nothing is kept.
      const raced = refusedKey(changedFields(ticket, patch).map(patchKeyToInput), tagsChange)
      if (raced !== null) ensureNotMerged(updated, raced)
      const after = tagsChange && tags !== undefined ? await tx.tickets.setTags(id, tags) : before
      await recordTicketChanges(tx, actor, ticketWithTagNames(ticket, before), ticketWithTagNames(updated, after))
      const evented = ticketWithTags(updated, after)
      const facts = ticketEventFacts(actor.id, evented, await this.categoryOf(tx, updated))
      const changes = changedFields(ticket, patch)
      if (tagsChange) changes.push('tags')
      if (changes.length > 0) await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...facts, changes } satisfies TicketUpdatedEvent)
      if (updated.status === TicketStatus.Closed && ticket.status !== TicketStatus.Closed) {
        await this.ctx.events.emit(tx, { type: TicketEventType.TicketClosedByAgent, ...facts } satisfies TicketClosedByAgentEvent)
      }
      const written = withRecordedDue(updated, evented)
      return changes.length > 0 ? await ticketAfterTriggers(this.ctx, tx, actor, { event: 'ticket.updated', ticket: written, tags: after, category: facts.category, previous: { ticket, tags: before.map((tag) => tag.name) } }) : written
    })
  }

  /** PUT (public) / DELETE (private) /tickets/{id}/privacy: staff and the owner. */
  async setPrivate (caller: ActorInput, id: number, isPrivate: boolean): Promise<Ticket> {
    const actor = requirePerson(caller)
    const { ticket } = await this.visible(actor, id)
    ensure(canChangeTicketPrivacy(actor, ticket))
    if (ticket.private === isPrivate) return ticket
    ensureNotMerged(ticket, 'private')
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const updated = await tx.tickets.update(id, { private: isPrivate })
      if (updated === null) throw new NotFoundError('Ticket')
      await recordTicketChanges(tx, actor, ticket, updated)
      const facts = ticketEventFacts(actor.id, updated, await this.categoryOf(tx, updated))
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...facts, changes: ['private'] } satisfies TicketUpdatedEvent)
      return updated
    })
  }

  /** Assigns an agent (or administrator): administrators and agents with `assign_tickets`. */
  async assign (caller: ActorInput, id: number, agentId: number): Promise<Ticket> {
    const actor = requirePerson(caller)
    const { ticket } = await this.visible(actor, id)
    ensure(canAssignTickets(actor))
    const agent = await this.assignableAgent(agentId)
    return await this.assignVisible(actor, ticket, agent, await this.ctx.store.users.staffOfCategory(ticket.category_id))
  }

  /** The agent a ticket may be assigned to, as far as the agent alone decides (422 on `key` otherwise). */
  async assignableAgent (agentId: number, key = 'agent'): Promise<User> {
    const agent = await this.ctx.store.users.findById(agentId)
    if (agent === null || !isStaff(agent) || agent.status === UserStatus.Banned) throw ValidationError.field(key, 'The selected agent is invalid.')
    return agent
  }

  /**
   * `assign` of a ticket already found visible to `actor`, to an `assignableAgent`;
   * `categoryStaff` is `staffOfCategory` of the ticket's category.
   */
  async assignVisible (actor: PersonActor, ticket: Ticket, agent: User, categoryStaff: ReadonlyArray<Pick<User, 'id'>>, key = 'agent'): Promise<Ticket> {
    const id = ticket.id
    ensure(canAssignTickets(actor))
    if (!canAssignTo(actor, agent, categoryStaff)) {
      throw ValidationError.field(key, 'The selected agent does not work in the ticket\'s category.')
    }
    if (ticket.assigned_agent_id === agent.id) return ticket
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const updated = await tx.tickets.update(id, { assigned_agent_id: agent.id, agent_assigned_at: nowString(this.ctx) })
      if (updated === null) throw new NotFoundError('Ticket')
      // A merged ticket is closed and its work goes on at the target: it is not handed to anyone (as PATCH refuses
      // its changes). Asked of the row as written, so a merge committed while this request was on its way counts too.
      ensureNotMerged(updated, key)
      await recordTicketChanges(tx, actor, ticket, updated)
      const facts = ticketEventFacts(actor.id, updated, await this.categoryOf(tx, updated))
      await this.ctx.events.emit(tx, {
        type: TicketEventType.TicketAssigned,
        ...facts,
        agent: { id: agent.id, first_name: agent.first_name, last_name: agent.last_name }
      } satisfies TicketAssignedEvent)
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...facts, changes: ['assigned_agent_id'] } satisfies TicketUpdatedEvent)
      return updated
    })
  }

  /** DELETE /tickets/{id}/agents: leaves the ticket unassigned; administrators and agents with `assign_tickets`. */
  async unassign (caller: ActorInput, id: number): Promise<Ticket> {
    const actor = requirePerson(caller)
    const { ticket } = await this.visible(actor, id)
    return await this.unassignVisible(actor, ticket)
  }

  /** `unassign` of a ticket already found visible to `actor`; a merged ticket is refused with a 422 on `key`. */
  async unassignVisible (actor: PersonActor, ticket: Ticket, key = 'agent'): Promise<Ticket> {
    const id = ticket.id
    ensure(canAssignTickets(actor))
    if (ticket.assigned_agent_id === null) return ticket
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const updated = await tx.tickets.update(id, { assigned_agent_id: null, agent_assigned_at: null })
      if (updated === null) throw new NotFoundError('Ticket')
      ensureNotMerged(updated, key)
      const facts = ticketEventFacts(actor.id, updated, await this.categoryOf(tx, updated))
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...facts, changes: ['assigned_agent_id'] } satisfies TicketUpdatedEvent)
      return updated
    })
  }

  /** GET /tickets/{id}/assignees: whom the caller may assign the visible ticket to (the staff of its category). */
  async assignees (caller: ActorInput, id: number): Promise<PersonSummary[]> {
    const actor = requirePerson(caller)
    const { ticket } = await this.visible(actor, id)
    ensure(canAssignTickets(actor))
    return await this.ctx.store.users.staffOfCategory(ticket.category_id)
  }

  /** Deletes the ticket with its comments, attachments (files too) and notifications: administrators and agents with `delete_tickets`. */
  async delete (caller: ActorInput, id: number): Promise<void> {
    const actor = requirePerson(caller)
    const { ticket } = await this.visible(actor, id)
    await this.deleteVisible(actor, ticket)
  }

  /** `delete` of a ticket already found visible to `actor`. */
  async deleteVisible (actor: PersonActor, ticket: Ticket): Promise<void> {
    const id = ticket.id
    ensure(canDeleteTickets(actor))
    const fileNames = await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const names = await tx.attachments.fileNamesOfTicket(id)
      const category = await this.categoryOf(tx, ticket)
      if (!await tx.tickets.delete(id)) throw new NotFoundError('Ticket')
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketDeleted, ...ticketEventFacts(actor.id, ticket, category) } satisfies TicketDeletedEvent)
      return names
    })
    // Files go once the rows are gone for good: a crash here leaves an orphan file, never a dangling row.
    await removeFiles(this.ctx.files, fileNames)
  }

  /** `POST /tickets/bulk`: one action on many tickets, each in its own transaction (bulk-ticket-actions.ts). */
  async bulk (caller: ActorInput, input: BulkTicketInput): Promise<BulkTicketOutcome[]> {
    return await applyBulkTicketAction(this.ctx, this, caller, input)
  }

  /**
   * Bulk creation for importers: validates every item, then inserts all in
   * batches inside `tx` (or a transaction of its own). Raises no events and
   * checks no permission: the importer does. Returns the ids in input order.
   */
  async importMany (items: TicketImport[], tx?: Store): Promise<number[]> {
    if (tx !== undefined) return await importTickets(this.ctx, tx, items)
    return await this.ctx.store.transaction(async (inner) => await importTickets(this.ctx, inner, items))
  }

  private async visible (actor: PersonActor, id: number): Promise<{ ticket: Ticket, scope: TicketScope }> {
    return await visibleTicket(this.ctx.store, actor, id)
  }

  private async categoryOf (store: Store, ticket: Ticket): Promise<Pick<Category, 'id' | 'name'>> {
    return await store.categories.findById(ticket.category_id) ?? { id: ticket.category_id, name: '' }
  }
}

/** The request's name of a `TicketPatch` key (`category_id` is asked as `category`). */
function patchKeyToInput (key: string): string {
  return key === 'category_id' ? 'category' : key
}
