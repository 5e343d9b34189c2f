import { rememberForActor } from '../auth/actor-memo.js'
import { ForbiddenError, NotFoundError } from '../errors.js'
import type { Store } from '../store.js'
import { actsAsAdmin, actsAsStaff, personOf, userOf, type ActorInput } from '../users/actor.js'
import { hasPermission } from '../users/user-policy.js'
import { isStaff, type User } from '../users/user.js'
import type { Attachment } from './attachment.js'
import { CommentType, type Comment } from './comment.js'
import type { Ticket } from './ticket.js'

/**
 * Which tickets a caller sees (CONTRACT §3), as data: the store turns it into
 * SQL for lists, `canSeeTicket` applies it to one ticket. One rule, two uses.
 * - administrators, and agents with `view_all_tickets`: all;
 * - other agents: tickets of their categories and tickets assigned to them;
 * - customers: their own tickets and public ones (`private = false`).
 */
export type TicketVisibility =
  | { all: true }
  | { ownerOrPublic: number }
  | { categoryIds: number[], assignedTo: number }

/**
 * Which comments of a visible ticket a caller sees: staff all; a customer only
 * replies (type 1), and private replies only on tickets they own.
 */
export type CommentVisibility =
  | { all: true }
  | { repliesFor: number }

/** What a caller sees, for lists and includes that depend on who asks (`last_reply`, `last_read_by_me`). */
export interface TicketScope {
  tickets: TicketVisibility
  comments: CommentVisibility
  viewerId: number
}

/*
 * Reading and writing tickets is a person's business (a `PersonActor`, or a
 * plain `User` for that person): the functions that need who they are take a
 * `User`; the permission checks answer for any actor.
 */

export function commentVisibility (actor: User): CommentVisibility {
  return isStaff(actor) ? { all: true } : { repliesFor: actor.id }
}

/**
 * The caller's scope; agents without `view_all_tickets` cost one query for
 * their categories (remembered on a token-authenticated caller until the auth
 * revision moves, which a change of categories does).
 */
export async function ticketScope (store: Store, actor: User): Promise<TicketScope> {
  let tickets: TicketVisibility
  if (!isStaff(actor)) tickets = { ownerOrPublic: actor.id }
  else if (hasPermission(actor, 'view_all_tickets') || coversAllCategories(actor)) tickets = { all: true }
  else tickets = { categoryIds: await rememberForActor(userOf(actor), 'categoryIds', async () => await store.users.categoryIds(actor.id)), assignedTo: actor.id }
  return { tickets, comments: commentVisibility(actor), viewerId: actor.id }
}

/** The ticket and the caller's scope; NotFoundError when it is missing or invisible to the caller. */
export async function visibleTicket (store: Store, actor: User, id: number): Promise<{ ticket: Ticket, scope: TicketScope }> {
  const ticket = await store.tickets.findById(id)
  if (ticket === null) throw new NotFoundError('Ticket')
  const scope = await ticketScope(store, actor)
  if (!canSeeTicket(scope.tickets, ticket)) throw new NotFoundError('Ticket')
  return { ticket, scope }
}

export function canSeeTicket (visibility: TicketVisibility, ticket: Pick<Ticket, 'user_id' | 'private' | 'category_id' | 'assigned_agent_id'>): boolean {
  if ('all' in visibility) return true
  if ('ownerOrPublic' in visibility) return ticket.user_id === visibility.ownerOrPublic || !ticket.private
  return visibility.categoryIds.includes(ticket.category_id) || ticket.assigned_agent_id === visibility.assignedTo
}

/** A comment of a ticket the caller can see. */
export function canSeeComment (visibility: CommentVisibility, comment: Pick<Comment, 'type' | 'private'>, ticket: Pick<Ticket, 'user_id'>): boolean {
  if ('all' in visibility) return true
  return comment.type === CommentType.Reply && (!comment.private || ticket.user_id === visibility.repliesFor)
}

/**
 * A ticket as the caller may read it: `additional` (purchase code, custom-field
 * answers) is the owner's business, so customers reading someone else's
 * public ticket get it empty; tags are staff's, so customers get none.
 */
