import { strict as assert } from 'node:assert'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it, type TestContext } from 'node:test'
import nodemailer from 'nodemailer'
import { eventually } from '@helpdesk/core/testing'
import { startSmtpListener, type SmtpListener, type SmtpListenerOptions } from '@helpdesk/mail'
import { eachDialect, testDialects } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { mailDesk, SUPPORT, type MailDesk } from './mail-fixtures.js'
import { selfSignedCertificate, SmtpSession } from './smtp-session.js'

const KiB = 1024
const MiB = 1024 * KiB

/** A listener of its own on the desk's inbound service, spooling under a directory the test can look into; closed after the test without waiting for sessions a test left open. */
async function listen (t: TestContext, d: MailDesk, options: Partial<SmtpListenerOptions> = {}): Promise<SmtpListener & { spool: () => string[] }> {
  const spoolDir = mkdtempSync(join(tmpdir(), 'helpdesk-spool-test-'))
  t.after(() => { rmSync(spoolDir, { recursive: true, force: true }) })
  const listener = await startSmtpListener({ inbound: d.h.helpdesk.mail.inbound, port: 0, host: '127.0.0.1', spoolDir, closeTimeoutMs: 100, ...options })
  t.after(async () => { await listener.close() })
  return {
    port: listener.port,
    close: async () => { await listener.close() },
    /** The files being received right now (the listener's private directory inside `spoolDir`). */
    spool: () => readdirSync(spoolDir).flatMap((dir) => readdirSync(join(spoolDir, dir)))
  }
}

async function open (t: TestContext, port: number, localAddress?: string): Promise<{ session: SmtpSession, greeting: { code: number, text: string } }> {
  const opened = await SmtpSession.open(port, localAddress !== undefined ? { localAddress } : {})
  t.after(() => { opened.session.close() })
  return opened
}

async function inboundSubjects (d: MailDesk): Promise<string[]> {
  const records = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound', token: d.admin.token }), 200).data
  return records.map((r: { subject: string }) => r.subject).sort()
}

function client (port: number, extra: Record<string, unknown> = {}): nodemailer.Transporter {
  return nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, ...extra })
}

// The listener's own limits, once: what they guard is the connection, whichever database is behind it.
const dialect = testDialects()[0] ?? 'sqlite'

