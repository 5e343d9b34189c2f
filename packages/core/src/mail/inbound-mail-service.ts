import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { ServiceContext } from '../context.js'
import { HelpdeskError, NotFoundError, ValidationError } from '../errors.js'
import type { AttachmentService } from '../tickets/attachment-service.js'
import type { CommentService } from '../tickets/comment-service.js'
import { TICKET_LIMITS, type Ticket } from '../tickets/ticket.js'
import type { TicketService } from '../tickets/ticket-service.js'
import { landingTicket } from '../tickets/ticket-merge.js'
import { formatDateTime } from '../time.js'
import { actorIdOf, actsAsAdmin, mailSenderActor, personActor, type ActorInput } from '../users/actor.js'
import { createCustomerForEmail, namesFromDisplayName } from '../users/customer-creation.js'
import { ensure } from '../users/user-policy.js'
import { isStaff, UserStatus, type User } from '../users/user.js'
import { htmlAboveMarker, noiseReason, replyText, textToHtml } from './inbound-rules.js'
import { addressOf, baseSubject, replyTokenOf, subjectTicketId } from './mail-headers.js'
import type { InboundMail, MailSettings } from './mail.js'
import { classifyReplyToken, ReplyTokens, type ReplyToken } from './reply-tokens.js'
import { authenticateSender } from './sender-authentication.js'

export type InboundStatus = 'created' | 'replied' | 'duplicate' | 'ignored' | 'failed' | 'held'

/** How a reply found its ticket: a recipient-bound reply address (`token`), or a key that names no recipient. */
type ThreadKey = 'token' | 'legacy-token' | 'reference' | 'subject'

interface ThreadMatch {
  ticket: Ticket
  via: ThreadKey
  /** For `token`: the person the reply address was minted for (null when they no longer exist). */
  recipient: User | null
}

const HOW: Record<ThreadKey, string> = {
  token: 'its reply address',
  'legacy-token': 'an old per-ticket reply address (it names no recipient)',
  reference: 'In-Reply-To/References',
  subject: 'its [#id] subject tag'
}

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
 * reply finds its ticket by, in order: a reply address of ours (bound to a
 * ticket and a recipient, or an old per-ticket one), a Message-ID in
 * `In-Reply-To`/`References` that we stored (sent or received), or a
 * `[#123]` subject tag when the sender is the ticket's owner or a
 * participant; never by body text or subject alone.
 *
 * Who a reply is from is a separate question (`authorOf`): the `From:`
 * header is a claim. A reply is posted under a name only when the claim is
 * backed: it came to the reply address minted for that person, or (without
 * a bound address) the person is the ticket's owner or a participant, and,
 * for staff, a trusted server's Authentication-Results vouch for the `From:`
 * domain too. Anything else is **held**: kept with the reason for an
 * administrator to release or discard, never posted and never mailed.
 */
export class InboundMailService {
  private readonly ownAddresses: Set<string>
  private readonly replyBase: string
  private readonly tokens: ReplyTokens

  constructor (
    private readonly ctx: ServiceContext,
    private readonly settings: MailSettings,
    private readonly services: { tickets: TicketService, comments: CommentService, attachments: AttachmentService }
  ) {
    this.replyBase = settings.replyTo ?? settings.from
    this.ownAddresses = new Set([settings.from, this.replyBase, ...Object.keys(settings.inbound ?? {})].map(addressOf))
    this.tokens = new ReplyTokens(ctx.store)
  }

  /**
   * Whether mail for `recipient` is ours to take: an inbound address, or a
   * reply address whose token verifies and names a ticket that exists (the
   * SMTP listener answers 550 at RCPT TO otherwise).
   */
  async accepts (recipient: string): Promise<boolean> {
    const address = addressOf(recipient)
    if (this.categoryFor(address) !== null) return true
    const token = replyTokenOf(address, this.replyBase)
    return token !== null && await this.ticketOfToken(token) !== null
  }

