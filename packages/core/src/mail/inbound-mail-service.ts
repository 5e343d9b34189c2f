import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { ServiceContext } from '../context.js'
import { HelpdeskError, ValidationError } from '../errors.js'
import type { AttachmentService } from '../tickets/attachment-service.js'
import type { CommentService } from '../tickets/comment-service.js'
import { TICKET_LIMITS, type Ticket } from '../tickets/ticket.js'
import type { TicketService } from '../tickets/ticket-service.js'
import { formatDateTime } from '../time.js'
import { isStaff, Role, UserStatus, type User } from '../users/user.js'
import { htmlAboveMarker, noiseReason, replyText, textToHtml } from './inbound-rules.js'
import { addressOf, baseSubject, replyTokenOf, subjectTicketId } from './mail-headers.js'
import type { InboundMail, MailSettings } from './mail.js'

export type InboundStatus = 'created' | 'replied' | 'duplicate' | 'ignored' | 'failed'

/** What became of a received mail. */
export interface InboundResult {
  /** The record of the mail (null for a duplicate: the first delivery's record stands). */
  id: number | null
  status: InboundStatus
  ticket_id: number | null
  comment_id: number | null
  /** Why it was ignored or could not be processed. */
  reason: string | null
}

const DEFAULT_RATE_LIMIT_PER_HOUR = 60
const HOUR_MS = 3_600_000

/** A failure kept on the record for administrators. */
class Unprocessable extends Error {}

/**
 * Turns received mail into tickets and replies, whichever door it came
 * through (SMTP listener, HTTP raw MIME, IMAP). One record per Message-ID:
 * a mail delivered twice, or sent to two of our addresses, counts once. A
 * reply finds its ticket by, in order: our per-ticket reply address, a
 * Message-ID in `In-Reply-To`/`References` that we stored (sent or
 * received), or a `[#123]` subject tag when the sender is the ticket's
 * owner or a participant; never by body text or subject alone.
 */
export class InboundMailService {
  private readonly ownAddresses: Set<string>
  private readonly replyBase: string

  constructor (
    private readonly ctx: ServiceContext,
    private readonly settings: MailSettings,
    private readonly services: { tickets: TicketService, comments: CommentService, attachments: AttachmentService }
  ) {
    this.replyBase = settings.replyTo ?? settings.from
    this.ownAddresses = new Set([settings.from, this.replyBase, ...Object.keys(settings.inbound ?? {})].map(addressOf))
  }

  /** Whether mail for `recipient` is ours to take: an inbound address or a ticket's reply address. */
  accepts (recipient: string): boolean {
    const address = addressOf(recipient)
    return this.categoryFor(address) !== null || replyTokenOf(address, this.replyBase) !== null
  }

  async receive (mail: InboundMail): Promise<InboundResult> {
    const { store } = this.ctx
    const sender = mail.from !== null && mail.from.address !== '' ? addressOf(mail.from.address).slice(0, 255) : null
    const recipients = this.recipientsOf(mail)
    // Stored columns hold 255 characters: a longer Message-ID is keyed by its digest (and cannot be threaded on).
    const messageId = mail.messageId !== null && mail.messageId.length <= 255 ? mail.messageId : null
    const digestOf = (data: string | Buffer): string => `sha256:${createHash('sha256').update(data).digest('hex')}`
    const id = await store.mail.createInbound({
      dedupe_key: messageId ?? digestOf(mail.messageId ?? mail.raw),
      message_id: messageId,
      sender,
      recipient: (recipients.find((r) => this.accepts(r)) ?? recipients[0])?.slice(0, 255) ?? null,
      subject: mail.subject.slice(0, 998),
      raw: mail.raw
    })
    if (id === null) return { id: null, status: 'duplicate', ticket_id: null, comment_id: null, reason: 'This Message-ID was received already.' }
    try {
      const ignored = await this.ignoreReason(mail, sender)
      if (ignored !== null) {
        await store.mail.update(id, { status: 'ignored', error: ignored })
        return { id, status: 'ignored', ticket_id: null, comment_id: null, reason: ignored }
      }
      const result = await this.process(mail, sender as string, recipients)
      await store.mail.update(id, { status: 'processed', ticket_id: result.ticket_id, comment_id: result.comment_id, user_id: result.user_id, error: result.note })
      return { id, status: result.comment_id !== null ? 'replied' : 'created', ticket_id: result.ticket_id, comment_id: result.comment_id, reason: null }
    } catch (error) {
      const reason = error instanceof Unprocessable || error instanceof HelpdeskError ? error.message : 'An unexpected error; see the server log.'
      await store.mail.update(id, { status: 'failed', error: reason })
      if (!(error instanceof Unprocessable) && !(error instanceof HelpdeskError)) throw error
      return { id, status: 'failed', ticket_id: null, comment_id: null, reason }
    }
  }

