import { createWriteStream } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { InboundMailService } from '@helpdesk/core'
import { receiveRaw } from './parse-mail.js'

export interface SmtpListenerOptions {
  /** Where received mail goes: its `accepts` decides RCPT TO (sync or async), its `receive` takes the message. */
  inbound: Pick<InboundMailService, 'receive' | 'keepUnreadable'> & { accepts: (recipient: string) => boolean | Promise<boolean> }
  /** 0 picks a free port. */
  port: number
  host?: string | undefined
  /**
   * Largest message accepted (SIZE). Default 40 MiB: attachments up to the 30 MiB limit, base64-encoded.
   * A larger one is discarded as it arrives and answered 552; one that goes on past a quarter more is cut off (552 at once, connection closed).
   */
  maxBytes?: number | undefined
  /**
   * Bytes of received messages held in memory at once, across all connections, while they are parsed and stored;
   * a message that would pass it waits until others are done. Default twice `maxBytes`.
   */
  maxBufferedBytes?: number | undefined
  /**
   * Where a message is written while it arrives (to a private directory made in it, removed by `close()`), so that
   * receiving costs no memory: it is read back only once complete and within `maxBytes`. Default the system's
   * temporary directory (`os.tmpdir()`).
   */
  spoolDir?: string | undefined
  /** Connections at once; one more is answered 421. Default 100. */
  maxClients?: number | undefined
  /** Connections at once from one IP address (an IPv6 client: from its /64 network); one more is answered 421. Default 10. */
  maxClientsPerIp?: number | undefined
  /** Milliseconds a client may stay silent (between commands, or inside DATA) before it is answered 421 and disconnected. Default 300000 (5 minutes, RFC 5321 §4.5.3.2.7). */
  idleTimeoutMs?: number | undefined
  /** Milliseconds from DATA to the final dot, however steadily the client sends; past it, 421 and disconnected. Default 600000 (10 minutes). */
  dataTimeoutMs?: number | undefined
  /** Milliseconds `close()` lets sessions in progress finish before it answers them 421 and disconnects them. Default 30000. */
  closeTimeoutMs?: number | undefined
  /** The server's TLS key and certificate chain (PEM): STARTTLS is offered with them, and never without. */
  tls?: { key: string | Buffer, cert: string | Buffer } | undefined
  /** The name the server greets with. */
  name?: string | undefined
  onError?: ((error: unknown) => void) | undefined
}

export interface SmtpListener {
  readonly port: number
  close(): Promise<void>
}

/** The listener's limits when an option is not given (`maxBufferedBytes`: twice `maxBytes`). */
export const SMTP_LISTENER_DEFAULTS = {
  maxBytes: 40 * 2 ** 20,
  maxClients: 100,
  maxClientsPerIp: 10,
  idleTimeoutMs: 5 * 60_000,
  dataTimeoutMs: 10 * 60_000,
  closeTimeoutMs: 30_000
} as const

type SmtpError = Error & { responseCode: number }

/**
 * A listener's spool directory is `helpdesk-smtp-<host>-<pid>-<random>`: on this host, the pid tells whether its
 * owner still runs (the host name keeps apart containers that share a spool directory but not their process ids).
 */
// No dash in the host part, so that the one after it ends it.
const spoolPrefix = (): string => `helpdesk-smtp-${hostname().replace(/[^A-Za-z0-9.]/g, '_')}-`

/**
 * Removes the spool directories of this host's listeners whose process is gone (killed, crashed: `close()` never
 * ran), with the partial messages they held. Those of running processes, this one's other listeners included, stay.
 */
async function removeStaleSpools (base: string, onError: SmtpListenerOptions['onError']): Promise<void> {
  const prefix = spoolPrefix()
  for (const entry of await readdir(base).catch(() => [] as string[])) {
    if (!entry.startsWith(prefix)) continue
    const pid = /^(\d+)-/.exec(entry.slice(prefix.length))?.[1]
    if (pid === undefined || running(Number(pid))) continue
    await rm(join(base, entry), { recursive: true, force: true }).catch((error: unknown) => onError?.(error))
  }
}

function running (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function smtpError (responseCode: number, message: string): SmtpError {
  return Object.assign(new Error(message), { responseCode })
}

function positive (name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`startSmtpListener: ${name} must be a positive integer, got ${String(value)}`)
  return value
}

/**
 * Bytes of received messages held in memory (being parsed and stored) at
 * once. A message waits its turn while others hold the room, first come first
 * served; one is always let in when none is held, so a message up to
 * `maxBytes` never waits for room that cannot come.
 */
class MemoryBudget {
  private held = 0
  private readonly waiting: Array<{ bytes: number, go: () => void }> = []
  constructor (private readonly limit: number) {}

