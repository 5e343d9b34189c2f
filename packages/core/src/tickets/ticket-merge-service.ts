import type { Category } from '../categories/category.js'
import { nowString, type ServiceContext } from '../context.js'
import { ForbiddenError, NotFoundError, ValidationError, type FieldErrors } from '../errors.js'
import { recordTicketChanges, recordTicketEntries } from '../history/ticket-history-recorder.js'
import { throwIfInvalid } from '../id-lists.js'
import { settingsFrom } from '../settings/settings.js'
import type { Store } from '../store.js'
import { parseDateTime } from '../time.js'
import { requirePerson, type ActorInput } from '../users/actor.js'
import { ensure } from '../users/user-policy.js'
import { isStaff } from '../users/user.js'
import { CommentType, commentPreview } from './comment.js'
import {
  changedFields, ticketEventFacts, TicketEventType,
  type TicketCreatedEvent, type TicketMergedEvent, type TicketMergeFacts, type TicketSplitEvent, type TicketUnmergedEvent, type TicketUpdatedEvent
} from './ticket-events.js'
import { checkedTitle } from './ticket-input.js'
import { answersTargetLacks, mergeRefusal, splitTitle, TICKET_MERGE_LIMITS, withAnswers, type TicketMerge } from './ticket-merge.js'
import { canSeeTicket, visibleTicket } from './ticket-policy.js'
import type { TicketPatch } from './ticket-store.js'
import { TICKET_LIMITS, TicketStatus, type Ticket, type TicketStatusNumber } from './ticket.js'

/** `POST /tickets/{id}/merge`. */
export interface MergeInput { target_id: number }

/** `POST /tickets/{id}/split`: the comments to move, and the new ticket's title (derived from the ticket's when absent). */
export interface SplitInput { comment_ids: number[], subject?: string | undefined }

/**
 * Merging, unmerging and splitting tickets (docs/tickets.md "Merge and
 * split"): staff who can see both tickets; each one transaction, recorded in
 * both tickets' histories and announced by events.
 */
export class TicketMergeService {
  constructor (private readonly ctx: ServiceContext) {}

