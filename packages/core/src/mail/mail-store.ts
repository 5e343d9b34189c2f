import type { Attachment } from '../tickets/attachment.js'
import type { DateTimeString } from '../time.js'
import type { MailDirection, MailMessage, MailStatus, MailThread } from './mail.js'

export interface NewOutboundMail {
  kind: string
  message_id: string
  ticket_id: number | null
  comment_id: number | null
  user_id: number | null
  /** Who caused the mail (the comment's author, who assigned...). */
  author_id: number | null
  recipient: string
  subject: string
  unsubscribe_token: string | null
}

export interface NewInboundMail {
  /** The Message-ID, or a digest of the raw message when it has none: one record per key. */
  dedupe_key: string
  message_id: string | null
  sender: string | null
  recipient: string | null
  subject: string
  raw: Buffer
}

export type MailMessagePatch = Partial<Pick<MailMessage, 'status' | 'error' | 'attempts' | 'sent_at' | 'ticket_id' | 'comment_id' | 'user_id' | 'subject'>>

/** Storage of mail: threads, sent and received messages, participants and opt-outs. */
export interface MailRepository {
  findThread(ticketId: number): Promise<MailThread | null>
  findThreadByToken(token: string): Promise<MailThread | null>
  /** Creates the ticket's thread unless it exists; returns the stored one either way. */
  ensureThread(thread: MailThread): Promise<MailThread>
  createOutbound(mails: NewOutboundMail[]): Promise<number[]>
  /** Records a received mail; null when one with the same `dedupe_key` was recorded already (nothing written). */
  createInbound(mail: NewInboundMail): Promise<number | null>
  findById(id: number): Promise<MailMessage | null>
  update(id: number, patch: MailMessagePatch): Promise<void>
  list(filter: { direction: MailDirection, status?: MailStatus | undefined, limit: number, offset: number }): Promise<{ items: MailMessage[], total: number }>
  /** The original of a received mail. */
  raw(id: number): Promise<Buffer | null>
  /** The ticket of the newest stored message (sent or received) whose Message-ID is one of `ids`. */
  ticketOfMessageIds(ids: string[]): Promise<number | null>
  /** Whether we sent a mail with this Message-ID. */
  isOutboundMessageId(id: string): Promise<boolean>
  /** Message-IDs of the ticket's stored mails (sent and received), oldest first, at most `limit` (the newest). */
  messageIdsOfTicket(ticketId: number, limit: number): Promise<string[]>
  /** Received mails from `sender` recorded since `since`. */
  countInboundSince(sender: string, since: DateTimeString): Promise<number>
  findByUnsubscribeToken(token: string): Promise<MailMessage | null>
  addParticipant(ticketId: number, userId: number): Promise<void>
  participantIds(ticketId: number): Promise<number[]>
  optOut(userId: number): Promise<void>
  /** Those of `ids` who opted out of mail. */
  optedOut(ids: number[]): Promise<number[]>
  /** The attachments of the ticket itself (`commentId` null) or of one comment. */
  attachmentsOf(ticketId: number, commentId: number | null): Promise<Attachment[]>
  /** Email, role and status of those of `ids` that exist, in one query. */
  people(ids: number[]): Promise<Array<{ id: number, email: string, first_name: string, last_name: string, role: number, status: number }>>
  /** Records a send attempt: `patch`, with `attempts` one up in the statement itself (never a count read before). */
  recordSendAttempt(id: number, patch: Omit<MailMessagePatch, 'attempts'>): Promise<void>
}