  /** Whether `address` looks like one of ours (an inbound address or a well-formed reply address), without asking the store. */
  private isOurs (address: string): boolean {
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
      recipient: (recipients.find((r) => this.isOurs(r)) ?? recipients[0])?.slice(0, 255) ?? null,
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
      if (result.held !== null) {
        await store.mail.update(id, { status: 'held', ticket_id: result.ticket_id, user_id: result.user_id, error: result.held })
        return { id, status: 'held', ticket_id: result.ticket_id, comment_id: null, reason: result.held }
      }
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

  private async process (mail: InboundMail, sender: string, recipients: string[]): Promise<{ ticket_id: number, comment_id: number | null, user_id: number | null, note: string | null, held: string | null }> {
    const { store } = this.ctx
    const limit = this.settings.rateLimitPerHour ?? DEFAULT_RATE_LIMIT_PER_HOUR
    const since = formatDateTime(new Date(this.ctx.clock.now().getTime() - HOUR_MS))
    if (await store.mail.countInboundSince(sender, since) > limit) throw new Unprocessable(`More than ${limit} mails from ${sender} within an hour.`)

    let user = await store.users.findByEmail(sender)
    if (user?.status === UserStatus.Banned) throw new Unprocessable('The sender is banned.')
    const match = await this.threadOf(mail, recipients, sender, user)
    if (match !== null) {
      const verdict = await this.authorOf(mail, sender, user, match)
      // A held mail names no user: its sender is exactly what is not established.
      if ('held' in verdict) return { ticket_id: match.ticket.id, comment_id: null, user_id: null, note: null, held: verdict.held }
      const posted = await this.postReply(verdict.author, match.ticket, mail)
      return { ...posted, held: null }
    }
    if (user !== null && isStaff(user)) throw new Unprocessable('A mail from staff that belongs to no ticket; staff open tickets in the help desk.')
    const category = recipients.map((r) => this.categoryFor(r)).find((c) => c !== null) ?? null
    if (category === null) throw new Unprocessable('No ticket to thread into and no category configured for its recipients.')

    // An unknown sender becomes a customer, created by the sender as far as we know them: nobody verified.
    user ??= await this.newCustomer(sender, mail.from?.name ?? '', mailSenderActor(sender, null, false))
    const { ids, note } = await this.storeAttachments(user, mail)
    const body = mail.html !== null && mail.html.trim() !== '' ? mail.html : textToHtml(mail.text ?? '')
    const created = await this.services.tickets.create(personActor(user, 'mail'), {
      category,
      title: [...(baseSubject(mail.subject) || '(no subject)')].slice(0, TICKET_LIMITS.title).join(''),
      body: orPlaceholder(body),
      attachments: ids
    })
    return { ticket_id: created.id, comment_id: null, user_id: user.id, note, held: null }
  }

  /** Posts `mail` as a reply by `author` (a customer other than the owner becomes a participant). */
  private async postReply (author: User, addressed: Ticket, mail: InboundMail): Promise<{ ticket_id: number, comment_id: number, user_id: number, note: string | null }> {
    const { ids, note } = await this.storeAttachments(author, mail)
    // A reply to a merged ticket lands on the ticket it was merged into (docs/tickets.md "Merge and split").
    const ticket = await landingTicket(this.ctx.store, addressed)
    if (ticket.user_id !== author.id && !isStaff(author)) await this.ctx.store.mail.addParticipant(ticket.id, author.id)
    const body = mail.text !== null && mail.text.trim() !== '' ? textToHtml(replyText(mail.text)) : htmlAboveMarker(mail.html ?? '')
    const comment = await this.services.comments.createFromMail(personActor(author, 'mail'), ticket, { body: orPlaceholder(body), attachments: ids })
    return { ticket_id: ticket.id, comment_id: comment.id, user_id: author.id, note }
  }

  /**
   * Who a reply that found its ticket may be posted as, or why it is held.
   * A recipient-bound reply address names the one person it was sent to:
   * the reply counts as theirs only when `From:` is them, and as a staff
   * member's only when a trusted server also vouches for the `From:` domain.
   * Any other key names no one: the sender must be the owner or a
   * participant already, and staff are never taken at their `From:` word.
   */
  private async authorOf (mail: InboundMail, sender: string, user: User | null, match: ThreadMatch): Promise<{ author: User } | { held: string }> {
    const { ticket } = match
    if (match.via === 'token') {
      const recipient = match.recipient
      if (recipient === null) return { held: `Sent to the reply address of a person who no longer exists (ticket #${ticket.id}).` }
      if (addressOf(recipient.email) !== sender) {
        return { held: `The sender ${sender} is not the person this reply address of ticket #${ticket.id} was sent to (user #${recipient.id}); not posted under anyone's name.` }
      }
      if (!isStaff(recipient)) return { author: recipient }
      const auth = authenticateSender(sender, mail.authenticationResults, this.settings.trustedAuthServIds)
      return auth.verified
        ? { author: recipient }
        : { held: `A staff address (${sender}) on its own reply address of ticket #${ticket.id}, but ${auth.reason}: staff replies by mail need a trusted DKIM or SPF pass aligned with the From: domain.` }
    }
    if (user !== null && isStaff(user)) {
      return { held: `A staff address (${sender}) matched ticket #${ticket.id} by ${HOW[match.via]}, not by their own reply address: staff never post by mail on a From: claim alone.` }
    }
    if (user !== null && (user.id === ticket.user_id || (await this.ctx.store.mail.participantIds(ticket.id)).includes(user.id))) return { author: user }
    return { held: `${sender} matched ticket #${ticket.id} by ${HOW[match.via]} but is neither its owner nor a participant; not posted and not subscribed.` }
  }

  /** The ticket a reply belongs to, by the three keys in order, or null for a new ticket. */
  private async threadOf (mail: InboundMail, recipients: string[], sender: string, user: User | null): Promise<ThreadMatch | null> {
    const { store } = this.ctx
    // Of several reply addresses (To: one, Cc: another), the one minted for the sender wins.
    let first: ThreadMatch | null = null
    for (const recipient of recipients) {
      const token = replyTokenOf(recipient, this.replyBase)
      const found = token !== null ? await this.ticketOfToken(token) : null
      if (found === null) continue
      const person = found.bound !== null ? await store.users.findById(found.bound.recipientId) : null
      const match: ThreadMatch = { ticket: found.ticket, via: found.bound !== null ? 'token' : 'legacy-token', recipient: person }
      if (person !== null && addressOf(person.email) === sender) return match
      first ??= match
    }
    if (first !== null) return first
    const referenced = [...mail.inReplyTo, ...mail.references]
    if (referenced.length > 0) {
      const ticketId = await store.mail.ticketOfMessageIds(referenced)
      const ticket = ticketId !== null ? await store.tickets.findById(ticketId) : null
      if (ticket !== null) return { ticket, via: 'reference', recipient: null }
    }
    const tagged = subjectTicketId(mail.subject)
    if (tagged !== null && user !== null) {
      const ticket = await store.tickets.findById(tagged)
      if (ticket !== null && (ticket.user_id === user.id || (await store.mail.participantIds(ticket.id)).includes(user.id))) return { ticket, via: 'subject', recipient: null }
    }
    return null
  }

  /** The ticket of a reply token: a bound one whose MAC verifies, or an old per-ticket one we stored. */
  private async ticketOfToken (token: string): Promise<{ ticket: Ticket, bound: ReplyToken | null } | null> {
    const { store } = this.ctx
    const kind = classifyReplyToken(token)
    if (kind === null) return null
    if (kind.kind === 'bound') {
      const bound = await this.tokens.verify(token)
      const ticket = bound !== null ? await store.tickets.findById(bound.ticketId) : null
      return ticket === null ? null : { ticket, bound }
    }
    const thread = await store.mail.findThreadByToken(kind.token)
    const ticket = thread !== null ? await store.tickets.findById(thread.ticket_id) : null
    return ticket === null ? null : { ticket, bound: null }
  }

  /**
   * Posts a held mail (administrators): as `userId` when given (the identity
   * the administrator confirms), else as its sender (an unknown sender
   * becomes a customer). `mail` is the stored original, parsed again by the
   * door. A customer other than the owner becomes a participant.
   */
  async release (actor: ActorInput, id: number, mail: InboundMail, options: { userId?: number | undefined } = {}): Promise<InboundResult> {
    ensure(actsAsAdmin(actor), 'Only administrators may release held mail.')
    const { store } = this.ctx
    const record = await store.mail.findById(id)
    if (record === null || record.direction !== 'in') throw new NotFoundError('Mail')
    if (record.status !== 'held') throw ValidationError.field('id', 'Only a held mail can be released.')
    const ticket = record.ticket_id !== null ? await store.tickets.findById(record.ticket_id) : null
    if (ticket === null) throw ValidationError.field('id', 'The ticket of this mail no longer exists.')
    let author: User | null
    if (options.userId !== undefined) {
      author = await store.users.findById(options.userId)
      if (author === null) throw ValidationError.field('user_id', 'The selected user id is invalid.')
    } else {
      if (record.sender === null) throw ValidationError.field('user_id', 'The mail has no sender: name the user to post it as.')
      author = await store.users.findByEmail(record.sender) ?? await this.newCustomer(record.sender, mail.from?.name ?? '', actor)
    }
    if (author.status === UserStatus.Banned) throw ValidationError.field('user_id', 'The user is banned.')
    // Claimed first, so two administrators releasing at once post it once.
    if (!await store.mail.updateIf(id, 'held', { status: 'received' })) throw ValidationError.field('id', 'Only a held mail can be released.')
    try {
      const posted = await this.postReply(author, ticket, mail)
      const released = `${record.error ?? 'Held.'} Released by ${administrator(actor)} as user #${author.id}.`
      await store.mail.update(id, { status: 'processed', ticket_id: ticket.id, comment_id: posted.comment_id, user_id: author.id, error: (posted.note !== null ? `${released} ${posted.note}` : released).slice(0, 2000) })
      return { id, status: 'replied', ticket_id: ticket.id, comment_id: posted.comment_id, reason: null }
    } catch (error) {
      await store.mail.updateIf(id, 'received', { status: 'held' })
      throw error
    }
  }

  /** Discards a held mail (administrators): it stays recorded, never posted. */
  async discard (actor: ActorInput, id: number): Promise<InboundResult> {
    ensure(actsAsAdmin(actor), 'Only administrators may discard held mail.')
    const { store } = this.ctx
    const record = await store.mail.findById(id)
    if (record === null || record.direction !== 'in') throw new NotFoundError('Mail')
    const reason = `${record.error ?? 'Held.'} Discarded by ${administrator(actor)}.`.slice(0, 2000)
    if (!await store.mail.updateIf(id, 'held', { status: 'discarded', error: reason })) throw ValidationError.field('id', 'Only a held mail can be discarded.')
    return { id, status: 'ignored', ticket_id: record.ticket_id, comment_id: null, reason }
  }

  /**
   * An Unconfirmed customer for an unknown sender (as when staff open a
   * ticket for a new email), created by `by`; when another mail from the same
   * new sender won the race, the customer it created.
   */
  private async newCustomer (email: string, displayName: string, by: ActorInput): Promise<User> {
    return await createCustomerForEmail(this.ctx, email, namesFromDisplayName(email, displayName), by)
  }

  /** Stores the mail's attachments as uploads of `user` (same limits, sniffing and names as uploads). */
  private async storeAttachments (user: User, mail: InboundMail): Promise<{ ids: string[], note: string | null }> {
    const ids: string[] = []
    const skipped: string[] = []
    for (const file of mail.attachments) {
      const name = file.filename ?? 'attachment'
      try {
        const stored = await this.services.attachments.upload(personActor(user, 'mail'), { name, content: Readable.from([file.content]) })
        ids.push(stored.id)
      } catch (error) {
        if (!(error instanceof HelpdeskError)) throw error
        skipped.push(`${name}: ${error.message}`)
      }
    }
    return { ids, note: skipped.length > 0 ? `Attachments not stored: ${skipped.join('; ')}` : null }
  }
}

/** Who released or discarded a held mail, for its record. */
function administrator (actor: ActorInput): string {
  const id = actorIdOf(actor)
  return id !== null ? `administrator #${id}` : 'the system'
}

function orPlaceholder (body: string): string {
  return body.replace(/<[^>]*>/g, '').trim() === '' && !/<img\s/i.test(body) ? '<p>(no text)</p>' : body
}
