import { automaticMailAllowed, AUTOMATIC_MAIL_CAP } from '../automation/mail-cap.js'
import type { EffectAction, RuleChange } from '../automation/rule-actions.js'
import type { RuleChannel, RuleTicket, TriggerEvent } from '../automation/rule-conditions.js'
import { runTriggerPass, type TriggerPassResult, type TriggerRule } from '../automation/trigger-pass.js'
import { placeholderValues, renderPlaceholders } from '../canned-responses/placeholders.js'
import { nowString, type ServiceContext } from '../context.js'
import { recordedActor } from '../history/ticket-history.js'
import type { Category } from '../categories/category.js'
import type { DomainEvent } from '../events.js'
import type { Tag } from '../knowledge-base/article.js'
import { ruleTicketOf } from '../macros/macro-service.js'
import type { Store } from '../store.js'
import { plainText } from '../html.js'
import { CommentType, commentPreview } from '../tickets/comment.js'
import {
  ticketEventFacts, TicketEventType, type CommentAddedEvent, type TicketAssignedEvent, type TicketClosedByAgentEvent, type TicketUpdatedEvent
} from '../tickets/ticket-events.js'
import type { TicketPatch } from '../tickets/ticket-store.js'
import { ticketWithTags } from '../tickets/ticket-tag-events.js'
import { TicketStatus, withRecordedDue, type Ticket } from '../tickets/ticket.js'
import { formatDateTime } from '../time.js'
import { automationActor, toActor, type ActorInput, type AutomationActor } from '../users/actor.js'
import { isStaff, UserStatus, type User } from '../users/user.js'
import { conditionsAskBusinessHours, ticketWithinBusinessHours } from '../sla/ticket-business-hours.js'
import { runTriggerEffect } from './trigger-effects.js'
import { applyAssignmentRule } from '../assignment/assignment-service.js'

/** One ticket change, as the services that made it describe it to triggers. */
export interface TriggerChange {
  event: TriggerEvent
  /** The ticket after the change. */
  ticket: Ticket
  /** The ticket before it (null on creation) and its tag names. */
  previous?: { ticket: Ticket, tags?: readonly string[] | undefined } | null
  /** The comment's body (comment events). */
  comment?: string | null
  /** The change came from auto-submitted mail (RFC 3834): replies are suppressed. */
  autoSubmitted?: boolean
  /** The ticket's tags after the change, when the caller has them (else read). */
  tags?: readonly Tag[]
  /** The ticket's owner, when the caller has it (else read). */
  owner?: User | null
  /** The ticket's category, when the caller has it (else read when a trigger writes). */
  category?: Pick<Category, 'id' | 'name'>
}

/** The channel a rule sees for an actor: a person's door, mail for a mail sender, automation for rules. */
export function ruleChannelOf (input: ActorInput): RuleChannel {
  const actor = toActor(input)
  switch (actor.kind) {
    case 'person': return actor.channel
    case 'mail': return 'mail'
    case 'automation': return 'automation'
    default: return 'system'
  }
}

/** What a pass did, for tests and logs: the pass, and the ticket as the triggers left it (with its due times). */
export type TriggerRun = (TriggerPassResult & { after: Ticket }) | null

/**
 * The trigger hook of a ticket change, called by the ticket and comment
 * services inside the change's transaction (one line each), and by the SLA
 * escalation for warnings and breaches: reads the active triggers (the
 * store keeps them per process behind one version read; nothing more when
 * none reacts to the event), builds the rule facts, runs the pass, writes
 * each fired trigger's field changes, records them in history as that
 * trigger (door `automation`), raises ticket-updated events naming it
 * (webhooks and the stream carry them) and carries out the effects. Changes
 * made by triggers never run triggers again: the pass already handled its
 * rounds. `change.tags` and `change.owner`, when the caller has them, save
 * their reads.
 */
