import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import { SMTPServer } from 'smtp-server'
import { eventually } from '@helpdesk/core/testing'
import { createKnexStore, testDialects } from '@helpdesk/store-knex'
import { mailList, parseListQuery } from '@helpdesk/core'
import { CliError, loadConfig } from '../src/config.js'
import { mailTest } from '../src/commands/mail-test.js'
import { rotateReplyKey } from '../src/commands/mail-rotate-reply-key.js'
import { serve } from '../src/commands/serve.js'
import { selfSignedCertificate, SmtpSession } from '../../fastify/test/smtp-session.js'
import { captureIo, testDatabase } from './in-process.js'


/** A real SMTP server on a free port that answers with a recognisable queue id, or refuses. */
async function smtpServer (t: import('node:test').TestContext, refuse = false): Promise<{ port: number, received: string[] }> {
  const received: string[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo (_address, _session, callback) {
      if (!refuse) { callback(); return }
      const error = new Error('Relay access denied') as Error & { responseCode: number }
      error.responseCode = 554
      callback(error)
    },
    onData (stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => { received.push(Buffer.concat(chunks).toString()); callback(null, 'Ok: queued as TESTQUEUE42') })
    }
  })
  await new Promise<void>((resolve) => { server.listen(0, '127.0.0.1', resolve) })
  t.after(async () => { await new Promise<void>((resolve) => { server.close(() => { resolve() }) }) })
  const address = server.server.address()
  return { port: typeof address === 'object' && address !== null ? address.port : 0, received }
}

const dialect = testDialects()[0] ?? 'sqlite'

