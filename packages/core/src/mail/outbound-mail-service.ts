import type { ServiceContext } from '../context.js'
import { nowString } from '../context.js'
import { displayText, plainText } from '../html.js'
import type { Attachment } from '../tickets/attachment.js'
import { fullName, isStaff, type User } from '../users/user.js'
import { REPLY_MARKER } from './inbound-rules.js'
import { addressOf, domainOf, newMessageId, replyAddress, threadIndex } from './mail-headers.js'
import { ticketThread } from './mail-recorder.js'
import { MailTemplates, type MailTemplateValues } from './mail-templates.js'
import type { MailKind, MailMessage, MailSettings, MailTransport, OutgoingMail } from './mail.js'
import { ReplyTokens } from './reply-tokens.js'
import { closingMailSurvey } from '../satisfaction/satisfaction-mail.js'
import { SatisfactionService } from '../satisfaction/satisfaction-service.js'

const DEFAULT_MAX_ATTACHMENT_BYTES = 10 * 2 ** 20
/** How many earlier Message-IDs of the ticket go into `References`. */
const REFERENCES_KEPT = 10

/** Composes and sends the mails queued by the mail recorder (the `mail.send` job), and test mails. */
export class OutboundMailService {
  private readonly templates: MailTemplates
  private readonly tokens: ReplyTokens
  private readonly satisfaction: SatisfactionService

  constructor (private readonly ctx: ServiceContext, private readonly settings: MailSettings, private readonly transport: MailTransport) {
    this.templates = new MailTemplates(settings.templatesDir)
    this.tokens = new ReplyTokens(ctx.store)
    this.satisfaction = new SatisfactionService(ctx)
  }

  /**
   * Sends one queued mail and records the outcome. Throws when the server
   * refused it, so the job is retried with backoff; a mail whose ticket or
   * comment is gone is cancelled, and one sent already is not sent again.
   */
  async send (mailId: number): Promise<void> {
    const { store } = this.ctx
    const row = await store.mail.findById(mailId)
    if (row === null || row.direction !== 'out' || row.status === 'sent' || row.status === 'cancelled') return
    const mail = await this.compose(row)
    if (mail === null) {
      await store.mail.update(row.id, { status: 'cancelled', error: 'The ticket or comment no longer exists.' })
      return
    }
    try {
      await this.transport.send(mail)
    } catch (error) {
      await store.mail.recordSendAttempt(row.id, { status: 'failed', error: describe(error) })
      throw error
    }
    await store.mail.recordSendAttempt(row.id, { status: 'sent', error: null, sent_at: nowString(this.ctx) })
  }

  private async compose (row: MailMessage): Promise<OutgoingMail | null> {
    const { store } = this.ctx
    if (row.ticket_id === null || row.recipient === null || row.message_id === null) return null
    const ticket = await store.tickets.findById(row.ticket_id)
    if (ticket === null) return null
    const comment = row.comment_id !== null ? await store.comments.findById(row.comment_id) : null
    if (row.comment_id !== null && comment === null) return null
    const [recipient, author] = await store.mail.people([row.user_id, row.author_id].filter((id): id is number => id !== null))
      .then((people) => [people.find((p) => p.id === row.user_id), people.find((p) => p.id === row.author_id)])
    const thread = await ticketThread(store, this.settings, ticket.id)
    const kind = (row.kind ?? 'reply') as MailKind
    const body = kind === 'new-ticket' ? ticket.body : comment?.body ?? ''
    const withFiles = kind === 'new-ticket' || kind === 'reply' || kind === 'customer-reply'
    const files = withFiles ? await store.mail.attachmentsOf(ticket.id, kind === 'new-ticket' ? null : row.comment_id) : []
    const attached = this.attachable(files)
    const linked = files.filter((f) => !attached.includes(f))
    const links = linked.map((f) => ({ name: f.name, url: this.url(`/attachments/${f.id}/download`) }))
    // The ticket's page in the console: the staff view for staff, the portal for everyone else.
    const page = recipient !== undefined && isStaff(recipient as Pick<User, 'role'>) ? `/tickets/${ticket.id}` : `/portal/tickets/${ticket.id}`
    const values = this.values(
      // Plain-text fields (`&lt;` for `<`) as the text typed: the templates escape them for HTML.
      { id: ticket.id, title: displayText(ticket.title), url: consoleUrl(this.settings, page) },
      { name: recipient !== undefined ? displayText(fullName(recipient)) : row.recipient },
      { name: author !== undefined ? displayText(fullName(author)) : 'The help desk' },
      body,
      links.map((l) => `${l.name}: ${l.url}`).join('\n'),
      links.length === 0 ? '' : `<ul>${links.map((l) => `<li><a href="${escapeAttr(l.url)}">${escapeAttr(l.name)}</a></li>`).join('')}</ul>`
    )
    if (kind === 'closed') Object.assign(values, await closingMailSurvey(this.satisfaction, ticket, row.user_id, (path) => consoleUrl(this.settings, path)))
    if (row.unsubscribe_token !== null && this.settings.publicUrl !== undefined) values.unsubscribe_url = this.url(`/mail/unsubscribe/${row.unsubscribe_token}`)
    const { text, html } = this.templates.render(kind, values)
    // A reply address bound to this ticket and this recipient: a reply from anyone else is not taken as theirs.
    const replyBase = this.settings.replyTo ?? this.settings.from
    const replyTo = row.user_id !== null ? replyAddress(replyBase, await this.tokens.mint(ticket.id, row.user_id)) : addressOf(replyBase)

    const earlier = (await store.mail.messageIdsOfTicket(ticket.id, REFERENCES_KEPT)).filter((id) => id !== row.message_id)
    const references = earlier.includes(thread.root_message_id) || row.message_id === thread.root_message_id
      ? earlier
      : [thread.root_message_id, ...earlier]
    const headers: Record<string, string> = {
      'Auto-Submitted': 'auto-generated',
      'X-Auto-Response-Suppress': 'All',
      'Thread-Topic': displayText(ticket.title),
      'Thread-Index': threadIndex(thread.root_message_id, row.message_id),
      'X-Helpdesk-Ticket': String(ticket.id)
    }
    if (values.unsubscribe_url !== '') {
      headers['List-Unsubscribe'] = `<${values.unsubscribe_url}>`
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click'
    }
    const attachments = await Promise.all(attached.map(async (f) => {
      const content = await store.attachments.findById(f.id) !== null ? await this.ctx.files.read(f.file_name) : null
      return content === null ? null : { filename: f.name, contentType: f.mime_type, content }
    }))
    return {
      from: this.settings.from,
      to: row.recipient,
      replyTo,
      subject: row.subject ?? `[#${ticket.id}] ${displayText(ticket.title)}`,
      text,
      html,
      messageId: row.message_id,
      ...(references.length > 0 ? { inReplyTo: references[references.length - 1], references } : {}),
      headers,
      attachments: attachments.filter((f) => f !== null)
    }
  }

