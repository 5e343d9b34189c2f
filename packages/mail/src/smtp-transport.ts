import type { Transporter } from 'nodemailer'
import type { MailTransport, OutgoingMail } from '@helpdesk/core'

/**
 * Sends through an SMTP server (nodemailer): `smtp://user:pass@host:587`
 * (STARTTLS when offered) or `smtps://...:465`. The URL's password never
 * appears in errors. nodemailer loads, and the transporter is made, with the
 * first mail sent, so a server that sends none never loads it.
 */
export function createSmtpTransport (url: string): MailTransport {
  let transporter: Promise<Transporter> | undefined
  return {
    async send (mail: OutgoingMail) {
      // A failed load is not kept: the next mail tries again.
      transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url), (error: unknown) => { transporter = undefined; throw error })
      const info = await (await transporter).sendMail({
        from: mail.from,
        to: mail.to,
        ...(mail.replyTo !== undefined ? { replyTo: mail.replyTo } : {}),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        ...(mail.inReplyTo !== undefined ? { inReplyTo: mail.inReplyTo } : {}),
        ...(mail.references !== undefined ? { references: mail.references } : {}),
        headers: mail.headers,
        attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content }))
      }) as { response?: string }
      return { response: info.response ?? '' }
    },
    close () {
      void transporter?.then((t) => { t.close() }, () => {})
    }
  }
}