describe(`SMTP listener limits (${dialect})`, () => {
  it('caps connections per client address and in total with 421, and frees a slot when a client leaves', async (t) => {
    const d = await mailDesk(t, dialect)
    const listener = await listen(t, d, { maxClientsPerIp: 2, maxClients: 3 })
    const first = await open(t, listener.port)
    const second = await open(t, listener.port)
    assert.equal(first.greeting.code, 220)
    assert.equal(second.greeting.code, 220)
    const third = await open(t, listener.port)
    assert.equal(third.greeting.code, 421, third.greeting.text)
    assert.match(third.greeting.text, /too many connections from your address/i)
    await third.session.closed
    // The refused connection never counted: its address still has no free slot.
    assert.equal((await open(t, listener.port)).greeting.code, 421)
    // Another address has its own slots, up to the total.
    assert.equal((await open(t, listener.port, '127.0.0.2')).greeting.code, 220)
    const overTotal = await open(t, listener.port, '127.0.0.3')
    assert.equal(overTotal.greeting.code, 421)
    assert.match(overTotal.greeting.text, /too many connected clients/i)
    // One of the first two leaves: its address may connect again, and mail still gets through.
    assert.equal((await first.session.command('QUIT')).code, 221)
    await first.session.closed
    const again = await eventually('a slot for 127.0.0.1 again', async () => {
      const attempt = await open(t, listener.port)
      if (attempt.greeting.code === 220) return attempt
      attempt.session.close()
      return undefined
    })
    await again.session.begin('kim@customers.test', SUPPORT)
    await again.session.write(`From: kim@customers.test\r\nTo: ${SUPPORT}\r\nSubject: After the cap\r\n\r\nHello.\r\n.\r\n`)
    assert.equal((await again.session.reply()).code, 250)
    assert.deepEqual(await inboundSubjects(d), ['After the cap'])
  })

  it('closes a silent connection (idle timeout) and a DATA that takes too long (DATA timeout), keeping nothing of it', async (t) => {
    const d = await mailDesk(t, dialect)
    const listener = await listen(t, d, { idleTimeoutMs: 300, dataTimeoutMs: 1_000 })

    const silent = await open(t, listener.port)
    const started = Date.now()
    const timeout = await silent.session.reply()
    assert.equal(timeout.code, 421, timeout.text)
    assert.match(timeout.text, /timeout/i)
    await silent.session.closed
    assert.ok(Date.now() - started < 2_000)

    // Silent inside DATA: the idle timeout again.
    const stalled = await open(t, listener.port)
    await stalled.session.begin('kim@customers.test', SUPPORT)
    await stalled.session.write('Subject: Stalled\r\n\r\nHalf a')
    assert.equal((await stalled.session.reply()).code, 421)
    await stalled.session.closed

    // A trickle that is never silent for long, but never ends: the DATA timeout.
    const trickle = await open(t, listener.port)
    await trickle.session.begin('kim@customers.test', SUPPORT)
    await trickle.session.write('Subject: Trickle\r\n\r\n')
    const dripping = setInterval(() => { void trickle.session.write('a line\r\n') }, 100)
    t.after(() => { clearInterval(dripping) })
    const dataStarted = Date.now()
    const cut = await trickle.session.reply()
    clearInterval(dripping)
    assert.equal(cut.code, 421, cut.text)
    assert.match(cut.text, /took longer than 1 s/)
    assert.ok(Date.now() - dataStarted >= 900, `cut after ${Date.now() - dataStarted} ms`)
    await trickle.session.closed

    await eventually('the spool emptied', () => listener.spool().length === 0)
    assert.deepEqual(await inboundSubjects(d), [])
  })

  it('refuses an oversized message while it streams: 552 after the final dot when a little over, at once when far over', async (t) => {
    const d = await mailDesk(t, dialect)
    const listener = await listen(t, d, { maxBytes: MiB })

    const ehlo = await open(t, listener.port)
    assert.match((await ehlo.session.command('EHLO client.test')).text, new RegExp(`SIZE ${MiB}`))
    // A client that declares its size is refused before sending anything.
    assert.equal((await ehlo.session.command(`MAIL FROM:<kim@customers.test> SIZE=${2 * MiB}`)).code, 552)

    const over = await open(t, listener.port)
    await over.session.begin('kim@customers.test', SUPPORT)
    const late = await over.session.sendLarge(MiB + 100 * KiB, 'A little too large')
    assert.equal(late.code, 552, late.text)
    assert.equal(over.session.isClosed, false)
    // The session goes on: the next message is taken.
    await over.session.begin('kim@customers.test', SUPPORT)
    assert.equal((await over.session.sendLarge(100 * KiB, 'Within the limit')).code, 250)

    const far = await open(t, listener.port)
    await far.session.begin('kim@customers.test', SUPPORT)
    const early = await far.session.sendLarge(20 * MiB, 'Far too large')
    assert.equal(early.code, 552, early.text)
    assert.match(early.text, /closing/)
    await far.session.closed

    await eventually('the spool emptied', () => listener.spool().length === 0)
    assert.deepEqual(await inboundSubjects(d), ['Within the limit'])
  })

  it('removes the spool directories of listeners whose process is gone, and only those', async (t) => {
    const d = await mailDesk(t, dialect)
    const spoolDir = mkdtempSync(join(tmpdir(), 'helpdesk-spool-test-'))
    t.after(() => { rmSync(spoolDir, { recursive: true, force: true }) })
    const prefix = `helpdesk-smtp-${hostname().replace(/[^A-Za-z0-9.]/g, '_')}-`
    const gone = spawnSync(process.execPath, ['-e', '']).pid
    mkdirSync(join(spoolDir, `${prefix}${gone}-killed`))
    writeFileSync(join(spoolDir, `${prefix}${gone}-killed`, '1.eml'), 'Subject: half a message')
    mkdirSync(join(spoolDir, `${prefix}${process.pid}-running`))
    mkdirSync(join(spoolDir, `helpdesk-smtp-elsewhere-${gone}-other-host`))
    const listener = await startSmtpListener({ inbound: d.h.helpdesk.mail.inbound, port: 0, host: '127.0.0.1', spoolDir })
    const own = readdirSync(spoolDir).filter((e) => e.startsWith(`${prefix}${process.pid}-`) && e !== `${prefix}${process.pid}-running`)
    assert.equal(own.length, 1)
    assert.deepEqual(readdirSync(spoolDir).sort(), [`${prefix}${process.pid}-running`, own[0], `helpdesk-smtp-elsewhere-${gone}-other-host`].sort())
    await listener.close()
    assert.deepEqual(readdirSync(spoolDir).sort(), [`${prefix}${process.pid}-running`, `helpdesk-smtp-elsewhere-${gone}-other-host`].sort())
  })

  it('takes an accepts() that answers with a promise, and answers 451 when it fails', async (t) => {
    const d = await mailDesk(t, dialect)
    const real = d.h.helpdesk.mail.inbound
    let failing = false
    const errors: unknown[] = []
    const inbound = {
      accepts: async (recipient: string) => {
        await new Promise((resolve) => setImmediate(resolve))
        if (failing) throw new Error('database down')
        return real.accepts(recipient)
      },
      receive: real.receive.bind(real),
      keepUnreadable: real.keepUnreadable.bind(real)
    }
    const listener = await startSmtpListener({ inbound: inbound as never, port: 0, host: '127.0.0.1', closeTimeoutMs: 100, onError: (error) => { errors.push(error) } })
    t.after(async () => { await listener.close() })
    const { session } = await open(t, listener.port)
    assert.equal((await session.command('EHLO client.test')).code, 250)
    assert.equal((await session.command('MAIL FROM:<kim@customers.test>')).code, 250)
    assert.equal((await session.command('RCPT TO:<nobody@desk.test>')).code, 550)
    assert.equal((await session.command(`RCPT TO:<${SUPPORT}>`)).code, 250)
    failing = true
    assert.equal((await session.command('RCPT TO:<sales@desk.test>')).code, 451)
    assert.match(String(errors[0]), /database down/)
  })
})

