/**
 * Resource shapes as the public API returns them: derived, type-only, from the
 * schemas the API itself validates and documents with (`@helpdesk/shapes`), so
 * the console cannot drift from the wire format and nothing of those packages
 * reaches the browser bundle (docs/http-api.md, CONTRACT.md).
 */
import type { PermissionKey as CorePermissionKey } from '@helpdesk/core'
import type * as shapes from '@helpdesk/shapes'
import type { Static } from '@helpdesk/shapes'

export type UserType = Static<typeof shapes.Person>['type']

/** The signed-in person (`GET /auth/session`). */
export type SessionUser = Static<typeof shapes.Person>

/** A person embedded in another resource (the email only for staff and the person themselves). */
export type Person = Static<typeof shapes.EmbeddedPerson>

/** What the console holds of the signed-in person's permissions: `{}` until the session is read, and for customers. */
export type Permissions = Partial<Static<typeof shapes.Permissions>>
/** The permission keys, in the order the console lists them; the compiler checks them against core's. */
export const PERMISSION_KEYS = ['view_all_tickets', 'manage_customers', 'manage_articles', 'assign_tickets', 'delete_tickets'] as const satisfies readonly CorePermissionKey[]
export type PermissionKey = typeof PERMISSION_KEYS[number]
/** Fails to compile when core gains a permission the list above lacks. */
export type AllPermissionKeysListed = [Exclude<CorePermissionKey, PermissionKey>] extends [never] ? true : never
const allPermissionKeysListed: AllPermissionKeysListed = true
void allPermissionKeysListed

export type Category = Static<typeof shapes.Category>
export type CustomField = Static<typeof shapes.CustomField>
export type Attachment = Static<typeof shapes.Attachment>
export type Comment = Static<typeof shapes.Comment>
export type TicketPresence = Static<typeof shapes.TicketPresence>

/** The signed-in person's unsent reply or note on a ticket (`GET /tickets/{id}/draft`). */
export type Draft = Static<typeof shapes.Draft>
export type Ticket = Static<typeof shapes.Ticket>
export type Customer = Static<typeof shapes.Customer>
export type CustomerNote = Static<typeof shapes.Note>
export type Agent = Static<typeof shapes.Agent>
export type CannedResponse = Static<typeof shapes.CannedResponse>
export type Collection = Static<typeof shapes.Collection>
export type Article = Static<typeof shapes.Article>
export type Notification = Static<typeof shapes.Notification>
export type ImportJob = Static<typeof shapes.ImportJob>

/** One of the signed-in person's sessions (`GET /auth/sessions`). */
export type SignInSession = Static<typeof shapes.SessionItem>

/** One rating of one closing of a ticket (`GET /tickets/{id}?include=satisfaction`, `/tickets/{id}/satisfaction`). */
export type SatisfactionRating = Static<typeof shapes.SatisfactionRating>

/** `GET /tickets/{id}/satisfaction`. */
export type TicketSatisfaction = Static<typeof shapes.TicketSatisfaction>
export type SatisfactionSurvey = TicketSatisfaction['survey']

/** `POST /satisfaction/link`: what a closing mail's rating link is about. */
export type LinkSatisfaction = Omit<Static<typeof shapes.LinkSatisfaction>, 'reason'> & {
  /** The schema shares its reasons with the portal's view; a link is its ticket owner's, so never `not-owner` (core's `LinkSatisfaction`). */
  reason: Exclude<Static<typeof shapes.LinkSatisfaction>['reason'], 'not-owner'>
}

/** `GET /mail/inbound` and `/mail/messages`: the record of a received or sent mail (administrators). */
export type MailRecord = Static<typeof shapes.MailMessage>

/** One recorded change of a ticket (`GET /tickets/{id}/history`). */
export type HistoryEntry = Static<typeof shapes.TicketHistoryEntry>

/** One entry of `GET /audit-log`. */
export type AuditEntry = Static<typeof shapes.AuditEntry>

/** A view of the ticket list (`GET /views`): built-in or saved, with `count` when asked for. */
export type TicketListView = Static<typeof shapes.View>

/** The data of a `ticket` event of `/events`: the ticket's state after a change the viewer may see. */
export type TicketStreamData = import('@helpdesk/core').TicketStreamData

/** One ticket's outcome of `POST /tickets/bulk`. */
export type BulkOutcome = Static<typeof shapes.BulkTicketOutcome>
export type BulkAction = Static<typeof shapes.BulkTicketAction>
