import nodemailer from 'nodemailer'
import type { MailTransport, OutgoingMail } from '@helpdesk/core'

/**
 * Sends through an SMTP server (nodemailer): `smtp://user:pass@host:587`
 * (STARTTLS when offered) or `smtps://...:465`. The URL's password never
 * appears in errors.
 */
export function createSmtpTransport (url: string): MailTransport {
  const transporter = nodemailer.createTransport(url)
  return {
    async send (mail: OutgoingMail) {
      const info = await transporter.sendMail({
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
      transporter.close()
    }
  }
}