  async take (bytes: number): Promise<void> {
    if (this.waiting.length === 0 && this.fits(bytes)) {
      this.held += bytes
      return
    }
    await new Promise<void>((resolve) => { this.waiting.push({ bytes, go: resolve }) })
  }

  release (bytes: number): void {
    this.held -= bytes
    let next = this.waiting[0]
    while (next !== undefined && this.fits(next.bytes)) {
      this.waiting.shift()
      this.held += next.bytes
      next.go()
      next = this.waiting[0]
    }
  }

  private fits (bytes: number): boolean {
    return this.held === 0 || this.held + bytes <= this.limit
  }
}

/**
 * An SMTP listener (smtp-server) for mail delivered straight to the help
 * desk (as an MX or a relay's next hop). It accepts only our recipients
 * (configured inbound addresses and ticket reply addresses), and answers
 * 250 only once the message is recorded: a failure to store it is a
 * temporary 451, so the sending server keeps it and tries again.
 *
 * What one client can cost is bounded: a message is written to a spool
 * file as it arrives, up to `maxBytes` (the rest of a larger one is read
 * and dropped); it is read into memory only once complete, and only while
 * all messages so held stay within `maxBufferedBytes`. Connections are
 * capped in total and per client address, and silent or endless sessions
 * are cut by the idle and DATA timeouts.
 */