export function readableTicket<T extends Ticket> (actor: User, ticket: T): T {
  if (isStaff(actor)) return ticket
  // Tags are staff's labels (docs/tickets.md): the `tags` include is empty for customers.
  const untagged = 'tags' in ticket ? { ...ticket, tags: [] } : ticket
  if (ownsTicket(actor, ticket)) return untagged
  return { ...untagged, additional: { fields: {} } }
}

export function ownsTicket (actor: User, ticket: Pick<Ticket, 'user_id'>): boolean {
  return ticket.user_id === actor.id
}

/**
 * Of a visible ticket, staff may change everything, its owner the title and
 * body (a category change by the owner is 403, CONTRACT §16); others nothing.
 */
export function ticketEditRights (actor: User, ticket: Pick<Ticket, 'user_id'>): 'all' | 'text' | 'none' {
  if (isStaff(actor)) return 'all'
  return ownsTicket(actor, ticket) ? 'text' : 'none'
}

/** Making a visible ticket public or private: staff and its owner. */
export function canChangeTicketPrivacy (actor: User, ticket: Pick<Ticket, 'user_id'>): boolean {
  return isStaff(actor) || ownsTicket(actor, ticket)
}

export function canAssignTickets (actor: ActorInput): boolean {
  return hasPermission(actor, 'assign_tickets')
}

/** Staff covering every category, present and future (an administrator's choice per agent). */
export function coversAllCategories (user: Pick<User, 'role' | 'all_categories'>): boolean {
  return isStaff(user) && user.all_categories === true
}

/**
 * Whom a visible ticket may be assigned to (administrators, and agents with
 * `assign_tickets`): the active staff of its category — administrators,
 * agents covering all categories or seeing all tickets, and the agents of the
 * category (`categoryStaff`, from `UserRepository.staffOfCategory`).
 * Administrators may also assign any other active agent (who then sees the
 * ticket because it is theirs).
 */
export function canAssignTo (actor: ActorInput, agent: Pick<User, 'id'>, categoryStaff: ReadonlyArray<Pick<User, 'id'>>): boolean {
  if (!canAssignTickets(actor)) return false
  return actsAsAdmin(actor) || categoryStaff.some((s) => s.id === agent.id)
}

export function canDeleteTickets (actor: ActorInput): boolean {
  return hasPermission(actor, 'delete_tickets')
}

/** Commenting on a visible ticket: staff any type; a customer only replies, only on their own tickets (CONTRACT §3). */
export function canComment (actor: User, ticket: Pick<Ticket, 'user_id'>, type: number): boolean {
  if (isStaff(actor)) return true
  return ownsTicket(actor, ticket) && type === CommentType.Reply
}

/** `canComment`, or 403 saying why (a comment, and a draft of one, ask the same). */
export function ensureCanComment (actor: User, ticket: Pick<Ticket, 'user_id'>, type: number): void {
  if (canComment(actor, ticket, type)) return
  throw new ForbiddenError(isStaff(actor) || ticket.user_id !== actor.id
    ? 'Only the owner of a ticket and staff may comment on it.'
    : 'Customers may only add replies.')
}

/**
 * Editing, deleting or changing the privacy of a visible comment: its author
 * and administrators. Other agents may not rewrite a colleague's words (they
 * answer with a new comment), and a customer only ever touches their own replies.
 */
export function canModifyComment (actor: ActorInput, comment: Pick<Comment, 'user_id'>): boolean {
  return actsAsAdmin(actor) || (comment.user_id !== null && comment.user_id === personOf(actor)?.id)
}

/** Whom an attachment shows without looking at its ticket: its uploader and staff (CONTRACT §12). */
export function seesAttachmentDirectly (actor: ActorInput, attachment: Pick<Attachment, 'user_id'>): boolean {
  return actsAsStaff(actor) || (attachment.user_id !== null && attachment.user_id === personOf(actor)?.id)
}

/** Deleting an attachment (and its file): its uploader and administrators (CONTRACT §16). */
export function canDeleteAttachment (actor: ActorInput, attachment: Pick<Attachment, 'user_id'>): boolean {
  return actsAsAdmin(actor) || (attachment.user_id !== null && attachment.user_id === personOf(actor)?.id)
}