// Where the listener meets the storage (messages parsed and stored together or in turn, mail over TLS): on each database.
eachDialect((dialect) => {
  describe(`SMTP listener storing mail (${dialect})`, () => {
    it('holds received messages in memory within maxBufferedBytes: ones that do not fit together wait their turn', async (t) => {
      const d = await mailDesk(t, dialect)
      const real = d.h.helpdesk.mail.inbound
      let active = 0
      let most = 0
      const watched = {
        accepts: (recipient: string) => real.accepts(recipient),
        keepUnreadable: real.keepUnreadable.bind(real),
        receive: async (mail: Parameters<typeof real.receive>[0]) => {
          most = Math.max(most, ++active)
          try {
            await new Promise((resolve) => setTimeout(resolve, 100))
            return await real.receive(mail)
          } finally {
            active--
          }
        }
      }
      const send = async (port: number, prefix: string): Promise<void> => {
        const transports = [1, 2, 3].map(() => client(port))
        t.after(() => { for (const c of transports) c.close() })
        const body = 'x'.repeat(50 * KiB)
        const infos = await Promise.all(transports.map(async (c, i) => await c.sendMail({ from: 'kim@customers.test', to: SUPPORT, subject: `${prefix} ${i}`, text: body })))
        for (const info of infos) assert.match(info.response, /^250/)
      }
      // Room for about one message at a time: they are parsed and stored one after the other.
      const narrow = await startSmtpListener({ inbound: watched, port: 0, host: '127.0.0.1', closeTimeoutMs: 100, maxBufferedBytes: 60 * KiB })
      t.after(async () => { await narrow.close() })
      await send(narrow.port, 'Narrow')
      assert.equal(most, 1)
      // With room for all, they are handled together.
      most = 0
      const wide = await startSmtpListener({ inbound: watched, port: 0, host: '127.0.0.1', closeTimeoutMs: 100, maxBufferedBytes: 10 * MiB })
      t.after(async () => { await wide.close() })
      await send(wide.port, 'Wide')
      assert.ok(most > 1, `at most ${most} at once`)
      assert.equal((await inboundSubjects(d)).length, 6)
    })

    it('offers STARTTLS with a configured certificate and takes mail over it, and never offers it without one', async (t) => {
      const d = await mailDesk(t, dialect)
      const { key, cert } = selfSignedCertificate(t)
      const secure = await listen(t, d, { tls: { key, cert } })
      const plain = await listen(t, d)

      const ehlo = async (port: number): Promise<string> => {
        const { session } = await open(t, port)
        const reply = await session.command('EHLO client.test')
        session.close()
        return reply.text
      }
      assert.match(await ehlo(secure.port), /^STARTTLS$/m)
      assert.doesNotMatch(await ehlo(plain.port), /STARTTLS/)

      const tlsClient = (port: number): nodemailer.Transporter =>
        nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false } })
      const overTls = tlsClient(secure.port)
      t.after(() => { overTls.close() })
      const info = await overTls.sendMail({ from: 'kim@customers.test', to: SUPPORT, subject: 'Over TLS', text: 'Encrypted.' })
      assert.match(info.response, /^250/)
      const refused = tlsClient(plain.port)
      t.after(() => { refused.close() })
      await assert.rejects(refused.sendMail({ from: 'kim@customers.test', to: SUPPORT, subject: 'Plain', text: 'x' }), /STARTTLS/)
      assert.deepEqual(await inboundSubjects(d), ['Over TLS'])
    })
  })
})