export async function startSmtpListener (options: SmtpListenerOptions): Promise<SmtpListener> {
  const maxBytes = positive('maxBytes', options.maxBytes, SMTP_LISTENER_DEFAULTS.maxBytes)
  const maxBufferedBytes = positive('maxBufferedBytes', options.maxBufferedBytes, 2 * maxBytes)
  const maxClients = positive('maxClients', options.maxClients, SMTP_LISTENER_DEFAULTS.maxClients)
  const maxClientsPerIp = positive('maxClientsPerIp', options.maxClientsPerIp, SMTP_LISTENER_DEFAULTS.maxClientsPerIp)
  const idleTimeoutMs = positive('idleTimeoutMs', options.idleTimeoutMs, SMTP_LISTENER_DEFAULTS.idleTimeoutMs)
  const dataTimeoutMs = positive('dataTimeoutMs', options.dataTimeoutMs, SMTP_LISTENER_DEFAULTS.dataTimeoutMs)
  const closeTimeoutMs = positive('closeTimeoutMs', options.closeTimeoutMs, SMTP_LISTENER_DEFAULTS.closeTimeoutMs)
  // Loaded here, not with the package: a server that receives no mail over SMTP never loads them.
  const [{ SMTPServer }, { default: ipaddr }] = await Promise.all([import('smtp-server'), import('ipaddr.js')])
  const budget = new MemoryBudget(maxBufferedBytes)
  let spooled = 0
  // A message a little over the limit is read to its end, so the client gets its 552 after the final dot (a clean
  // bounce); one that goes on past a quarter more is cut off, 552 at once and the connection closed.
  const cutOffBytes = maxBytes + Math.ceil(maxBytes / 4)

  /** Whose connections count together: an IPv4 address, or an IPv6 client's /64 (one subscriber's network). */
  const clientKey = (address: string): string => {
    if (!ipaddr.isValid(address)) return address
    const ip = ipaddr.process(address)
    return ip.kind() === 'ipv6' ? `${(ip as import('ipaddr.js').IPv6).parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64` : ip.toString()
  }
  const perClient = new Map<string, number>()
  /** Session id -> the key it was counted under (sessions refused before counting are absent). */
  const counted = new Map<string, string>()

  const server = new SMTPServer({
    name: options.name,
    banner: 'help desk',
    size: maxBytes,
    rejectOversized: true,
    maxClients,
    socketTimeout: idleTimeoutMs,
    closeTimeout: closeTimeoutMs,
    authOptional: true,
    // STARTTLS only with a certificate of our own: smtp-server's built-in one has a published key.
    disabledCommands: options.tls !== undefined ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(options.tls !== undefined ? { key: options.tls.key, cert: options.tls.cert } : {}),
    logger: false,
    onConnect (session, callback) {
      const key = clientKey(session.remoteAddress)
      const open = perClient.get(key) ?? 0
      if (open >= maxClientsPerIp) { callback(smtpError(421, 'Too many connections from your address, try again later')); return }
      perClient.set(key, open + 1)
      counted.set(session.id, key)
      callback()
    },
    onClose (session) {
      const key = counted.get(session.id)
      if (key === undefined) return
      counted.delete(session.id)
      const open = (perClient.get(key) ?? 1) - 1
      if (open > 0) perClient.set(key, open)
      else perClient.delete(key)
    },
    onRcptTo (address, _session, callback) {
      // `accepts` may be synchronous or answer with a promise; a throw or a rejection is a temporary failure.
      Promise.resolve().then(() => options.inbound.accepts(address.address)).then((accepted) => {
        callback(accepted ? null : smtpError(550, 'No such recipient here'))
      }, (error: unknown) => {
        options.onError?.(error)
        callback(smtpError(451, 'Temporary failure, try again later'))
      })
    },
    onData (stream, session, callback) {
      /** Ends the session from inside DATA, where no reply is due yet: `reply`, then the connection closes. */
      const cut = (code: number, reply: string): void => {
        for (const connection of server.connections) {
          if (connection.id !== session.id) continue
          connection.send(code, reply)
          connection.close()
        }
      }
      const file = join(spool, `${++spooled}.eml`)
      const out = createWriteStream(file, { flags: 'wx', mode: 0o600 })
      const written = new Promise<void>((resolve, reject) => { out.once('finish', resolve).once('error', reject) })
      written.catch(() => {})
      let bytes = 0
      let refusal: SmtpError | null = null
      let cutOff = false
      let ended = false
      const refuse = (error: SmtpError): void => {
        refusal = error
        // Nothing more of this message is kept: the rest is read and dropped.
        out.destroy()
        stream.resume()
      }
      out.on('error', (error) => {
        if (refusal !== null) return
        options.onError?.(error)
        refuse(smtpError(452, 'Insufficient system storage, try again later'))
      })
      const timer = setTimeout(() => {
        cut(421, `Timeout: the message took longer than ${Math.round(dataTimeoutMs / 1000)} s, closing`)
      }, dataTimeoutMs)
      timer.unref()
      stream.on('data', (chunk: Buffer) => {
        if (refusal === null) {
          if (!stream.sizeExceeded && bytes + chunk.length <= maxBytes) {
            bytes += chunk.length
            // The file's pace is the client's: the stream pauses, smtp-server stops reading the socket.
            if (!out.write(chunk)) {
              stream.pause()
              out.once('drain', () => { stream.resume() })
            }
            return
          }
          refuse(smtpError(552, `Message exceeds the maximum size of ${maxBytes} bytes`))
        }
        if (!cutOff && stream.byteLength > cutOffBytes) {
          cutOff = true
          cut(552, `Message exceeds the maximum size of ${maxBytes} bytes, closing`)
        }
      })
      const discard = (): void => {
        out.destroy()
        rm(file, { force: true }).catch((error: unknown) => options.onError?.(error))
      }
      // The client left mid-message (smtp-server destroys the stream): 'close' without 'end'.
      stream.on('error', () => {})
      stream.on('close', () => {
        clearTimeout(timer)
        if (!ended) discard()
      })
      stream.on('end', () => {
        ended = true
        clearTimeout(timer)
        if (refusal !== null) {
          discard()
          callback(refusal)
          return
        }
        out.end()
        const mailFrom = session.envelope.mailFrom
        const envelope = { from: mailFrom === false ? null : mailFrom.address, to: session.envelope.rcptTo.map((r) => r.address) }
        const receive = async (): Promise<void> => {
          await written.catch(() => { throw smtpError(452, 'Insufficient system storage, try again later') })
          // Only now, complete and within the limit, is the message read into memory: when there is room.
          await budget.take(bytes)
          try {
            const raw = await readFile(file)
            await rm(file, { force: true })
            await receiveRaw(options.inbound, raw, envelope)
          } finally {
            budget.release(bytes)
          }
        }
        receive().then(() => { callback() }, (error: unknown) => {
          discard()
          if (typeof (error as Partial<SmtpError>).responseCode === 'number') { callback(error as SmtpError); return }
          options.onError?.(error)
          callback(smtpError(451, 'Temporary failure storing the message, try again later'))
        })
      })
    }
  })
  server.on('error', (error) => options.onError?.(error))
  // Made once the server could be built (a bad certificate throws above); used by onData only after listen().
  const spoolBase = options.spoolDir ?? tmpdir()
  await removeStaleSpools(spoolBase, options.onError)
  const spool = await mkdtemp(join(spoolBase, `${spoolPrefix()}${process.pid}-`))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => { server.off('error', reject); resolve() })
  }).catch(async (error: unknown) => {
    await rm(spool, { recursive: true, force: true })
    throw error
  })
  const address = server.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : options.port
  return {
    port,
    async close () {
      await new Promise<void>((resolve) => { server.close(() => { resolve() }) })
      await rm(spool, { recursive: true, force: true })
    }
  }
}
