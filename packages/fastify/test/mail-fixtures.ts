import type { TestContext } from 'node:test'
import { simpleParser, type ParsedMail } from 'mailparser'
import nodemailer from 'nodemailer'
import MailComposer from 'nodemailer/lib/mail-composer/index.js'
import type Mail from 'nodemailer/lib/mailer/index.js'
import { SMTPServer } from 'smtp-server'
import { createSmtpTransport, startSmtpListener, type SmtpListener } from '@helpdesk/mail'
import { buildApp, type TestApp } from './helpers.js'
import { desk, type Desk } from './ticket-fixtures.js'
import { expectStatus } from './http-assertions.js'

/** A mail the capturing SMTP server received, with its envelope. */
export interface CapturedMail {
  raw: Buffer
  parsed: ParsedMail
  envelope: { from: string, to: string[] }
  header: (name: string) => string | undefined
}

/** A real SMTP server (smtp-server) on a free loopback port that keeps every mail it is given. */
export async function captureSmtp (t: TestContext): Promise<{ port: number, mails: CapturedMail[], refuse: (on: boolean) => void }> {
  const mails: CapturedMail[] = []
  let refusing = false
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData (stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        if (refusing) {
          const error = new Error('Mailbox busy, try later') as Error & { responseCode: number }
          error.responseCode = 451
          callback(error)
          return
        }
        const raw = Buffer.concat(chunks)
        void simpleParser(raw).then((parsed) => {
          const lines = parsed.headerLines
          mails.push({
            raw,
            parsed,
            envelope: { from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address, to: session.envelope.rcptTo.map((r) => r.address) },
            header: (name) => {
              const line = lines.find((l) => l.key === name.toLowerCase())?.line
              return line === undefined ? undefined : line.slice(line.indexOf(':') + 1).replace(/\r?\n\s+/g, ' ').trim()
            }
          })
          callback()
        }, callback)
      })
    }
  })
  await new Promise<void>((resolve) => { server.listen(0, '127.0.0.1', resolve) })
  t.after(async () => { await new Promise<void>((resolve) => { server.close(() => { resolve() }) }) })
  const address = server.server.address()
  return { port: typeof address === 'object' && address !== null ? address.port : 0, mails, refuse: (on) => { refusing = on } }
}

export interface MailDesk extends Desk {
  h: TestApp
  capture: Awaited<ReturnType<typeof captureSmtp>>
  listener: SmtpListener
  /** Sends a mail to the help desk's SMTP listener with nodemailer. */
  smtp: (mail: Mail.Options) => Promise<void>
  /** Posts a raw message to `POST /mail/inbound` as the administrator; returns `data`. */
  post: (mail: Mail.Options | Buffer) => Promise<{ id: number | null, status: string, ticket_id: number | null, comment_id: number | null, reason: string | null }>
  /** Runs the queued `mail.send` jobs. */
  send: () => Promise<number>
}

export const SUPPORT = 'support@desk.test'
export const SALES = 'sales@desk.test'

export async function rawMail (mail: Mail.Options): Promise<Buffer> {
  return await new MailComposer(mail).compile().build()
}

/** The help desk with mail on: outbound to a capturing SMTP server, inbound through a real listener and the HTTP door. */
export async function mailDesk (t: TestContext, dialect: 'sqlite' | 'postgres', extra: { rateLimitPerHour?: number, maxAttachmentBytes?: number, trustedAuthServIds?: string[] } = {}): Promise<MailDesk> {
  const capture = await captureSmtp(t)
  // The categories are made after the app: `inbound` maps to ids 1 (Billing) and 2 (Sales), the order desk() makes them in.
  // The runner is driven by the tests (`send`), so what a request did is seen before anything is sent.
  const h = await buildApp(t, dialect, {
    workers: false,
    mail: {
      from: `Help Desk <${SUPPORT}>`,
      inbound: { [SUPPORT]: 1, [SALES]: 2 },
      publicUrl: 'https://help.desk.test/api/v1',
      transport: createSmtpTransport(`smtp://127.0.0.1:${capture.port}`),
      inboundSecret: 'webhook-secret',
      ...extra
    }
  })
  const d = await desk(h)
  const listener = await startSmtpListener({ inbound: h.helpdesk.mail.inbound, port: 0, host: '127.0.0.1' })
  t.after(async () => { await listener.close() })
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true })
  t.after(() => { client.close() })
  return {
    ...d,
    h,
    capture,
    listener,
    smtp: async (mail) => { await client.sendMail(mail) },
    post: async (mail) => {
      const payload = Buffer.isBuffer(mail) ? mail : await rawMail(mail)
      return expectStatus(await h.inject({
        method: 'POST', url: '/api/v1/mail/inbound', token: d.admin.token, headers: { 'content-type': 'message/rfc822' }, payload
      }), 200).data
    },
    send: async () => await h.helpdesk.jobs.runDue()
  }
}
