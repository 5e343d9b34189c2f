import type { EventRecorder } from '../events.js'
import { candidateIds, recipientsOf } from '../notifications/notification-rules.js'
import { mailAudience } from '../notifications/mail-rules.js'
import type { Store } from '../store.js'
import type { CommentAddedEvent, TicketEventBase } from '../tickets/ticket-events.js'
import { UserStatus } from '../users/user.js'
import { domainOf, addressOf, newMessageId, newToken, ticketSubject } from './mail-headers.js'
import type { MailSettings, MailThread } from './mail.js'

export const MAIL_SEND_JOB = 'mail.send'
/** Attempts before a mail is given up as failed (with the job's backoff: about a day). */
export const MAIL_SEND_ATTEMPTS = 12

/** The ticket's thread, created with its reply token and root Message-ID on first use. */
export async function ticketThread (tx: Store, settings: MailSettings, ticketId: number): Promise<MailThread> {
  const known = await tx.mail.findThread(ticketId)
  if (known !== null) return known
  const domain = domainOf(addressOf(settings.from))
  return await tx.mail.ensureThread({ ticket_id: ticketId, reply_token: newToken(), root_message_id: newMessageId(domain, ticketId, 'root') })
}

/**
 * Turns domain events into mails inside the emitting transaction: one
 * `mail_messages` row per recipient and one `mail.send` job each, so a mail
 * is queued if and only if its change commits. Sending happens later, in the
 * job runner, never in the request.
 */
export function createMailRecorder (settings: MailSettings): EventRecorder {
  const domain = domainOf(addressOf(settings.from))
  return async (tx, event) => {
    const audience = mailAudience(event)
    if (audience === null) return
    const e = event as TicketEventBase
    const staff = audience.staff !== undefined ? await tx.users.staffIds(audience.staff) : []
    const participants = audience.participants ? await tx.mail.participantIds(e.ticket.id) : []
    const candidates = candidateIds({ ...audience, users: [...audience.users, ...participants] }, staff, event.actor_id)
    if (candidates.length === 0) return
    let ids = recipientsOf(audience, await tx.users.notificationSettingsOf(candidates))
    if (audience.toCustomers && ids.length > 0) {
      const out = new Set(await tx.mail.optedOut(ids))
      ids = ids.filter((id) => !out.has(id))
    }
    const people = (await tx.mail.people(ids)).filter((p) => p.status !== UserStatus.Banned && p.email !== '')
    if (people.length === 0) return
    const thread = await ticketThread(tx, settings, e.ticket.id)
    const commentId = event.type === 'Tickets.CommentAdded' ? (event as CommentAddedEvent).comment.id : null
    const messageId = audience.kind === 'new-ticket'
      ? thread.root_message_id
      : newMessageId(domain, e.ticket.id, commentId !== null ? `c${commentId}` : audience.kind)
    const subject = ticketSubject(e.ticket.id, e.ticket.title, audience.kind !== 'new-ticket')
    const rowIds = await tx.mail.createOutbound(people.map((person) => ({
      kind: audience.kind,
      message_id: messageId,
      ticket_id: e.ticket.id,
      comment_id: commentId,
      user_id: person.id,
      author_id: event.actor_id,
      recipient: person.email,
      subject,
      unsubscribe_token: audience.toCustomers ? newToken() : null
    })))
    await tx.jobs.enqueue(rowIds.map((id) => ({ type: MAIL_SEND_JOB, payload: { mail_message_id: id }, maxAttempts: MAIL_SEND_ATTEMPTS })))
  }
}
