import type { ImapFlow } from 'imapflow'
import type { InboundMailService } from '@helpdesk/core'
import { receiveRaw } from './parse-mail.js'

export interface ImapPollerOptions {
  /** Where received mail goes. */
  inbound: Pick<InboundMailService, 'receive' | 'keepUnreadable'>
  /** `imaps://user:pass@host:993/INBOX` (TLS) or `imap://...:143/INBOX` (STARTTLS when offered); the path is the mailbox, default INBOX. */
  url: string
  /** Move each stored mail here (created when missing); without it, stored mail is only flagged \Seen. */
  moveTo?: string | undefined
  /** Fallback poll when IDLE is not supported or stays quiet. Default 60 s. */
  pollMs?: number | undefined
  onError?: ((error: unknown) => void) | undefined
}

export interface ImapPoller {
  /** Fetches and stores every unseen mail now; resolves with how many were taken. */
  pollOnce(): Promise<number>
  close(): Promise<void>
}

function connectionOf (url: string, Imap: typeof ImapFlow): { client: ImapFlow, mailbox: string } {
  const parsed = new URL(url)
  if (parsed.protocol !== 'imap:' && parsed.protocol !== 'imaps:') throw new Error('The IMAP URL must start with imap:// or imaps://')
  const secure = parsed.protocol === 'imaps:'
  const client = new Imap({
    host: parsed.hostname,
    port: parsed.port !== '' ? Number(parsed.port) : secure ? 993 : 143,
    secure,
    auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) },
    logger: false,
    // The connection only waits for mail between polls: IDLE at once, not after the default 15 s.
    autoIdleDelay: 500
  })
  const mailbox = decodeURIComponent(parsed.pathname.replace(/^\/+/, '')) || 'INBOX'
  return { client, mailbox }
}

/** Header values naming the address a mail was delivered to (an IMAP mailbox has no SMTP envelope). */
function deliveredTo (raw: Buffer): string[] {
  const head = raw.subarray(0, Math.min(raw.length, 64 * 1024)).toString('latin1').split(/\r?\n\r?\n/)[0] ?? ''
  return [...head.matchAll(/^(?:Delivered-To|X-Original-To|Envelope-To):\s*<?([^\s<>]+@[^\s<>]+)>?/gim)].map((m) => m[1] as string)
}

/**
 * Polls an IMAP mailbox (imapflow): every unseen mail is handed to the
 * inbound service, and only once it is recorded is it flagged \Seen (or moved
 * to `moveTo`), so a crash or a database outage leaves it for the next poll.
 * Waits with IDLE where the server has it (new mail is taken at once), and
 * polls every `pollMs` in any case. One poll at a time.
 */
export async function startImapPoller (options: ImapPollerOptions): Promise<ImapPoller> {
  // imapflow loads with the first poller, not with the package.
  const { client, mailbox } = connectionOf(options.url, (await import('imapflow')).ImapFlow)
  let closed = false
  let running: Promise<number> | null = null
  let again = false

  async function pollNow (): Promise<number> {
    let taken = 0
    const lock = await client.getMailboxLock(mailbox)
    try {
      const uids = await client.search({ seen: false }, { uid: true })
      for (const uid of uids === false ? [] : uids) {
        const message = await client.fetchOne(String(uid), { source: true }, { uid: true })
        if (message === false || message.source === undefined) continue
        await receiveRaw(options.inbound, message.source, { to: deliveredTo(message.source) })
        if (options.moveTo !== undefined) await client.messageMove(String(uid), options.moveTo, { uid: true })
        else await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true })
        taken++
      }
    } finally {
      lock.release()
    }
    return taken
  }

  async function pollOnce (): Promise<number> {
    if (running !== null) {
      again = true
      return await running
    }
    running = (async () => {
      let total = 0
      do {
        again = false
        total += await pollNow()
      } while (again && !closed)
      return total
    })().finally(() => { running = null })
    return await running
  }

  const poll = (): void => { if (!closed) pollOnce().catch((error: unknown) => options.onError?.(error)) }

  client.on('error', (error: unknown) => options.onError?.(error))
  await client.connect()
  if (options.moveTo !== undefined) {
    const existing = await client.list()
    if (!existing.some((m) => m.path === options.moveTo)) await client.mailboxCreate(options.moveTo)
  }
  // Selected and idle: the server announces new mail with EXISTS.
  await client.mailboxOpen(mailbox)
  client.on('exists', poll)
  const timer = setInterval(poll, options.pollMs ?? 60_000)
  timer.unref()
  poll()

  return {
    pollOnce,
    async close () {
      closed = true
      clearInterval(timer)
      await running?.catch(() => 0)
      await client.logout().catch(() => { client.close() })
    }
  }
}
