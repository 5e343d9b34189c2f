import type { ListQuery, Page } from '../list/list-query.js'
import type { Attachment } from '../tickets/attachment.js'
import type { DateTimeString } from '../time.js'
import type { MailDirection, MailMessage, MailStatus, MailThread } from './mail.js'
import type { ReplyKey } from './reply-tokens.js'

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
  /** Creates the ticket's thread unless it exists; returns the stored one either way (to concurrent callers too: one thread per ticket). */
  ensureThread(thread: MailThread): Promise<MailThread>
  /** Records mails to send (pending, no attempt yet), one per recipient, however many; returns their ids in order. */
  createOutbound(mails: NewOutboundMail[]): Promise<number[]>
  /** Records a received mail; null when one with the same `dedupe_key` was recorded already (nothing written), also by a concurrent call. */
  createInbound(mail: NewInboundMail): Promise<number | null>
  findById(id: number): Promise<MailMessage | null>
  update(id: number, patch: MailMessagePatch): Promise<void>
  /** Applies `patch` only while the mail's status is `status`; whether it did (one caller wins a race). */
  updateIf(id: number, status: MailStatus, patch: MailMessagePatch): Promise<boolean>
  /** One page of the sent (`out`) or received (`in`) records: the `mailList` declaration, like every list. */
  list(direction: MailDirection, query: ListQuery): Promise<Page<MailMessage>>
  /** The original of a received mail (null for a sent one). */
  raw(id: number): Promise<Buffer | null>
  /** The ticket of the newest stored message (sent or received, with a ticket) whose Message-ID is one of `ids`, else of the thread whose root is; null when none. */
  ticketOfMessageIds(ids: string[]): Promise<number | null>
  /** Whether we sent a mail with this Message-ID (a thread's root Message-ID counts). */
  isOutboundMessageId(id: string): Promise<boolean>
  /** Message-IDs of the ticket's stored mails (sent and received), each once, oldest first (by its latest use), at most `limit` (the newest). */
  messageIdsOfTicket(ticketId: number, limit: number): Promise<string[]>
  /** Received mails from `sender` recorded since `since`. */
  countInboundSince(sender: string, since: DateTimeString): Promise<number>
  findByUnsubscribeToken(token: string): Promise<MailMessage | null>
  /** Adding a participant already there does nothing. */
  addParticipant(ticketId: number, userId: number): Promise<void>
  participantIds(ticketId: number): Promise<number[]>
  /** Opting out twice does nothing. */
  optOut(userId: number): Promise<void>
  /** Those of `ids` who opted out of mail. */
  optedOut(ids: number[]): Promise<number[]>
  /** The attachments of the ticket itself (`commentId` null) or of one comment. */
  attachmentsOf(ticketId: number, commentId: number | null): Promise<Attachment[]>
  /** The active reply keys (`mail_reply_keys`), newest first: the first signs, all verify. */
  replyKeys(): Promise<ReplyKey[]>
  /** Stores the first reply key with `secret` unless one exists (concurrent callers end with one key). */
  ensureReplyKey(secret: string): Promise<void>
  /** Adds a newer key with `secret`; with `retireOlder`, every older key stops verifying. Atomic. */
  rotateReplyKey(secret: string, retireOlder: boolean): Promise<{ id: number, retired: number }>
  /** Email, role and status of those of `ids` that exist, in one query. */
  people(ids: number[]): Promise<Array<{ id: number, email: string, first_name: string, last_name: string, role: number, status: number }>>
  /** Records a send attempt: `patch`, with `attempts` one up in the statement itself (never a count read before). */
  recordSendAttempt(id: number, patch: Omit<MailMessagePatch, 'attempts'>): Promise<void>
}