describe('mail on the command line', () => {
  it('reads mail settings from the environment over the config file, and needs a sender', () => {
    const config = loadConfig({}, {
      HELPDESK_SMTP_URL: 'smtp://127.0.0.1:2525',
      HELPDESK_MAIL_FROM: 'Support <support@example.com>',
      HELPDESK_MAIL_INBOUND: 'support@example.com=1, Sales@Example.com=2',
      HELPDESK_MAIL_INBOUND_SECRET: 'hook',
      HELPDESK_SMTP_PORT: '2526',
      HELPDESK_IMAP_URL: 'imaps://u:p@imap.example.com/INBOX'
    }, '/nonexistent')
    assert.deepEqual(config.plugin.mail, {
      from: 'Support <support@example.com>', smtpUrl: 'smtp://127.0.0.1:2525', inbound: { 'support@example.com': 1, 'sales@example.com': 2 }, inboundSecret: 'hook'
    })
    assert.equal(config.smtpPort, 2526)
    assert.deepEqual(config.imap, { url: 'imaps://u:p@imap.example.com/INBOX' })
    assert.equal(loadConfig({}, {}, '/nonexistent').plugin.mail, undefined)
    assert.throws(() => loadConfig({}, { HELPDESK_SMTP_URL: 'smtp://127.0.0.1:2525' }, '/nonexistent'), /HELPDESK_MAIL_FROM/)
    assert.throws(() => loadConfig({}, { HELPDESK_MAIL_FROM: 'a@b.c', HELPDESK_MAIL_INBOUND: 'nonsense' }, '/nonexistent'), /HELPDESK_MAIL_INBOUND/)
  })

  it('reads the console URL and the trusted authserv-ids from the environment or the file', () => {
    const env = { HELPDESK_MAIL_FROM: 'support@example.com', HELPDESK_CONSOLE_URL: 'https://help.example.com', HELPDESK_MAIL_TRUSTED_AUTHSERV_IDS: 'mx.example.com, mx2.example.com' }
    const mail = loadConfig({}, env, '/nonexistent').plugin.mail
    assert.equal(mail?.consoleUrl, 'https://help.example.com')
    assert.deepEqual(mail?.trustedAuthServIds, ['mx.example.com', 'mx2.example.com'])
    assert.throws(() => loadConfig({}, { ...env, HELPDESK_CONSOLE_URL: 'help.example.com' }, '/nonexistent'), /HELPDESK_CONSOLE_URL/)
  })

  it('mail:rotate-reply-key adds a signing key, and retires the older ones when asked, never printing a secret', async (t) => {
    const db = await testDatabase(t, dialect)
    const saved = { ...process.env }
    t.after(() => { process.env = saved })
    process.env.HELPDESK_QUIET = '1'
    const store = createKnexStore({ url: db.url })
    t.after(async () => { await store.close() })
    await store.migrate()
    await store.mail.ensureReplyKey('first-secret')
    const io = captureIo()
    assert.deepEqual(await rotateReplyKey({ database: db.url }, io), { id: 2, retired: 0 })
    assert.match(io.stdout[0] ?? '', /signed with key 2; the older keys still verify/)
    assert.deepEqual((await store.mail.replyKeys()).map((k) => k.id), [2, 1])
    const json = captureIo()
    assert.deepEqual(await rotateReplyKey({ database: db.url, retireOlder: true, json: true }, json), { id: 3, retired: 2 })
    assert.deepEqual(JSON.parse(json.stdout[0] ?? ''), { id: 3, retired: 2 })
    const keys = await store.mail.replyKeys()
    assert.deepEqual(keys.map((k) => k.id), [3])
    assert.ok(![...io.stdout, ...json.stdout].some((line) => line.includes(keys[0]?.secret ?? '-')), 'the secret is never printed')
  })

  it('reads the SMTP listener\'s limits and certificate from the environment over the config file', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'helpdesk-smtp-config-'))
    t.after(() => { rmSync(dir, { recursive: true, force: true }) })
    writeFileSync(join(dir, 'helpdesk.config.json'), JSON.stringify({
      mail: { from: 'support@example.com', smtpPort: 2525, smtpMaxBytes: 1000, smtpMaxClients: 5, smtpIdleTimeoutMs: 60000, smtpTlsKey: 'tls/key.pem', smtpTlsCert: 'tls/cert.pem' }
    }))
    const fromFile = loadConfig({}, {}, dir)
    assert.deepEqual(fromFile.smtp, {
      maxBytes: 1000, maxClients: 5, idleTimeoutMs: 60000, tls: { keyFile: join(dir, 'tls/key.pem'), certFile: join(dir, 'tls/cert.pem') }
    })
    // The listener's settings are not the plugin's mail options.
    assert.deepEqual(fromFile.plugin.mail, { from: 'support@example.com' })
    const fromEnv = loadConfig({}, {
      HELPDESK_SMTP_MAX_BYTES: '2000', HELPDESK_SMTP_MAX_BUFFERED_BYTES: '8000', HELPDESK_SMTP_MAX_CLIENTS: '50', HELPDESK_SMTP_MAX_CLIENTS_PER_IP: '3',
      HELPDESK_SMTP_IDLE_TIMEOUT_MS: '1000', HELPDESK_SMTP_DATA_TIMEOUT_MS: '9000', HELPDESK_SMTP_TLS_KEY: '/etc/k.pem', HELPDESK_SMTP_TLS_CERT: '/etc/c.pem'
    }, dir)
    assert.deepEqual(fromEnv.smtp, {
      maxBytes: 2000, maxBufferedBytes: 8000, maxClients: 50, maxClientsPerIp: 3, idleTimeoutMs: 1000, dataTimeoutMs: 9000, tls: { keyFile: '/etc/k.pem', certFile: '/etc/c.pem' }
    })
    // Unset: the listener's defaults (SMTP_LISTENER_DEFAULTS).
    assert.deepEqual(loadConfig({}, {}, '/nonexistent').smtp, {})
    assert.throws(() => loadConfig({}, { HELPDESK_SMTP_MAX_CLIENTS_PER_IP: '0' }, '/nonexistent'), /HELPDESK_SMTP_MAX_CLIENTS_PER_IP must be an integer from 1 to 100000, got "0"/)
    assert.throws(() => loadConfig({}, { HELPDESK_SMTP_DATA_TIMEOUT_MS: '9999999999' }, '/nonexistent'), /HELPDESK_SMTP_DATA_TIMEOUT_MS must be an integer from 1 to 2147483647/)
    assert.throws(() => loadConfig({}, { HELPDESK_SMTP_TLS_CERT: '/etc/c.pem' }, '/nonexistent'), /needs both a key and a certificate/)
    writeFileSync(join(dir, 'helpdesk.config.json'), JSON.stringify({ mail: { smtpMaxBytes: 0 } }))
    assert.throws(() => loadConfig({}, {}, dir), /"mail" must be an object whose "smtpMaxBytes" is an integer from 1 to 1073741824/)
  })

  it('mail:test sends through the SMTP server and reports its answer, or its refusal', async (t) => {
    const server = await smtpServer(t)
    const env = { HELPDESK_SMTP_URL: `smtp://127.0.0.1:${server.port}`, HELPDESK_MAIL_FROM: 'Support <support@example.com>' }
    const io = captureIo()
    const result = await mailTest({ to: 'me@example.com' }, io, env)
    assert.match(result.response, /TESTQUEUE42/)
    assert.match(io.stdout[0] ?? '', /Sent to me@example\.com .*The server said: 250 Ok: queued as TESTQUEUE42/)
    assert.match(server.received[0] ?? '', /Subject: Help desk test mail/)
    assert.match(server.received[0] ?? '', /Auto-Submitted: auto-generated/)

    const refusing = await smtpServer(t, true)
    await assert.rejects(mailTest({ to: 'me@example.com' }, captureIo(), { ...env, HELPDESK_SMTP_URL: `smtp://user:pw@127.0.0.1:${refusing.port}` }), (error: Error) => {
      assert.match(error.message, /did not take the mail: .*Relay access denied/)
      assert.doesNotMatch(error.message, /pw@/)
      return true
    })
    await assert.rejects(mailTest({ to: 'me@example.com' }, captureIo(), {}), /no SMTP server configured/)
  })

  it('serve --smtp-port receives mail into tickets', async (t) => {
    const db = await testDatabase(t, dialect)
    const saved = { ...process.env }
    t.after(() => { process.env = saved })
    Object.assign(process.env, { HELPDESK_QUIET: '1', HELPDESK_MAIL_FROM: 'support@desk.test', HELPDESK_MAIL_INBOUND: 'support@desk.test=1' })
    // The category the inbound address maps to.
    const store = createKnexStore({ url: db.url })
    await store.migrate()
    await store.categories.create({ name: 'Support', order: 1 } as never)
    await store.close()

    const io = captureIo()
    const server = await serve({ database: db.url, port: '0', host: '127.0.0.1', smtpPort: '0', json: true }, io)
    t.after(async () => { await server.close() })
    assert.match(server.summary.smtp ?? '', /^127\.0\.0\.1:\d+$/)
    const port = Number(server.summary.smtp?.split(':')[1])
    const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
    await client.sendMail({ from: 'kim@customers.test', to: 'support@desk.test', subject: 'Through serve', text: 'Hi.' })
    await assert.rejects(client.sendMail({ from: 'kim@customers.test', to: 'nobody@desk.test', subject: 'x', text: 'x' }), /550/)
    client.close()

    const check = createKnexStore({ url: db.url })
    t.after(async () => { await check.close() })
    const inbound = await check.mail.list('in', parseListQuery(mailList, {}))
    assert.equal(inbound.items[0]?.status, 'processed')
    assert.equal((await check.tickets.findById(inbound.items[0]?.ticket_id ?? 0))?.title, 'Through serve')
  })

  it('serve offers STARTTLS with the configured certificate, applies the configured limits, and names a certificate it cannot read', async (t) => {
    const db = await testDatabase(t, dialect)
    const saved = { ...process.env }
    t.after(() => { process.env = saved })
    const { keyFile, certFile } = selfSignedCertificate(t)
    Object.assign(process.env, {
      HELPDESK_QUIET: '1', HELPDESK_MAIL_FROM: 'support@desk.test', HELPDESK_MAIL_INBOUND: 'support@desk.test=1',
      HELPDESK_SMTP_TLS_KEY: keyFile, HELPDESK_SMTP_TLS_CERT: certFile, HELPDESK_SMTP_MAX_BYTES: '5000', HELPDESK_SMTP_MAX_CLIENTS_PER_IP: '1'
    })
    const server = await serve({ database: db.url, port: '0', host: '127.0.0.1', smtpPort: '0', json: true }, captureIo())
    t.after(async () => { await server.close() })
    const port = Number(server.summary.smtp?.split(':')[1])
    const { session } = await SmtpSession.open(port)
    t.after(() => { session.close() })
    const ehlo = await session.command('EHLO client.test')
    assert.match(ehlo.text, /^STARTTLS$/m)
    assert.match(ehlo.text, /^SIZE 5000$/m)
    const second = await SmtpSession.open(port)
    t.after(() => { second.session.close() })
    assert.equal(second.greeting.code, 421)
    session.close()
    await session.closed

    const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false } })
    t.after(() => { client.close() })
    // Once the server has counted the closed session out, the one slot of 127.0.0.1 is free again.
    const info = await eventually('mail over STARTTLS', async () =>
      await client.sendMail({ from: 'kim@customers.test', to: 'support@desk.test', subject: 'Over TLS', text: 'Hi.' }).catch(() => undefined))
    assert.match(info.response, /^250/)

    process.env.HELPDESK_SMTP_TLS_CERT = join(tmpdir(), 'no-such-dir', 'cert.pem')
    await assert.rejects(serve({ database: db.url, port: '0', host: '127.0.0.1', smtpPort: '0', json: true }, captureIo()),
      /cannot read the SMTP listener's TLS certificate .*no-such-dir\/cert\.pem: ENOENT/)
    process.env.HELPDESK_SMTP_TLS_CERT = keyFile
    await assert.rejects(serve({ database: db.url, port: '0', host: '127.0.0.1', smtpPort: '0', json: true }, captureIo()),
      (error: Error) => error instanceof CliError && /TLS key .*key\.pem and certificate .*key\.pem cannot be used/.test(error.message))
  })
})
