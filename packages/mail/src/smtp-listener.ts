import type { InboundMailService } from '@helpdesk/core'
import { receiveRaw } from './parse-mail.js'

export interface SmtpListenerOptions {
  /** Where received mail goes: its `accepts` decides RCPT TO (sync or async), its `receive` takes the message. */
  inbound: Pick<InboundMailService, 'receive' | 'keepUnreadable'> & { accepts: (recipient: string) => boolean | Promise<boolean> }
  /** 0 picks a free port. */
  port: number
  host?: string | undefined
  /** Largest message accepted (SIZE). Default 40 MiB: attachments up to the 30 MiB limit, base64-encoded. */
  maxBytes?: number | undefined
  /** The name the server greets with. */
  name?: string | undefined
  onError?: ((error: unknown) => void) | undefined
}

export interface SmtpListener {
  readonly port: number
  close(): Promise<void>
}

/**
 * An SMTP listener (smtp-server) for mail delivered straight to the help
 * desk (as an MX or a relay's next hop). It accepts only our recipients
 * (configured inbound addresses and ticket reply addresses), and answers
 * 250 only once the message is recorded: a failure to store it is a
 * temporary 451, so the sending server keeps it and tries again.
 */
export async function startSmtpListener (options: SmtpListenerOptions): Promise<SmtpListener> {
  // Loaded here, not with the package: a server that receives no mail over SMTP never loads it.
  const { SMTPServer } = await import('smtp-server')
  const maxBytes = options.maxBytes ?? 40 * 2 ** 20
  const server = new SMTPServer({
    name: options.name,
    banner: 'help desk',
    size: maxBytes,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo (address, _session, callback) {
      Promise.resolve(options.inbound.accepts(address.address)).then((accepted) => {
        if (accepted) { callback(); return }
        const error = new Error('No such recipient here') as Error & { responseCode: number }
        error.responseCode = 550
        callback(error)
      }, (error: unknown) => {
        options.onError?.(error)
        const failure = new Error('Temporary failure checking the recipient, try again later') as Error & { responseCode: number }
        failure.responseCode = 451
        callback(failure)
      })
    },
    onData (stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded === true) {
          const error = new Error('Message too large') as Error & { responseCode: number }
          error.responseCode = 552
          callback(error)
          return
        }
        const mailFrom = session.envelope.mailFrom
        receiveRaw(options.inbound, Buffer.concat(chunks), {
          from: mailFrom === false ? null : mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address)
        }).then(() => { callback() }, (error: unknown) => {
          options.onError?.(error)
          const failure = new Error('Temporary failure storing the message, try again later') as Error & { responseCode: number }
          failure.responseCode = 451
          callback(failure)
        })
      })
    }
  })
  server.on('error', (error) => options.onError?.(error))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => { server.off('error', reject); resolve() })
  })
  const address = server.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : options.port
  return {
    port,
    async close () {
      await new Promise<void>((resolve) => { server.close(() => { resolve() }) })
    }
  }
}
