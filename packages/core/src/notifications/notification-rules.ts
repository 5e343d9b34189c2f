import type { DomainEvent } from '../events.js'
import type { UserRepository } from '../users/user-store.js'
import type { ImportFinishedEvent } from '../imports/import-job.js'
import { CommentType } from '../tickets/comment.js'
import { canSeeComment } from '../tickets/ticket-policy.js'
import type { CommentAddedEvent, TicketAssignedEvent, TicketEventBase, TicketMergedEvent } from '../tickets/ticket-events.js'
import { fullName, type NotificationSettingKey, type NotificationSettings } from '../users/user.js'
import { NotificationType, type NotificationData, type NotificationTypeName } from './notification.js'

/** Staff picked by role, category or permission (resolved by the store in one query). */
export type StaffFilter = Parameters<UserRepository['staffIds']>[0]

/**
 * Who an event is for, before the actor is removed and settings are applied.
 * `users` are named people (owner, assigned agent); `staff` a group.
 */
export interface Audience {
  users: Array<number | null | undefined>
  staff?: StaffFilter
  /** The recipient's setting that must be on, or null: always notify (CONTRACT §16). */
  setting: NotificationSettingKey | null
}

/** `Customers.NoteAdded`, emitted by the customer service. */
interface NoteFacts {
  customer: { id: number, first_name: string, last_name: string }
  note: { id: number }
}
/** One rule per notification type: its audience and its `data` payload. */
export interface NotificationRule<F = any> {
  audience: (event: F & DomainEvent) => Audience
  data: (event: F & DomainEvent) => NotificationData
}

function ticketData (event: TicketEventBase & DomainEvent): NotificationData {
  return {
    ticket: { id: event.ticket.id, title: event.ticket.title },
    category: { id: event.category.id, name: event.category.name },
    author_id: event.actor_id
  }
}

/** The assigned agent, else the agents of the ticket's category. */
function assignedOrCategoryAgents (event: TicketEventBase, setting: NotificationSettingKey | null): Audience {
  const agent = event.ticket.assigned_agent_id
  return agent !== null ? { users: [agent], setting } : { users: [], staff: { categoryId: event.ticket.category_id }, setting }
}

/** Both import outcomes go to the user who started the import. */
const importRule = {
  audience: (e: ImportFinishedEvent) => ({ users: [e.user_id], setting: null }),
  data: (e: ImportFinishedEvent & DomainEvent) => ({ import: { ...e.import }, author_id: e.actor_id })
} satisfies NotificationRule<ImportFinishedEvent>

/**
 * The recipients of each event type (CONTRACT §11, §16). Pure: the recorder
 * resolves `staff` groups and settings with a fixed number of queries.
 */
export const notificationRules: Record<NotificationTypeName, NotificationRule> = {
  [NotificationType.TicketCreated]: {
    audience: (e: TicketEventBase) => ({ users: [], staff: { admins: true, categoryId: e.ticket.category_id }, setting: 'new_ticket' }),
    data: ticketData
  } satisfies NotificationRule<TicketEventBase>,

  [NotificationType.TicketCreatedByAgent]: {
    audience: (e: TicketEventBase) => ({ users: [e.ticket.user_id], setting: 'new_ticket' }),
    data: ticketData
  } satisfies NotificationRule<TicketEventBase>,

  [NotificationType.CommentAdded]: {
    audience: (e: CommentAddedEvent) => {
      if (e.comment.type === CommentType.Note) return { users: [e.ticket.assigned_agent_id], setting: 'new_comment' }
      if (!e.by_staff) return assignedOrCategoryAgents(e, 'new_comment')
      // The owner hears of a staff reply they may see (one visibility rule: CONTRACT §3).
      const ownerSees = canSeeComment({ repliesFor: e.ticket.user_id }, e.comment, e.ticket)
      return { users: [ownerSees ? e.ticket.user_id : null, e.ticket.assigned_agent_id], setting: 'new_comment' }
    },
    data: (e: CommentAddedEvent & DomainEvent) => ({ ...ticketData(e), comment: { id: e.comment.id, preview: e.comment.preview } })
  } satisfies NotificationRule<CommentAddedEvent>,

  [NotificationType.TicketAssigned]: {
    audience: (e: TicketAssignedEvent) => ({ users: [e.agent.id], setting: 'ticket_reassigned' }),
    data: (e: TicketAssignedEvent & DomainEvent) => ({ ...ticketData(e), agent: { id: e.agent.id, name: fullName(e.agent) } })
  } satisfies NotificationRule<TicketAssignedEvent>,

  [NotificationType.TicketClosedByAgent]: {
    audience: (e: TicketEventBase) => ({ users: [e.ticket.user_id], setting: null }),
    data: ticketData
  } satisfies NotificationRule<TicketEventBase>,

  [NotificationType.TicketClosedByCustomer]: {
    audience: (e: TicketEventBase) => assignedOrCategoryAgents(e, null),
    data: ticketData
  } satisfies NotificationRule<TicketEventBase>,

  // The target's assignee hears that another ticket's conversation joined theirs (like an assignment: `ticket_reassigned`).
  [NotificationType.TicketMerged]: {
    audience: (e: TicketMergedEvent) => ({ users: [e.ticket.assigned_agent_id], setting: 'ticket_reassigned' }),
    data: (e: TicketMergedEvent & DomainEvent) => ({ ...ticketData(e), merge: { source: { ...e.merge.source }, comments: e.merge.comments } })
  } satisfies NotificationRule<TicketMergedEvent>,

  [NotificationType.NoteAdded]: {
    audience: () => ({ users: [], staff: { admins: true, permission: 'manage_customers' }, setting: null }),
    data: (e: NoteFacts & DomainEvent) => ({
      customer: { id: e.customer.id, name: fullName(e.customer) },
      note: { id: e.note.id },
      author_id: e.actor_id
    })
  } satisfies NotificationRule<NoteFacts>,

  [NotificationType.WebhookEndpointDisabled]: {
    audience: () => ({ users: [], staff: { admins: true }, setting: null }),
    data: (e: { webhook: { id: number, url: string } } & DomainEvent) => ({ webhook: { id: e.webhook.id, url: e.webhook.url }, author_id: null })
  } satisfies NotificationRule<{ webhook: { id: number, url: string } }>,

  [NotificationType.ImportCompletedSuccessfully]: importRule,
  [NotificationType.ImportFailed]: importRule
}

export function ruleFor (type: string): NotificationRule | null {
  return (notificationRules as Record<string, NotificationRule>)[type] ?? null
}

/** Named users plus the resolved staff, once each, never the actor. */
export function candidateIds (audience: Audience, staffIds: readonly number[], actorId: number | null): number[] {
  const ids = new Set<number>()
  for (const id of [...audience.users, ...staffIds]) {
    if (id !== null && id !== undefined && id !== actorId) ids.add(id)
  }
  return [...ids]
}

/** The candidates whose setting allows the notification. */
export function recipientsOf (audience: Audience, candidates: ReadonlyArray<{ id: number, notifications: NotificationSettings }>): number[] {
  const setting = audience.setting
  return candidates.filter((c) => setting === null || c.notifications[setting]).map((c) => c.id)
}