  /** A message the parser could not read: kept as failed, with the reason, never dropped. */
  async keepUnreadable (raw: Buffer, reason: string): Promise<InboundResult> {
    const { store } = this.ctx
    const id = await store.mail.createInbound({
      dedupe_key: `sha256:${createHash('sha256').update(raw).digest('hex')}`, message_id: null, sender: null, recipient: null, subject: '', raw
    })
    if (id === null) return { id: null, status: 'duplicate', ticket_id: null, comment_id: null, reason: 'This message was received already.' }
    const why = `The message could not be read: ${reason}`.slice(0, 1000)
    await store.mail.update(id, { status: 'failed', error: why })
    return { id, status: 'failed', ticket_id: null, comment_id: null, reason: why }
  }

  private recipientsOf (mail: InboundMail): string[] {
    const all = [...(mail.envelopeTo ?? []), ...mail.to.map((a) => a.address), ...mail.cc.map((a) => a.address)]
    return [...new Set(all.filter((a) => a !== '').map(addressOf))]
  }

  private categoryFor (address: string): number | null {
    for (const [inbound, category] of Object.entries(this.settings.inbound ?? {})) {
      if (addressOf(inbound) === address) return category
    }
    return null
  }

  /** Loops and noise: our own mail coming back, auto-replies, bounces, mail from our addresses. */
  private async ignoreReason (mail: InboundMail, sender: string | null): Promise<string | null> {
    if (mail.messageId !== null && await this.ctx.store.mail.isOutboundMessageId(mail.messageId)) return 'Our own mail came back (its Message-ID is one we sent).'
    const noise = noiseReason(mail)
    if (noise !== null || sender === null) return `Not processed: ${noise ?? 'no sender'}.`
    if (this.ownAddresses.has(sender) || replyTokenOf(sender, this.replyBase) !== null) return 'Not processed: mail from one of our own addresses.'
    return null
  }

