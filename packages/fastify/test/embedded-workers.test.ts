import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import { ImapFlow } from 'imapflow'
import nodemailer from 'nodemailer'
import { eventually } from '@helpdesk/core/testing'
import { SYSTEM } from '@helpdesk/core'
import { createKnexStore, createTestDatabase, type KnexStore } from '@helpdesk/store-knex'
import helpdeskPlugin, { type HelpdeskPluginStoreOptions } from '../src/index.js'
import { eachDialect, testHasher } from './helpers.js'
import { startDovecot } from './dovecot.js'
import { rawMail, SUPPORT } from './mail-fixtures.js'

/**
 * An embedding host, as docs/embedding.md shows it: the plugin on the host's own Fastify app, given a store,
 * with workers on and inbound mail configured. The plugin starts the same things `helpdesk serve` runs (the job
 * runner and the inbound mail doors) from ready to close, in one place (`http/job-workers.ts`).
 */
async function host (t: TestContext, dialect: 'sqlite' | 'postgres', extra: Partial<HelpdeskPluginStoreOptions> = {}): Promise<{ app: FastifyInstance, store: KnexStore }> {
  const db = await createTestDatabase(dialect)
  const store = createKnexStore({ url: db.url })
  await store.migrate()
  const app = Fastify({ logger: false })
  await app.register(helpdeskPlugin, {
    store,
    hasher: testHasher,
    rateLimit: false,
    mail: { from: `Help Desk <${SUPPORT}>`, inbound: { [SUPPORT]: 1 } },
    inboundMail: { smtp: { port: 0, host: '127.0.0.1', closeTimeoutMs: 100 } },
    workers: { pollMs: 50 },
    ...extra
  })
  t.after(async () => {
    await app.close()
    await store.close()
    await db.drop()
  })
  return { app, store }
}

async function send (port: number, mail: nodemailer.SendMailOptions): Promise<void> {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
  try {
    await client.sendMail(mail)
  } finally {
    client.close()
  }
}

async function busyPort (t: TestContext): Promise<number> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(async () => { await new Promise((resolve) => server.close(resolve)) })
  return (server.address() as { port: number }).port
}

eachDialect((dialect) => {
  describe(`an embedding host with workers and inbound mail (${dialect})`, () => {
    it('receives mail over SMTP: the plugin starts the listener with the workers and closes it with the app', async (t) => {
      const { app, store } = await host(t, dialect)
      await app.helpdesk.categories.create(SYSTEM, { name: 'Billing' })
      await app.ready()
      const listener = app.helpdeskInbound.smtp
      assert.ok(listener !== null, 'the SMTP listener runs once the app is ready')
      assert.equal(app.helpdeskInbound.imap, null, 'no IMAP poller without `inboundMail.imap`')

      await send(listener.port, { from: 'Carol <carol@customers.test>', to: SUPPORT, subject: 'Printer on fire', text: 'Please help.' })
      const ticket = await eventually('a ticket from the mail', async () =>
        await store.knex('tickets').where({ title: 'Printer on fire' }).first() as { id: number, category_id: number } | undefined)
      assert.equal(ticket.category_id, 1)
      // The job runner runs in the same host, with every handler: core's (createHelpdesk) and the channels' (the plugin).
      assert.equal(app.helpdesk.jobs.isRunning, true)
      for (const type of ['webhook.deliver', 'import.run', 'uploads.prune', 'account.mail']) assert.ok(app.helpdesk.jobs.registered(type), type)

      const port = listener.port
      await app.close()
      assert.equal(app.helpdeskInbound.smtp, null)
      await assert.rejects(send(port, { from: 'carol@customers.test', to: SUPPORT, subject: 'After close', text: 'x' }), /ECONNREFUSED/)
    })

    it('receives mail from an IMAP mailbox: the plugin starts the poller with the workers', async (t) => {
      const server = await startDovecot(t)
      if (server === null) {
        t.skip('dovecot is not installed (.ci/run installs dovecot-imapd) or the tests do not run as root')
        return
      }
      const client = new ImapFlow({ host: server.host, port: server.port, secure: false, auth: { user: server.user, pass: server.pass }, logger: false })
      await client.connect()
      t.after(async () => { await client.logout().catch(() => {}) })
      await client.append('INBOX', await rawMail({ from: 'ivy@customers.test', to: SUPPORT, subject: 'Over IMAP, embedded', text: 'Hello.' }))
      const { app, store } = await host(t, dialect, { inboundMail: { imap: { url: server.url, moveTo: 'Processed' } } })
      await app.helpdesk.categories.create(SYSTEM, { name: 'Billing' })
      await app.ready()
      assert.ok(app.helpdeskInbound.imap !== null)
      assert.equal(app.helpdeskInbound.smtp, null)
      await eventually('a ticket from the mailbox', async () => await store.knex('tickets').where({ title: 'Over IMAP, embedded' }).first() as object | undefined)
      await app.close()
      assert.equal(app.helpdeskInbound.imap, null)
    })

    it('fails to start, leaving no door open, when the SMTP port is taken', async (t) => {
      const port = await busyPort(t)
      const { app } = await host(t, dialect, { inboundMail: { smtp: { port, host: '127.0.0.1', closeTimeoutMs: 100 } } })
      await assert.rejects(app.ready(), (error: NodeJS.ErrnoException) => error.code === 'EADDRINUSE')
      assert.equal(app.helpdeskInbound.smtp, null)
    })

    it('keeps receiving mail with workers off: the doors are not background jobs', async (t) => {
      const { app, store } = await host(t, dialect, { workers: false })
      await app.helpdesk.categories.create(SYSTEM, { name: 'Billing' })
      await app.ready()
      await send(app.helpdeskInbound.smtp!.port, { from: 'dan@customers.test', to: SUPPORT, subject: 'Workers off', text: 'x' })
      await eventually('a ticket from the mail', async () => await store.knex('tickets').where({ title: 'Workers off' }).first() as object | undefined)
      assert.equal(app.helpdesk.jobs.isRunning, false)
    })
  })
})