export async function runTriggersOnChange (ctx: ServiceContext, tx: Store, actor: ActorInput, change: TriggerChange): Promise<TriggerRun> {
  const acting = toActor(actor)
  if (acting.kind === 'automation' && acting.rule.type === 'trigger') return null
  // A merged ticket is closed for good unless the merge is undone: rules leave it alone (docs/tickets.md).
  if (change.ticket.merged_into_id != null) return null
  const active = await tx.triggers.active()
  if (!active.some((trigger) => trigger.events.includes(change.event))) return null
  // Those on `ticket.updated` too: the changes of a round are a ticket update for the next round (a breach trigger's tag, say).
  const triggers = active.filter((trigger) => trigger.events.includes(change.event) || trigger.events.includes('ticket.updated'))
  const id = change.ticket.id
  const tags = change.tags !== undefined ? [...change.tags] : (await tx.tickets.tagsOf([id])).get(id) ?? []
  const owner = change.owner !== undefined ? change.owner : await tx.users.findById(change.ticket.user_id)
  const ticket = ruleTicketOf(change.ticket, tags)
  const previous = change.previous === undefined || change.previous === null
    ? null
    : { ...ruleTicketOf(change.previous.ticket, []), tags: change.previous.tags !== undefined ? [...change.previous.tags] : ticket.tags }
  const rules: TriggerRule[] = triggers.map((trigger) => ({ id: trigger.id, name: trigger.name, events: trigger.events, conditions: trigger.conditions, actions: trigger.actions }))
  // The ticket's SLA calendar is read only when a condition asks about business hours.
  const asksHours = rules.some((rule) => conditionsAskBusinessHours(rule.conditions))
  const result = runTriggerPass(rules, {
    event: change.event,
    channel: ruleChannelOf(actor),
    ticket,
    previous,
    customer_email: owner?.email === undefined || owner.email === '' ? null : owner.email.toLowerCase(),
    comment_text: change.comment === undefined || change.comment === null ? null : plainText(change.comment, 65535),
    within_business_hours: asksHours ? await ticketWithinBusinessHours(tx, id, ctx.clock.now()) : true,
    auto_submitted: change.autoSubmitted === true
  })
  if (result.fired.length === 0) return { ...result, after: change.ticket }

  // One write for every fired trigger's field changes (history and events still say which trigger made which), then the effects in order.
  const steps = result.fired.map((fired) => ({ by: automationActor({ type: 'trigger', id: fired.trigger.id, name: fired.trigger.name }), changes: fired.changes }))
  let current = steps.some((step) => step.changes.length > 0) ? (await writeRuleChanges(ctx, tx, steps, change.ticket, tags, change.category)).ticket : change.ticket
  let reread = false
  for (const [index, fired] of result.fired.entries()) {
    for (const effect of fired.effects) {
      current = await runTriggerEffect(ctx, tx, steps[index]!.by, current, effect, { owner: owner ?? null }) ?? current
      // A note or reply moves the ticket (its updated_at, a reply its status and due times) through the comment path.
      if (effect.type === 'add_note' || effect.type === 'reply') reread = true
    }
  }
  return { ...result, after: reread ? await tx.tickets.findById(id) ?? current : current }
}

/** History names of the rule language's fields (as `ticketChanges` records them). */
const HISTORY_FIELDS: Record<string, string> = { status: 'status', priority: 'priority', private: 'private', category_id: 'category', assigned_agent_id: 'assignee', tags: 'tags', title: 'title' }

/**
 * Writes the field changes of one or more rules (in order: a later one's
 * value wins) to the ticket in one update (and one tag write), records each
 * rule's changes in history under its name (one insert), and raises one
 * `Tickets.TicketUpdated` naming the rules (`rule`: the first, `rules`: all), plus
 * `TicketAssigned`/`TicketClosedByAgent` as they apply. A target that is
 * gone (a deleted category, a banned agent) is skipped. Returns the ticket
 * and tags after.
 */