  /** The attachments that fit under the size limit together (the rest are sent as links). */
  private attachable (files: Attachment[]): Attachment[] {
    const max = this.settings.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES
    let total = 0
    return files.filter((f) => {
      if (total + f.size > max) return false
      total += f.size
      return true
    })
  }

  private url (path: string): string {
    return `${(this.settings.publicUrl ?? '').replace(/\/+$/, '')}${path}`
  }

  private values (
    ticket: { id: number, title: string, url: string }, recipient: { name: string }, author: { name: string }, bodyHtml: string, linksText: string, linksHtml: string
  ): MailTemplateValues {
    return {
      marker: REPLY_MARKER,
      ticket,
      recipient,
      author,
      body_html: bodyHtml,
      body_text: displayText(plainText(bodyHtml.replace(/<br\s*\/?>/gi, '\n'), 100_000)),
      links_html: linksHtml,
      links_text: linksText,
      unsubscribe_url: ''
    }
  }
}

/**
 * `path` in the web console: under `consoleUrl`, else under `publicUrl`
 * without its trailing `/api/v<n>` (where `helpdesk serve` puts the console);
 * '' when neither gives a console address.
 */
export function consoleUrl (settings: Pick<MailSettings, 'consoleUrl' | 'publicUrl'>, path: string): string {
  const base = settings.consoleUrl ?? (settings.publicUrl !== undefined && /\/api\/v\d+\/*$/.test(settings.publicUrl)
    ? settings.publicUrl.replace(/\/api\/v\d+\/*$/, '')
    : undefined)
  return base === undefined || base === '' ? '' : `${base.replace(/\/+$/, '')}${path}`
}

/** The mail `helpdesk mail:test` sends: the `test` templates, our From, a Message-ID of ours. */
export function composeTestMail (settings: MailSettings, to: string): OutgoingMail {
  const templates = new MailTemplates(settings.templatesDir)
  const values: MailTemplateValues = {
    marker: REPLY_MARKER, ticket: { id: 0, title: '', url: '' }, recipient: { name: to }, author: { name: '' },
    body_html: '', body_text: '', links_html: '', links_text: '', unsubscribe_url: ''
  }
  const { text, html } = templates.render('test', values)
  return {
    from: settings.from,
    to,
    subject: 'Help desk test mail',
    text,
    html,
    messageId: newMessageId(domainOf(addressOf(settings.from)), null, 'test'),
    headers: { 'Auto-Submitted': 'auto-generated' },
    attachments: []
  }
}

function escapeAttr (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/** A transport error without secrets: the message (SMTP servers answer in it), capped. */
function describe (error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\/\/[^@\s/]*@/g, '//***@').slice(0, 1000)
}
