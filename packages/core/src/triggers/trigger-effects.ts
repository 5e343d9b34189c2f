import { pickAssignee } from '../automation/assignee-picker.js'
import type { EffectAction } from '../automation/rule-actions.js'
import type { ServiceContext } from '../context.js'
import { loggedIdOf } from '../event-log/event-log.js'
import type { DomainEvent } from '../events.js'
import type { NotificationData } from '../notifications/notification.js'
import type { Store } from '../store.js'
import { CommentType } from '../tickets/comment.js'
import { ticketEventFacts, type TicketEventBase } from '../tickets/ticket-events.js'
import type { Ticket } from '../tickets/ticket.js'
import type { AutomationActor } from '../users/actor.js'
import { Role, UserStatus, type User } from '../users/user.js'
import { WEBHOOK_DELIVER_JOB, WEBHOOK_MAX_ATTEMPTS } from '../webhooks/webhook-recorder.js'
import { addRuleComment, automaticMailMayGo, renderRuleBody } from './trigger-runner.js'
import { assignByStrategy } from './trigger-assign.js'

/** The event a trigger's `webhook` action delivers to its endpoint (logged, so the delivery job can build its body). */
export const TRIGGER_WEBHOOK_EVENT = 'Triggers.WebhookCalled'

/** Notifications a trigger's `notify` action leaves (in the bell, for staff). */
export const TRIGGER_NOTIFICATION = 'Triggers.Notify'

/**
 * Carries out one effect of a fired trigger inside the change's transaction.
 * Returns the ticket when the effect changed it (an assignment).
 */
export async function runTriggerEffect (ctx: ServiceContext, tx: Store, by: AutomationActor, ticket: Ticket, effect: EffectAction, subjects: { owner: User | null }): Promise<Ticket | null> {
  switch (effect.type) {
    case 'add_note':
      await addRuleComment(ctx, tx, by, ticket, await renderRuleBody(tx, ticket, effect.body), CommentType.Note)
      return null
    case 'reply': {
      // A reply is a comment on this ticket, sent in its thread: it never opens a ticket of its own (FreeScout #4947).
      const to = subjects.owner?.email ?? ''
      if (to === '' || !await automaticMailMayGo(ctx, tx, to.toLowerCase())) return null
      await addRuleComment(ctx, tx, by, ticket, await renderRuleBody(tx, ticket, effect.body), CommentType.Reply)
      return null
    }
    case 'notify': {
      let ids: number[]
      if (effect.to === 'assignee') ids = ticket.assigned_agent_id === null ? [] : [ticket.assigned_agent_id]
      else if (effect.to === 'category_agents') ids = await tx.users.staffIds({ categoryId: ticket.category_id })
      else {
        const people = await tx.mail.people(effect.to)
        ids = people.filter((person) => (person.role === Role.Admin || person.role === Role.Agent) && person.status !== UserStatus.Banned).map((person) => person.id)
      }
      if (ids.length === 0) return null
      const data = { author_id: null, ticket: { id: ticket.id, title: ticket.title }, message: effect.message, rule: by.rule } as NotificationData
      await tx.notifications.createMany([...new Set(ids)].map((userId) => ({ user_id: userId, type: TRIGGER_NOTIFICATION, data, author_id: null, ticket_id: ticket.id })))
      return null
    }
    case 'webhook': {
      const endpoint = (await tx.webhooks.active()).find((candidate) => candidate.id === effect.webhook_id)
      if (endpoint === undefined) return null
      const category = await tx.categories.findById(ticket.category_id) ?? { id: ticket.category_id, name: '' }
      const event: TicketEventBase = { type: TRIGGER_WEBHOOK_EVENT, ...ticketEventFacts(null, ticket, category), rule: by.rule }
      await ctx.events.emit(tx, event as DomainEvent)
      const eventId = loggedIdOf(event)
      if (eventId === null) return null
      const ids = await tx.webhooks.createDeliveries([{ endpoint_id: endpoint.id, event_id: eventId, event_type: TRIGGER_WEBHOOK_EVENT }])
      await tx.jobs.enqueue(ids.map((id) => ({ type: WEBHOOK_DELIVER_JOB, payload: { delivery_id: id }, maxAttempts: WEBHOOK_MAX_ATTEMPTS })))
      return null
    }
    case 'assign_by':
      return await assignByStrategy(ctx, tx, by, ticket, effect.strategy, pickAssignee)
  }
}
