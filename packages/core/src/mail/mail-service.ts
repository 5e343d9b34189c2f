import type { ServiceContext } from '../context.js'
import { NotFoundError, ValidationError } from '../errors.js'
import type { AttachmentService } from '../tickets/attachment-service.js'
import type { CommentService } from '../tickets/comment-service.js'
import type { TicketService } from '../tickets/ticket-service.js'
import { ensure } from '../users/user-policy.js'
import { actsAsAdmin, type ActorInput } from '../users/actor.js'
import { InboundMailService } from './inbound-mail-service.js'
import { OutboundMailService } from './outbound-mail-service.js'
import type { ListQuery, Page } from '../list/list-query.js'
import { MAIL_STATUSES, type MailDirection, type MailMessage, type MailSettings, type MailTransport } from './mail.js'
import { ReplyTokens } from './reply-tokens.js'

/** Without settings no address is ours: received mail threads only by stored Message-IDs, or is kept as unprocessable. */
const UNCONFIGURED: MailSettings = { from: 'helpdesk@localhost.invalid' }

/**
 * Mail as the doors see it: inbound processing, outbound sending, and the
 * records for administrators. Always present; `settings` null until mail is
 * configured (HelpdeskOptions `mail`).
 */
export class MailService {
  readonly inbound: InboundMailService
  /** Null without a transport (inbound only). */
  readonly outbound: OutboundMailService | null

  constructor (
    private readonly ctx: ServiceContext,
    readonly settings: MailSettings | null,
    transport: MailTransport | undefined,
    services: { tickets: TicketService, comments: CommentService, attachments: AttachmentService }
  ) {
    this.inbound = new InboundMailService(ctx, settings ?? UNCONFIGURED, services)
    this.outbound = transport !== undefined && settings !== null ? new OutboundMailService(ctx, settings, transport) : null
  }

  /** One page of the sent (`out`) or received (`in`) mail records (`mailList`): administrators. */
  async list (actor: ActorInput, direction: MailDirection, query: ListQuery): Promise<Page<MailMessage>> {
    ensure(actsAsAdmin(actor), 'Only administrators may read the mail records.')
    const unknown = (query.exact.status ?? []).find((status) => !(MAIL_STATUSES as readonly string[]).includes(status))
    if (unknown !== undefined) throw ValidationError.field('filter.status', `The status filter has an invalid value "${unknown}".`)
    return await this.ctx.store.mail.list(direction, query)
  }

  /** The original of a received mail: administrators. */
  async raw (actor: ActorInput, id: number): Promise<Buffer> {
    ensure(actsAsAdmin(actor), 'Only administrators may read the mail records.')
    const raw = await this.ctx.store.mail.raw(id)
    if (raw === null) throw new NotFoundError('Mail')
    return raw
  }

  /**
   * A new key for signing reply addresses (the CLI's `mail:rotate-reply-key`;
   * no actor: a trusted caller only, never a request). Older keys keep
   * verifying the addresses of mails already sent unless `retireOlder`.
   */
  async rotateReplyKey (options: { retireOlder?: boolean } = {}): Promise<{ id: number, retired: number }> {
    return await new ReplyTokens(this.ctx.store).rotate(options)
  }

  /** One-click unsubscribe (RFC 8058) from a mail's `List-Unsubscribe` link: its recipient gets no more ticket mail. */
  async unsubscribe (token: string): Promise<void> {
    const mail = /^[a-f0-9]{40}$/.test(token) ? await this.ctx.store.mail.findByUnsubscribeToken(token) : null
    if (mail === null || mail.user_id === null) throw new NotFoundError('Mail')
    await this.ctx.store.mail.optOut(mail.user_id)
  }
}