  private async process (mail: InboundMail, sender: string, recipients: string[]): Promise<{ ticket_id: number, comment_id: number | null, user_id: number, note: string | null }> {
    const { store } = this.ctx
    const limit = this.settings.rateLimitPerHour ?? DEFAULT_RATE_LIMIT_PER_HOUR
    const since = formatDateTime(new Date(this.ctx.clock.now().getTime() - HOUR_MS))
    if (await store.mail.countInboundSince(sender, since) > limit) throw new Unprocessable(`More than ${limit} mails from ${sender} within an hour.`)

    let user = await store.users.findByEmail(sender)
    if (user?.status === UserStatus.Banned) throw new Unprocessable('The sender is banned.')
    const ticket = await this.threadOf(mail, recipients, user)
    if (ticket === null && user !== null && isStaff(user)) throw new Unprocessable('A mail from staff that belongs to no ticket; staff open tickets in the help desk.')
    const category = ticket === null ? recipients.map((r) => this.categoryFor(r)).find((c) => c !== null) ?? null : null
    if (ticket === null && category === null) throw new Unprocessable('No ticket to thread into and no category configured for its recipients.')

    user ??= await this.newCustomer(sender, mail.from?.name ?? '')
    const { ids, skipped } = await this.storeAttachments(user, mail)
    const note = skipped.length > 0 ? `Attachments not stored: ${skipped.join('; ')}` : null

    if (ticket !== null) {
      if (ticket.user_id !== user.id && !isStaff(user)) await store.mail.addParticipant(ticket.id, user.id)
      const body = mail.text !== null && mail.text.trim() !== '' ? textToHtml(replyText(mail.text)) : htmlAboveMarker(mail.html ?? '')
      const comment = await this.services.comments.createFromMail(user, ticket, { body: orPlaceholder(body), attachments: ids })
      return { ticket_id: ticket.id, comment_id: comment.id, user_id: user.id, note }
    }
    const body = mail.html !== null && mail.html.trim() !== '' ? mail.html : textToHtml(mail.text ?? '')
    const created = await this.services.tickets.create(user, {
      category: category as number,
      title: [...(baseSubject(mail.subject) || '(no subject)')].slice(0, TICKET_LIMITS.title).join(''),
      body: orPlaceholder(body),
      attachments: ids
    })
    return { ticket_id: created.id, comment_id: null, user_id: user.id, note }
  }

  /** The ticket a reply belongs to, by the three keys in order, or null for a new ticket. */
  private async threadOf (mail: InboundMail, recipients: string[], sender: User | null): Promise<Ticket | null> {
    const { store } = this.ctx
    for (const recipient of recipients) {
      const token = replyTokenOf(recipient, this.replyBase)
      const thread = token !== null ? await store.mail.findThreadByToken(token) : null
      if (thread !== null) return await store.tickets.findById(thread.ticket_id)
    }
    const referenced = [...mail.inReplyTo, ...mail.references]
    if (referenced.length > 0) {
      const ticketId = await store.mail.ticketOfMessageIds(referenced)
      if (ticketId !== null) return await store.tickets.findById(ticketId)
    }
    const tagged = subjectTicketId(mail.subject)
    if (tagged !== null && sender !== null) {
      const ticket = await store.tickets.findById(tagged)
      if (ticket !== null && (ticket.user_id === sender.id || (await store.mail.participantIds(ticket.id)).includes(sender.id))) return ticket
    }
    return null
  }

  /** An Unconfirmed customer for an unknown sender (as when staff open a ticket for a new email). */
  private async newCustomer (email: string, displayName: string): Promise<User> {
    const { store } = this.ctx
    const [first, ...rest] = displayName.trim().split(/\s+/).filter((p) => p !== '')
    try {
      return await store.users.create({
        role: Role.Customer,
        email,
        first_name: (first ?? email.slice(0, email.indexOf('@'))).slice(0, 250),
        last_name: rest.join(' ').slice(0, 250),
        status: UserStatus.Unconfirmed,
        password_hash: null
      })
    } catch (error) {
      // Another mail from the same new sender won the race.
      const existing = error instanceof ValidationError ? await store.users.findByEmail(email) : null
      if (existing === null) throw error
      return existing
    }
  }

  /** Stores the mail's attachments as uploads of `user` (same limits, sniffing and names as uploads). */
  private async storeAttachments (user: User, mail: InboundMail): Promise<{ ids: string[], skipped: string[] }> {
    const ids: string[] = []
    const skipped: string[] = []
    for (const file of mail.attachments) {
      const name = file.filename ?? 'attachment'
      try {
        const stored = await this.services.attachments.upload(user, { name, content: Readable.from([file.content]) })
        ids.push(stored.id)
      } catch (error) {
        if (!(error instanceof HelpdeskError)) throw error
        skipped.push(`${name}: ${error.message}`)
      }
    }
    return { ids, skipped }
  }
}

function orPlaceholder (body: string): string {
  return body.replace(/<[^>]*>/g, '').trim() === '' && !/<img\s/i.test(body) ? '<p>(no text)</p>' : body
}