export async function writeRuleChanges (
  ctx: ServiceContext, tx: Store, steps: Array<{ by: AutomationActor, changes: RuleChange[] }>, ticket: Ticket, tags: Tag[],
  knownCategory?: Pick<Category, 'id' | 'name'>
): Promise<{ ticket: Ticket, tags: Tag[] }> {
  const patch: TicketPatch = {}
  let newTags: string[] | null = null
  const skipped = new Set<RuleChange>()
  for (const change of steps.flatMap((step) => step.changes)) {
    switch (change.field) {
      case 'status': patch.status = change.to as TicketPatch['status']; break
      case 'priority': patch.priority = change.to as TicketPatch['priority']; break
      case 'private': patch.private = change.to as boolean; break
      case 'category_id':
        if (await tx.categories.findById(change.to as number) !== null) patch.category_id = change.to as number
        else skipped.add(change)
        break
      case 'assigned_agent_id': {
        const agentId = change.to as number | null
        if (agentId !== null) {
          const agent = await tx.users.findById(agentId)
          if (agent === null || !isStaff(agent) || agent.status === UserStatus.Banned) { skipped.add(change); break }
        }
        patch.assigned_agent_id = agentId
        patch.agent_assigned_at = agentId === null ? null : nowString(ctx)
        break
      }
      case 'tags': newTags = change.to as string[]; break
      default:
        if (change.field.startsWith('field:')) {
          const fields = { ...(patch.additional?.fields ?? ticket.additional.fields ?? {}) }
          const key = change.field.slice('field:'.length)
          if (change.to === null || change.to === '') delete fields[key]
          else fields[key] = change.to as string
          patch.additional = { ...ticket.additional, fields }
        }
    }
  }
  const updated = Object.keys(patch).length > 0 ? await tx.tickets.update(ticket.id, patch) ?? ticket : ticket
  const updatedTags = newTags !== null ? await tx.tickets.setTags(ticket.id, newTags) : tags
  const entries = steps.flatMap((step) => {
    const who = recordedActor(step.by)
    return step.changes.filter((change) => !skipped.has(change)).map((change) => ({
      ticket_id: ticket.id,
      ...who,
      field: change.field.startsWith('field:') ? `fields.${change.field.slice('field:'.length)}` : HISTORY_FIELDS[change.field] ?? change.field,
      old_value: change.from ?? null,
      new_value: change.to ?? null,
      public: change.field === 'status'
    }))
  })
  if (entries.length > 0) await tx.ticketHistory.add(entries)
  const category = knownCategory?.id === updated.category_id ? knownCategory : await tx.categories.findById(updated.category_id) ?? { id: updated.category_id, name: '' }
  const base = ticketEventFacts(null, ticketWithTags(updated, updatedTags), category)
  // One event for the rules' changes together (one change of the ticket for webhooks and the stream), naming every rule that made one.
  const events: DomainEvent[] = []
  const applied = steps.map((step) => ({ rule: step.by.rule, changes: step.changes.filter((change) => !skipped.has(change)) })).filter((step) => step.changes.length > 0)
  const first = applied[0]
  if (first !== undefined) {
    const fieldNames = [...new Set(applied.flatMap((step) => step.changes).map((change) => change.field.startsWith('field:') ? 'additional' : change.field))]
    events.push({
      type: TicketEventType.TicketUpdated,
      ...base,
      rule: first.rule,
      rules: applied.map((step) => step.rule),
      changes: fieldNames,
      rule_changes: applied.flatMap((step) => step.changes)
    } satisfies TicketUpdatedEvent & { rules: unknown[], rule_changes: RuleChange[] })
  }
  const last = steps.at(-1)?.by.rule
  if (patch.assigned_agent_id !== undefined && patch.assigned_agent_id !== null && patch.assigned_agent_id !== ticket.assigned_agent_id) {
    const agent = await tx.users.findById(patch.assigned_agent_id)
    if (agent !== null) events.push({ type: TicketEventType.TicketAssigned, ...base, rule: last, agent: { id: agent.id, first_name: agent.first_name, last_name: agent.last_name } } satisfies TicketAssignedEvent)
  }
  if (updated.status === TicketStatus.Closed && ticket.status !== TicketStatus.Closed) {
    events.push({ type: TicketEventType.TicketClosedByAgent, ...base, rule: last } satisfies TicketClosedByAgentEvent)
  }
  await ctx.events.emitMany(tx, events)
  // The SLA recorder set the due times on the event's copy of the ticket: the caller needs no re-read for them.
  return { ticket: withRecordedDue(updated, base.ticket), tags: updatedTags }
}

/** Writes a note or reply authored by the help desk (no user), raising `CommentAdded` naming the rule. */
export async function addRuleComment (ctx: ServiceContext, tx: Store, by: AutomationActor, ticket: Ticket, body: string, type: 1 | 2): Promise<void> {
  const comment = await tx.comments.create({ ticket_id: ticket.id, user_id: null, body, preview: commentPreview(body), type, private: false })
  if (type === CommentType.Reply) await tx.tickets.update(ticket.id, {})
  const category = await tx.categories.findById(ticket.category_id) ?? { id: ticket.category_id, name: '' }
  await ctx.events.emit(tx, {
    type: TicketEventType.CommentAdded,
    ...ticketEventFacts(null, ticket, category),
    rule: by.rule,
    comment: { id: comment.id, type: comment.type, private: comment.private, preview: comment.preview, user_id: null },
    by_staff: true
  } as unknown as CommentAddedEvent)
}

/** Fills a trigger's reply or note with the canned-response placeholders. */
export async function renderRuleBody (tx: Store, ticket: Ticket, body: string): Promise<string> {
  const category = await tx.categories.findById(ticket.category_id)
  const customer = await tx.users.findById(ticket.user_id)
  const agent = ticket.assigned_agent_id === null ? null : await tx.users.findById(ticket.assigned_agent_id)
  return renderPlaceholders(body, placeholderValues({ ticket, category, customer, agent: agent ?? { first_name: '', last_name: '' } }))
}

/** Whether one more automatic mail may go to `recipient` now (30 per 10 minutes, counted in the shared outbox). */
export async function automaticMailMayGo (ctx: ServiceContext, tx: Store, recipient: string): Promise<boolean> {
  const since = formatDateTime(new Date(ctx.clock.now().getTime() - AUTOMATIC_MAIL_CAP.windowMs))
  return automaticMailAllowed(await tx.triggers.automaticMailsSince(recipient, since))
}

export type { EffectAction, RuleTicket }

/** `runTriggersOnChange`, then the ticket as the triggers left it (re-read only when a trigger wrote a comment). */
export async function ticketAfterTriggers (ctx: ServiceContext, tx: Store, actor: ActorInput, change: TriggerChange): Promise<Ticket> {
  const run = await runTriggersOnChange(ctx, tx, actor, change)
  const ticket = run === null ? change.ticket : run.after
  // A new ticket nobody (no trigger) assigned gets its category's assignment rule.
  return change.event === 'ticket.created' ? await applyAssignmentRule(ctx, tx, ticket) : ticket
}
