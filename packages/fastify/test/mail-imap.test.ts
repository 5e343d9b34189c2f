import { strict as assert } from 'node:assert'
import { describe, it } from 'node:test'
import { ImapFlow } from 'imapflow'
import { eventually } from '@helpdesk/core/testing'
import { startImapPoller } from '@helpdesk/mail'
import { startDovecot } from './dovecot.js'
import { eachDialect } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { mailDesk, rawMail, SUPPORT, type MailDesk } from './mail-fixtures.js'

async function tickets (d: MailDesk): Promise<any[]> {
  return expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/tickets', token: d.admin.token }), 200).data
}

eachDialect((dialect) => {
  describe(`IMAP polling (${dialect})`, () => {
    it('takes unseen mail from a real IMAP server (dovecot), marks or moves it only once stored, and wakes on IDLE', async (t) => {
      const server = await startDovecot(t)
      if (server === null) {
        t.skip('dovecot is not installed (.ci/run installs dovecot-imapd) or the tests do not run as root')
        return
      }
      const d = await mailDesk(t, dialect)
      const client = new ImapFlow({ host: server.host, port: server.port, secure: false, auth: { user: server.user, pass: server.pass }, logger: false })
      await client.connect()
      t.after(async () => { await client.logout().catch(() => {}) })
      await client.mailboxCreate('Processed')
      // Already read by a person: left alone. A Bcc to us: found by Delivered-To.
      await client.append('INBOX', await rawMail({ from: 'old@customers.test', to: SUPPORT, subject: 'Read already', text: 'x' }), ['\\Seen'])
      await client.append('INBOX', Buffer.concat([
        Buffer.from(`Delivered-To: ${SUPPORT}\r\n`),
        await rawMail({ from: 'ivy@customers.test', to: 'ivy-team@customers.test', subject: 'Over IMAP', text: 'Hello from a mailbox.', messageId: '<imap.1@customers.test>' })
      ]))

      // A database outage: nothing is marked, the mail waits for the next poll.
      const failing = await startImapPoller({ inbound: { receive: async () => { throw new Error('database down') }, keepUnreadable: async () => { throw new Error('database down') } }, url: server.url, pollMs: 3_600_000 })
      await assert.rejects(failing.pollOnce(), /database down/)
      await failing.close()
      assert.equal((await client.status('INBOX', { unseen: true })).unseen, 1)

      const poller = await startImapPoller({ inbound: d.h.helpdesk.mail.inbound, url: server.url, moveTo: 'Processed', pollMs: 3_600_000 })
      t.after(async () => { await poller.close() })
      await poller.pollOnce()
      await eventually('the unseen message to become a ticket', async () => (await tickets(d)).length === 1)
      const [ticket] = await tickets(d)
      assert.equal(ticket.title, 'Over IMAP')
      const status = await client.status('Processed', { messages: true })
      assert.equal(status.messages, 1, 'moved once stored')
      const inbox = await client.status('INBOX', { messages: true })
      assert.equal(inbox.messages, 1, 'the mail already read stays where it was')

      // New mail while the poller idles: taken without polling (IDLE), and the same mail twice makes one ticket.
      await client.append('INBOX', await rawMail({ from: 'ivy@customers.test', to: SUPPORT, subject: 'Again', text: 'Second.', messageId: '<imap.2@customers.test>' }))
      await client.append('INBOX', await rawMail({ from: 'ivy@customers.test', to: SUPPORT, subject: 'Again', text: 'Second.', messageId: '<imap.2@customers.test>' }))
      await eventually('three messages moved to Processed', async () => (await client.status('Processed', { messages: true })).messages === 3)
      assert.equal((await tickets(d)).length, 2)
    })
  })
})
