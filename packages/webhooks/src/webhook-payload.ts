import { systemActor, type AvatarResolver, type Comment, type CustomerNote, type Helpdesk, type LoggedEvent, type Ticket, type User } from '@helpdesk/core'
import { presentArticle, presentComment, presentCustomer, presentNote, presentTicket } from '@helpdesk/shapes'

/** Who a webhook's resources are shown to: the help desk itself, which sees as an administrator does (every email, every field). */
const ADMINISTRATOR = systemActor('webhooks')

/**
 * The `data` of a webhook: the resources as the API shows them to an
 * administrator (the presenters of @helpdesk/shapes, which the routes use too), plus the event's own facts.
 */
async function dataOf (event: LoggedEvent, helpdesk: Helpdesk, avatar: AvatarResolver): Promise<Record<string, unknown>> {
  const { ticket, comment, customer, note, article, ...rest } = event.payload as Record<string, unknown>
  const data: Record<string, unknown> = { actor_id: event.actor_id, ...rest }
  if (ticket !== undefined) data.ticket = presentTicket(ticket as Ticket, avatar, ADMINISTRATOR)
  if (comment !== undefined) {
    // Tickets.CommentAdded carries the comment's summary: the whole comment is read once, for the first attempt.
    const full = (comment as Partial<Comment>).body !== undefined
      ? comment as Comment
      : await helpdesk.comments.findForWebhook((comment as { id: number }).id)
    data.comment = full !== null ? presentComment(full, avatar, ADMINISTRATOR) : comment
  }
  if (customer !== undefined) data.customer = presentCustomer(customer as User, avatar)
  if (note !== undefined) data.note = presentNote(note as CustomerNote, avatar, ADMINISTRATOR)
  if (article !== undefined) data.article = presentArticle(article as Parameters<typeof presentArticle>[0], avatar, ADMINISTRATOR)
  return data
}

/** The exact body of a delivery: `{id, type, created_at, data}`. Built once and stored, so retries resend the same bytes. */
export async function webhookBody (event: LoggedEvent, helpdesk: Helpdesk, avatar: AvatarResolver): Promise<string> {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: await dataOf(event, helpdesk, avatar) })
}
