import { audit } from '../audit/audit-log.js'
import type { ServiceContext } from '../context.js'
import { NotFoundError } from '../errors.js'
import { distinct, throwIfInvalid, unknownIdErrors } from '../id-lists.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Store, WithIncludes } from '../store.js'
import { visibleTicket } from '../tickets/ticket-policy.js'
import { requirePerson, type ActorInput } from '../users/actor.js'
import type { CannedResponse, CannedResponseInput, CannedResponsePatch } from './canned-response.js'
import { cannedResponseValues } from './canned-response-input.js'
import { cannedResponseScope, ensureCanChangeCannedResponse } from './canned-response-policy.js'
import { placeholderValues, renderPlaceholders } from './placeholders.js'

/** Canned responses: staff only; visibility and ownership per CONTRACT §10 and §16. */
export class CannedResponseService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<CannedResponse>>> {
    return await this.ctx.store.cannedResponses.list(cannedResponseScope(actor), query)
  }

  async view (actor: ActorInput, id: number, query: ListQuery): Promise<WithIncludes<CannedResponse>> {
    const response = await this.ctx.store.cannedResponses.view(cannedResponseScope(actor), id, query)
    if (response === null) throw new NotFoundError('Canned response')
    return response
  }

  /** A person's own canned response (`user_id`: its creator). */
  async create (caller: ActorInput, input: CannedResponseInput): Promise<CannedResponse> {
    const actor = requirePerson(caller)
    cannedResponseScope(actor)
    const values = cannedResponseValues({ name: '', body: '', global: false }, input)
    return await this.ctx.store.transaction(async (tx) => {
      const created = await tx.cannedResponses.create({ ...values, user_id: actor.id })
      await audit(tx, actor, { action: 'canned_response.created', subject_type: 'canned_response', subject_id: created.id, after: created })
      return created
    })
  }

  async update (actor: ActorInput, id: number, patch: CannedResponsePatch): Promise<CannedResponse> {
    return await this.ctx.store.transaction(async (tx) => {
      const current = await changeable(tx, actor, id)
      const updated = await tx.cannedResponses.update(id, cannedResponseValues(current, patch))
      if (updated === null) throw new NotFoundError('Canned response')
      await audit(tx, actor, { action: 'canned_response.updated', subject_type: 'canned_response', subject_id: id, before: current, after: updated })
      return updated
    })
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    await this.ctx.store.transaction(async (tx) => {
      const before = await changeable(tx, actor, id)
      await tx.cannedResponses.deleteMany([id])
      await audit(tx, actor, { action: 'canned_response.deleted', subject_type: 'canned_response', subject_id: id, before })
    })
  }

  /**
   * The response's body with its placeholders filled from a ticket the caller
   * can see (404 for either one they cannot), as HTML (CONTRACT §10).
   */
  async render (caller: ActorInput, responseId: number, ticketId: number): Promise<string> {
    const actor = requirePerson(caller)
    const { store } = this.ctx
    const [response] = await store.cannedResponses.findVisible(cannedResponseScope(actor), [responseId])
    if (response === undefined) throw new NotFoundError('Canned response')
    const { ticket } = await visibleTicket(store, actor, ticketId)
    const category = await store.categories.findById(ticket.category_id)
    const customer = await store.users.findById(ticket.user_id)
    const assigned = ticket.assigned_agent_id === null ? null : await store.users.findById(ticket.assigned_agent_id)
    return renderPlaceholders(response.body, placeholderValues({ ticket, category, customer, agent: assigned ?? actor }))
  }

  /**
   * Deletes several at once, all or none: ids the caller cannot see are 422 on
   * `responses.N`; one they see but may not delete makes the whole call 403.
   */
  async deleteMany (actor: ActorInput, ids: number[]): Promise<void> {
    const scope = cannedResponseScope(actor)
    await this.ctx.store.transaction(async (tx) => {
      const visible = await tx.cannedResponses.findVisible(scope, distinct(ids))
      throwIfInvalid(unknownIdErrors('responses', ids, visible.map((r) => r.id), 'The selected canned response is invalid.'))
      for (const response of visible) ensureCanChangeCannedResponse(actor, response)
      await tx.cannedResponses.deleteMany(visible.map((r) => r.id))
      for (const response of visible) await audit(tx, actor, { action: 'canned_response.deleted', subject_type: 'canned_response', subject_id: response.id, before: response })
    })
  }
}

/** A response the caller can see (404 otherwise) and may change (403 otherwise). */
async function changeable (store: Store, actor: ActorInput, id: number): Promise<CannedResponse> {
  const [response] = await store.cannedResponses.findVisible(cannedResponseScope(actor), [id])
  if (response === undefined) throw new NotFoundError('Canned response')
  ensureCanChangeCannedResponse(actor, response)
  return response
}
