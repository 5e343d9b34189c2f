import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import nodemailer from 'nodemailer'
import { mailList, parseListQuery } from '@helpdesk/core'
import { createKnexStore, testDialects } from '@helpdesk/store-knex'
import { SmtpSession } from '../../fastify/test/smtp-session.js'
import { deployment, killServer, startServer } from './server-process.js'

const dialect = testDialects()[0] ?? 'sqlite'

/** The resident set of a process, from /proc (Linux). */
function rssOf (pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (match?.[1] === undefined) throw new Error(`no VmRSS for ${pid}`)
  return Number(match[1]) * 1024
}

const MB = 1_000_000
/** RSS is reported in KiB; 50 "MB" of it, as `ps` and `top` count, is 50 MiB. */
const MiB = 2 ** 20

describe('the SMTP listener of helpdesk serve under oversized mail', { skip: process.platform !== 'linux' && 'reads the RSS from /proc' }, () => {
  it('discards 10 concurrent 100 MB messages while streaming (RSS grows < 50 MiB) and still takes normal mail', async (t) => {
    const { databaseUrl, storage } = await deployment(t, dialect)
    const setup = createKnexStore({ url: databaseUrl })
    await setup.migrate()
    await setup.categories.create({ name: 'Support', order: 1 } as never)
    await setup.close()
    // The default limits, but for the connections per IP: every client here is 127.0.0.1, and the warm-up's may not be counted out yet.
    const server = await startServer(databaseUrl, storage, {
      HELPDESK_MAIL_FROM: 'support@desk.test', HELPDESK_MAIL_INBOUND: 'support@desk.test=1', HELPDESK_SMTP_PORT: '0', HELPDESK_SMTP_MAX_CLIENTS_PER_IP: '30',
      // Its spool in the deployment's directory, removed after the test: the process is killed, it never cleans up.
      TMPDIR: storage
    })
    t.after(async () => { await killServer(server) })
    const pid = server.child.pid ?? 0
    const port = Number(server.summary.smtp?.split(':')[1])
    const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
    t.after(() => { client.close() })
    const send = async (subject: string): Promise<string> =>
      (await client.sendMail({ from: 'kim@customers.test', to: 'support@desk.test', subject, text: 'Hi.' })).response

    // Warm up: the listener, the parser and the store have loaded and taken a mail.
    assert.match(await send('Before'), /^250/)
    const idle = rssOf(pid)
    // Ten clients stream 20 MB each and leave: the baseline then holds what any Node.js server reading ten sockets
    // at this rate keeps in garbage read buffers between two collections (some 35-45 MiB: a bare TCP server that drops
    // the bytes grows as much), and what is measured below is what the messages' size adds to it.
    const warm = await Promise.all(Array.from({ length: 10 }, async () => (await SmtpSession.open(port)).session))
    t.after(() => { for (const s of warm) s.close() })
    await Promise.all(warm.map(async (s) => {
      await s.begin('big@customers.test', 'support@desk.test')
      assert.ok(await s.stream(20 * MB, 'Warm-up'))
      s.close()
      await s.closed
    }))
    const baseline = rssOf(pid)
    let peak = baseline
    const sampler = setInterval(() => { peak = Math.max(peak, rssOf(pid)) }, 25)
    t.after(() => { clearInterval(sampler) })

    const sessions = await Promise.all(Array.from({ length: 10 }, async () => (await SmtpSession.open(port)).session))
    t.after(() => { for (const s of sessions) s.close() })
    await Promise.all(sessions.map(async (s) => { await s.begin('big@customers.test', 'support@desk.test') }))
    const started = Date.now()
    const big = Promise.all(sessions.map(async (s, i) => await s.sendLarge(100 * MB, `Big ${i}`)))
    // Normal mail while the big ones stream.
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.match(await send('During'), /^250/)
    const replies = await big
    const seconds = (Date.now() - started) / 1000
    for (const reply of replies) assert.equal(reply.code, 552, reply.text)
    assert.match(await send('After'), /^250/)
    peak = Math.max(peak, rssOf(pid))
    clearInterval(sampler)
    const growth = peak - baseline
    const fromIdle = peak - idle
    t.diagnostic(`RSS idle ${(idle / MiB).toFixed(1)} MiB, after the warm-up ${(baseline / MiB).toFixed(1)} MiB, peak with ten 100 MB messages ${(peak / MiB).toFixed(1)} MiB ` +
      `(+${(growth / MiB).toFixed(1)} MiB; +${(fromIdle / MiB).toFixed(1)} MiB from idle) over ${seconds.toFixed(1)} s`)
    assert.ok(growth < 50 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`)
    assert.ok(fromIdle < 100 * MiB, `RSS grew by ${(fromIdle / MiB).toFixed(1)} MiB from idle`)

    const check = createKnexStore({ url: databaseUrl })
    t.after(async () => { await check.close() })
    const inbound = await check.mail.list('in', parseListQuery(mailList, {}))
    assert.deepEqual(inbound.items.map((m) => m.subject).sort(), ['After', 'Before', 'During'])
    assert.ok(inbound.items.every((m) => m.status === 'processed'), JSON.stringify(inbound.items))
  })
})
