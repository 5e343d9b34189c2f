import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestContext } from 'node:test'

/** A self-signed certificate for `localhost` made by openssl, as PEM and as files; removed after the test. */
export function selfSignedCertificate (t: TestContext): { key: Buffer, cert: Buffer, keyFile: string, certFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-tls-'))
  t.after(() => { rmSync(dir, { recursive: true, force: true }) })
  const keyFile = join(dir, 'key.pem')
  const certFile = join(dir, 'cert.pem')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' })
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), keyFile, certFile }
}

/** One SMTP reply: its code (0 once the server closed the connection) and its lines' text. */
export interface SmtpReply {
  code: number
  text: string
}

/**
 * A raw SMTP conversation over a plain socket, for what a mail library will
 * not do: stay silent, stall in DATA, stream a message larger than memory.
 */
export class SmtpSession {
  private pending = ''
  private readonly replies: SmtpReply[] = []
  private readonly waiting: Array<(reply: SmtpReply) => void> = []
  private lines: string[] = []
  /** Resolves once the server (or the client) closed the connection. */
  readonly closed: Promise<void>
  isClosed = false

  private constructor (readonly socket: Socket) {
    socket.on('data', (data: Buffer) => { this.read(data.toString('latin1')) })
    // A server that closes mid-DATA makes the next write fail (EPIPE/ECONNRESET): that is the close, not a test failure.
    socket.on('error', () => {})
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.isClosed = true
        for (const waiter of this.waiting.splice(0)) waiter({ code: 0, text: 'connection closed' })
        resolve()
      })
    })
  }

  /** Connects and reads the greeting. */
  static async open (port: number, options: { host?: string, localAddress?: string } = {}): Promise<{ session: SmtpSession, greeting: SmtpReply }> {
    const socket = connect({ port, host: options.host ?? '127.0.0.1', ...(options.localAddress !== undefined ? { localAddress: options.localAddress } : {}) })
    const session = new SmtpSession(socket)
    return { session, greeting: await session.reply() }
  }

  private read (text: string): void {
    this.pending += text
    let end = this.pending.indexOf('\r\n')
    while (end >= 0) {
      const line = this.pending.slice(0, end)
      this.pending = this.pending.slice(end + 2)
      this.lines.push(line.slice(4))
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = { code: Number(line.slice(0, 3)), text: this.lines.join('\n') }
        this.lines = []
        const waiter = this.waiting.shift()
        if (waiter !== undefined) waiter(reply)
        else this.replies.push(reply)
      }
      end = this.pending.indexOf('\r\n')
    }
  }

  /** The next reply, or code 0 when the connection closes first. */
  async reply (): Promise<SmtpReply> {
    const queued = this.replies.shift()
    if (queued !== undefined) return queued
    if (this.isClosed) return { code: 0, text: 'connection closed' }
    return await new Promise((resolve) => { this.waiting.push(resolve) })
  }

  async command (line: string): Promise<SmtpReply> {
    this.socket.write(`${line}\r\n`)
    return await this.reply()
  }

  /** Writes with backpressure; false once the connection is closed. */
  async write (data: Buffer | string): Promise<boolean> {
    if (this.isClosed || this.socket.destroyed) return false
    if (this.socket.write(data)) return true
    return await new Promise((resolve) => {
      const done = (open: boolean): void => {
        this.socket.off('drain', onDrain)
        this.socket.off('close', onClose)
        resolve(open)
      }
      const onDrain = (): void => { done(true) }
      const onClose = (): void => { done(false) }
      this.socket.once('drain', onDrain)
      this.socket.once('close', onClose)
    })
  }

  /** EHLO, MAIL FROM, RCPT TO, DATA; throws unless each is answered as a willing server would. */
  async begin (from: string, to: string): Promise<void> {
    for (const [line, code] of [['EHLO client.test', 250], [`MAIL FROM:<${from}>`, 250], [`RCPT TO:<${to}>`, 250], ['DATA', 354]] as const) {
      const reply = await this.command(line)
      if (reply.code !== code) throw new Error(`${line}: ${reply.code} ${reply.text}`)
    }
  }

  /**
   * Streams a message of about `bytes` bytes (a few headers, then 80-byte lines) and the final dot,
   * never holding more than 64 KiB of it, and returns the server's reply: the one it sent when it
   * stopped reading early, if it did.
   */
  async sendLarge (bytes: number, subject = 'Large'): Promise<SmtpReply> {
    if (!await this.stream(bytes, subject)) return await this.reply()
    await this.write('\r\n.\r\n')
    return await this.reply()
  }

  /** Writes a message's headers and about `bytes` of body, without the final dot; false once the connection closed. */
  async stream (bytes: number, subject = 'Large'): Promise<boolean> {
    const line = `${'x'.repeat(78)}\r\n`
    const chunk = Buffer.from(line.repeat(Math.floor(65536 / line.length)))
    if (!await this.write(`From: big@customers.test\r\nTo: support@desk.test\r\nSubject: ${subject}\r\n\r\n`)) return false
    for (let sent = 0; sent < bytes; sent += chunk.length) {
      if (!await this.write(chunk)) return false
    }
    return true
  }

  close (): void {
    this.socket.destroy()
  }
}