  /**
   * Merges ticket `sourceId` into `input.target_id`: the source's comments
   * (with their attachments), its own body (as a reply on the target, with
   * the source's attachments), its participants and the custom-field
   * answers the target lacks move over; the source is closed with
   * `merged_into_id`; a closed target reopens. Returns the target.
   */
  async merge (caller: ActorInput, sourceId: number, input: MergeInput): Promise<Ticket> {
    const actor = requirePerson(caller)
    const { store } = this.ctx
    const { ticket: source, scope } = await visibleTicket(store, actor, sourceId)
    ensure(isStaff(actor), 'Only staff may merge tickets.')
    const target = await store.tickets.findById(input.target_id)
    if (target === null || !canSeeTicket(scope.tickets, target)) throw ValidationError.field('target_id', 'The selected ticket is invalid.')
    checkMergeable(source, target)

    return await this.ctx.events.transaction(store, async (tx) => {
      await tx.ticketMerges.lock([source.id, target.id])
      // Read again under the lock: a concurrent merge of either ticket has committed or waits.
      const src = await tx.tickets.findById(source.id) ?? notFound()
      const tgt = await tx.tickets.findById(target.id) ?? notFound()
      checkMergeable(src, tgt)

      const comments = await tx.ticketMerges.commentsOf(src.id)
      const moved = await tx.ticketMerges.moveComments(comments.map((c) => c.id), src.id, tgt.id)
      // A private ticket's public replies were for its owner and staff: in a public target they stay so.
      const hide = src.private && !tgt.private
      const privatized = hide ? comments.filter((c) => c.type === CommentType.Reply && !c.private).map((c) => c.id) : []
      await tx.ticketMerges.setCommentsPrivate(privatized, true)
      const bodyComment = await tx.comments.create({
        ticket_id: tgt.id, user_id: src.creator_id ?? src.user_id, body: src.body, preview: commentPreview(src.body), type: CommentType.Reply, private: hide, created_at: src.created_at
      })
      const bodyAttachments = await tx.ticketMerges.ticketAttachmentIds(src.id)
      await tx.ticketMerges.moveAttachments(bodyAttachments, { ticket_id: tgt.id, comment_id: bodyComment.id })
      const present = new Set([...await tx.mail.participantIds(tgt.id), tgt.user_id])
      const participants = (await tx.mail.participantIds(src.id)).filter((id) => !present.has(id))
      for (const id of participants) await tx.mail.addParticipant(tgt.id, id)

      const asked = new Set((await tx.customFields.forCategory(tgt.category_id)).map((f) => String(f.id)))
      const answers = answersTargetLacks(src.additional, tgt.additional, asked)
      const targetPatch: TicketPatch = {}
      if (Object.keys(answers.fields).length > 0 || answers.purchase_code !== null) targetPatch.additional = withAnswers(tgt.additional, answers)
      // Merging into a closed ticket reopens it: the conversation it received is not answered yet.
      if (tgt.status === TicketStatus.Closed) targetPatch.status = TicketStatus.Open
      const updatedTarget = await tx.tickets.update(tgt.id, targetPatch) ?? notFound()
      const updatedSource = await tx.tickets.update(src.id, { status: TicketStatus.Closed, merged_into_id: tgt.id }) ?? notFound()

      const record = await tx.ticketMerges.create({
        kind: 'merge',
        source_id: src.id,
        target_id: tgt.id,
        actor_id: actor.id,
        moves: {
          comment_ids: moved,
          privatized_comment_ids: privatized,
          body_comment_id: bodyComment.id,
          body_attachment_ids: bodyAttachments,
          participant_ids: participants,
          fields: answers.fields,
          purchase_code: answers.purchase_code,
          source_status: src.status,
          reopened_target_from: targetPatch.status !== undefined ? tgt.status : null
        }
      })
      await recordTicketChanges(tx, actor, src, updatedSource)
      await recordTicketChanges(tx, actor, tgt, updatedTarget)
      await recordTicketEntries(tx, actor, tgt.id, [{ field: 'merged_from', old_value: null, new_value: { id: src.id, title: src.title, comments: moved.length }, public: true }])

      const merge = mergeFacts(record, src, tgt, moved.length)
      const targetFacts = ticketEventFacts(actor.id, updatedTarget, await categoryOf(tx, updatedTarget))
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketMerged, ...targetFacts, merge } satisfies TicketMergedEvent)
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...ticketEventFacts(actor.id, updatedSource, await categoryOf(tx, updatedSource)), changes: changedFields(src, { status: TicketStatus.Closed, merged_into_id: tgt.id }) } satisfies TicketUpdatedEvent)
      const targetChanges = changedFields(tgt, targetPatch)
      if (targetChanges.length > 0) await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...targetFacts, changes: targetChanges } satisfies TicketUpdatedEvent)
      return updatedTarget
    })
  }

  /**
   * Undoes the merge of `sourceId` within the grace period (setting
   * `tickets.merge_undo_hours`): the moved comments still on the target go
   * back with their attachments and privacy, the body reply is removed, the
   * participants and answers the target gained are taken away (an answer
   * changed since stays), the source gets its status back and the target,
   * when the merge reopened it and it is still Open, closes again. Replies
   * that landed on the target after the merge stay there. Refused (422) once
   * the merge's comments have left the target (split off, or the target
   * merged on): undo that first. Returns the source.
   */
  async unmerge (caller: ActorInput, sourceId: number): Promise<Ticket> {
    const actor = requirePerson(caller)
    const { store } = this.ctx
    const { ticket: source, scope } = await visibleTicket(store, actor, sourceId)
    ensure(isStaff(actor), 'Only staff may undo a merge.')
    const record = await store.ticketMerges.activeMergeOf(source.id)
    if (record === null || source.merged_into_id == null) throw ValidationError.field('id', `Ticket #${source.id} is not merged into another ticket.`)
    const hours = settingsFrom(Object.fromEntries((await store.settings.all()).map((s) => [s.key, s.value])))['tickets.merge_undo_hours']
    const age = this.ctx.clock.now().getTime() - parseDateTime(record.created_at)
    if (age > hours * 3_600_000) {
      throw ValidationError.field('id', `The merge of #${source.id} into #${record.target_id} is older than ${hours} hours and can no longer be undone.`)
    }
    const target = await store.tickets.findById(record.target_id) ?? notFound()
    if (!canSeeTicket(scope.tickets, target)) throw new ForbiddenError(`Ticket #${source.id} was merged into a ticket you cannot see.`)

    return await this.ctx.events.transaction(store, async (tx) => {
      await tx.ticketMerges.lock([source.id, target.id])
      if (!await tx.ticketMerges.markUndone(record.id, nowString(this.ctx))) throw ValidationError.field('id', `Ticket #${source.id} is not merged into another ticket.`)
      const src = await tx.tickets.findById(source.id) ?? notFound()
      const tgt = await tx.tickets.findById(target.id) ?? notFound()
      const { moves } = record
      // Under the lock (splits and merges of the target take it too): undo only what is still where the merge put it.
      const bodyIds = moves.body_comment_id !== null ? [moves.body_comment_id] : []
      const elsewhere = await tx.ticketMerges.commentsElsewhere([...bodyIds, ...moves.comment_ids], tgt.id)
      if (tgt.merged_into_id != null || elsewhere.length > 0) {
        const why = tgt.merged_into_id != null ? `#${tgt.id} was merged into #${tgt.merged_into_id} since` : `comments have moved off #${tgt.id} since the merge (split or merged on)`
        throw ValidationError.field('id', `The merge of #${src.id} into #${tgt.id} cannot be undone: ${why}; undo that first.`)
      }
      await tx.ticketMerges.moveAttachments(moves.body_attachment_ids, { ticket_id: src.id, comment_id: null })
      if (moves.body_comment_id !== null) await tx.comments.delete(moves.body_comment_id)
      const back = await tx.ticketMerges.moveComments(moves.comment_ids, tgt.id, src.id)
      await tx.ticketMerges.setCommentsPrivate(moves.privatized_comment_ids.filter((id) => back.includes(id)), false)
      await tx.ticketMerges.removeParticipants(tgt.id, moves.participant_ids)

      const targetPatch: TicketPatch = {}
      if (Object.keys(moves.fields).length > 0 || moves.purchase_code !== null) {
        const additional = withAnswers(tgt.additional, { fields: moves.fields, purchase_code: moves.purchase_code }, true)
        if (JSON.stringify(additional) !== JSON.stringify(tgt.additional)) targetPatch.additional = additional
      }
      if (moves.reopened_target_from !== null && tgt.status === TicketStatus.Open) targetPatch.status = moves.reopened_target_from as TicketStatusNumber
      const updatedTarget = await tx.tickets.update(tgt.id, targetPatch) ?? notFound()
      const sourcePatch: TicketPatch = { status: moves.source_status as TicketStatusNumber, merged_into_id: null }
      const updatedSource = await tx.tickets.update(src.id, sourcePatch) ?? notFound()
      await recordTicketChanges(tx, actor, src, updatedSource)
      await recordTicketChanges(tx, actor, tgt, updatedTarget)
      await recordTicketEntries(tx, actor, tgt.id, [{ field: 'merged_from', old_value: { id: src.id, title: src.title, comments: back.length }, new_value: null, public: true }])

      const merge = mergeFacts(record, src, tgt, back.length)
      const sourceFacts = ticketEventFacts(actor.id, updatedSource, await categoryOf(tx, updatedSource))
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketUnmerged, ...sourceFacts, merge } satisfies TicketUnmergedEvent)
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...sourceFacts, changes: changedFields(src, sourcePatch) } satisfies TicketUpdatedEvent)
      const targetChanges = changedFields(tgt, targetPatch)
      if (targetChanges.length > 0) {
        await this.ctx.events.emit(tx, { type: TicketEventType.TicketUpdated, ...ticketEventFacts(actor.id, updatedTarget, await categoryOf(tx, updatedTarget)), changes: targetChanges } satisfies TicketUpdatedEvent)
      }
      return updatedSource
    })
  }

  /**
   * Moves the chosen comments (with their attachments) of ticket `ticketId`
   * to a new ticket of the same customer, category, privacy, priority,
   * assignee, tags, answers and participants. Its body says where it came
   * from (never a moved comment's words: the first might be a note). To undo
   * a split, merge the new ticket back. Returns the new ticket.
   */
  async split (caller: ActorInput, ticketId: number, input: SplitInput): Promise<Ticket> {
    const actor = requirePerson(caller)
    const { store } = this.ctx
    const { ticket } = await visibleTicket(store, actor, ticketId)
    ensure(isStaff(actor), 'Only staff may split tickets.')
    if (ticket.merged_into_id != null) throw ValidationError.field('id', `Ticket #${ticket.id} was merged into #${ticket.merged_into_id}: split that one instead.`)
    const errors: FieldErrors = {}
    const title = input.subject !== undefined ? checkedTitle(errors, input.subject) : splitTitle(ticket, TICKET_LIMITS.title)
    const ids = [...new Set(input.comment_ids)]
    if (ids.length === 0) errors.comment_ids = ['Choose at least one comment to split off.']
    if (ids.length > TICKET_MERGE_LIMITS.splitComments) errors.comment_ids = [`At most ${TICKET_MERGE_LIMITS.splitComments} comments can be split off at once.`]
    throwIfInvalid(errors)

    return await this.ctx.events.transaction(store, async (tx) => {
      await tx.ticketMerges.lock([ticket.id])
      const onTicket = new Set((await tx.ticketMerges.commentsOf(ticket.id)).map((c) => c.id))
      input.comment_ids.forEach((id, i) => { if (!onTicket.has(id)) errors[`comment_ids.${i}`] = [`Comment ${id} is not on ticket #${ticket.id}.`] })
      throwIfInvalid(errors)
      const at = nowString(this.ctx)
      const created = await tx.tickets.create({
        user_id: ticket.user_id,
        creator_id: actor.id,
        category_id: ticket.category_id,
        status: TicketStatus.Open,
        private: ticket.private,
        title,
        body: `<p>Split from ticket #${ticket.id}.</p>`,
        additional: structuredClone(ticket.additional),
        priority: ticket.priority,
        assigned_agent_id: ticket.assigned_agent_id,
        agent_assigned_at: ticket.assigned_agent_id !== null ? at : null
      })
      const tags = (await tx.tickets.tagsOf([ticket.id])).get(ticket.id) ?? []
      if (tags.length > 0) await tx.tickets.setTags(created.id, tags.map((tag) => tag.name))
      const moved = await tx.ticketMerges.moveComments(ids, ticket.id, created.id)
      const participants = await tx.mail.participantIds(ticket.id)
      for (const id of participants) await tx.mail.addParticipant(created.id, id)
      const record = await tx.ticketMerges.create({
        kind: 'split',
        source_id: ticket.id,
        target_id: created.id,
        actor_id: actor.id,
        moves: {
          comment_ids: moved, privatized_comment_ids: [], body_comment_id: null, body_attachment_ids: [], participant_ids: participants, fields: {}, purchase_code: null, source_status: ticket.status, reopened_target_from: null
        }
      })
      await recordTicketEntries(tx, actor, ticket.id, [{ field: 'split_to', old_value: null, new_value: { id: created.id, title: created.title, comments: moved.length }, public: true }])
      await recordTicketEntries(tx, actor, created.id, [{ field: 'split_from', old_value: null, new_value: { id: ticket.id, title: ticket.title, comments: moved.length }, public: true }])
      const facts = ticketEventFacts(actor.id, { ...created, tags } as Ticket, await categoryOf(tx, created))
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketCreated, ...facts, channel: actor.channel } satisfies TicketCreatedEvent)
      await this.ctx.events.emit(tx, { type: TicketEventType.TicketSplit, ...facts, merge: mergeFacts(record, ticket, created, moved.length) } satisfies TicketSplitEvent)
      return created
    })
  }
}

/** The 422 of `mergeRefusal`, and of a source merged already. */
function checkMergeable (source: Ticket, target: Ticket): void {
  if (source.merged_into_id != null) throw ValidationError.field('id', `Ticket #${source.id} was merged into #${source.merged_into_id} already.`)
  const refusal = mergeRefusal(source, target)
  if (refusal !== null) throw ValidationError.field('target_id', refusal)
}

function mergeFacts (record: TicketMerge, source: Ticket, target: Ticket, comments: number): TicketMergeFacts {
  return { id: record.id, source: { id: source.id, title: source.title }, target: { id: target.id, title: target.title }, comments }
}

async function categoryOf (store: Store, ticket: Ticket): Promise<Pick<Category, 'id' | 'name'>> {
  return await store.categories.findById(ticket.category_id) ?? { id: ticket.category_id, name: '' }
}

function notFound (): never {
  throw new NotFoundError('Ticket')
}
