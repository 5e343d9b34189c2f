import { strict as assert } from 'node:assert'
import { describe, it } from 'node:test'
import { jobQuery } from '@helpdesk/core'
import { eachDialect } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { mailDesk, rawMail, SALES, SUPPORT, type MailDesk } from './mail-fixtures.js'
import { multipart, postComment, postTicket } from './ticket-fixtures.js'

async function ticketOf (d: MailDesk, id: number): Promise<any> {
  return expectStatus(await d.h.inject({ method: 'GET', url: `/api/v1/tickets/${id}?include=user,attachments`, token: d.admin.token }), 200).data
}

async function commentsOf (d: MailDesk, id: number): Promise<any[]> {
  return expectStatus(await d.h.inject({ method: 'GET', url: `/api/v1/tickets/${id}/comments?include=user`, token: d.admin.token }), 200).data
}

async function ticketCount (d: MailDesk): Promise<number> {
  return expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/tickets', token: d.admin.token }), 200).meta.total
}

/** A new ticket from a new sender through the SMTP listener; returns its id and the sender's Message-ID. */
async function newTicketByMail (d: MailDesk, from = 'carol@customers.test'): Promise<{ ticketId: number, messageId: string }> {
  const messageId = `<first.${Math.random().toString(36).slice(2)}@customers.test>`
  await d.smtp({ from: `Carol Client <${from}>`, to: SUPPORT, subject: 'Printer on fire', text: 'It is burning.', messageId })
  const inbound = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound', token: d.admin.token }), 200).data
  const record = inbound.find((m: any) => m.message_id === messageId)
  assert.equal(record?.status, 'processed', JSON.stringify(record))
  return { ticketId: record.ticket_id, messageId }
}

eachDialect((dialect) => {
  describe(`mail (${dialect})`, () => {
    it('sends a staff reply to the customer by the job runner, threaded for mail clients, and never a note', async (t) => {
      const d = await mailDesk(t, dialect)
      const { ticketId, messageId } = await newTicketByMail(d)
      const ticket = await ticketOf(d, ticketId)
      assert.equal(ticket.category_id, 1)
      assert.equal(ticket.user.email, 'carol@customers.test')
      assert.equal((await d.h.store.users.findByEmail('carol@customers.test'))?.status, 2, 'an unknown sender becomes an unconfirmed customer')
      await d.send()
      // The new ticket went to the administrator and the category's agent, not to the customer.
      const newTicketMails = d.capture.mails.splice(0)
      assert.deepEqual(newTicketMails.map((m) => m.envelope.to[0]).sort(), [d.admin.user.email, d.agent.user.email].sort())
      assert.equal(newTicketMails[0]?.parsed.subject, `[#${ticketId}] Printer on fire`)
      // Staff get the staff view of the ticket.
      assert.ok(newTicketMails.every((m) => (m.parsed.text ?? '').includes(`https://help.desk.test/tickets/${ticketId}\n`)))

      await postComment(d.h, d.agent.token, ticketId, { body: '<p>Private thought</p>', type: 2 })
      await postComment(d.h, d.agent.token, ticketId, { body: '<p>Use the <b>extinguisher</b>.</p>' })
      assert.equal(d.capture.mails.length, 0, 'nothing is sent inside the request')
      await d.send()
      assert.equal(d.capture.mails.length, 1, 'one mail: the reply to the customer; the note goes nowhere')
      const mail = d.capture.mails[0]!
      assert.deepEqual(mail.envelope.to, ['carol@customers.test'])
      assert.equal(mail.parsed.subject, `Re: [#${ticketId}] Printer on fire`)
      assert.match(mail.parsed.messageId ?? '', /^<hd\.\d+\.c\d+\.[0-9a-f]+@desk\.test>$/)
      const references = [mail.parsed.references ?? []].flat()
      assert.ok(references.includes(messageId), 'References carry the customer\'s own first mail')
      assert.equal(mail.parsed.inReplyTo, references[references.length - 1])
      assert.equal(mail.header('auto-submitted'), 'auto-generated')
      assert.equal(mail.header('thread-topic'), 'Printer on fire')
      assert.ok((mail.header('thread-index') ?? '').length >= 30)
      assert.match(mail.header('list-unsubscribe') ?? '', /^<https:\/\/help\.desk\.test\/api\/v1\/mail\/unsubscribe\/[0-9a-f]{40}>$/)
      assert.equal(mail.header('list-unsubscribe-post'), 'List-Unsubscribe=One-Click')
      const replyTo = (mail.parsed.replyTo?.value[0]?.address ?? '')
      // Bound to this ticket and this recipient: support+<ticket>.<recipient>.<key>.<mac>.
      const carol = await d.h.store.users.findByEmail('carol@customers.test')
      assert.match(replyTo, new RegExp(`^support\\+${ticketId}\\.${carol?.id}\\.\\d+\\.[0-9a-f]{32}@desk\\.test$`))
      // The link is the ticket's page in the console (the portal, for a customer), not the API's JSON.
      assert.ok((mail.parsed.text ?? '').includes(`https://help.desk.test/portal/tickets/${ticketId}\n`), mail.parsed.text)
      assert.doesNotMatch(`${mail.parsed.text}${String(mail.parsed.html)}`, /\/api\/v1\/tickets\//)
      assert.match(mail.parsed.text ?? '', /Please type your reply above this line/)
      assert.match(mail.parsed.text ?? '', /Use the extinguisher\./)
      assert.match(String(mail.parsed.html), /<b>extinguisher<\/b>/)

      const sent = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/messages?status=sent', token: d.admin.token }), 200)
      assert.equal(sent.meta.total, 3)
      // The contract's paged shape (§5): links keep the other parameters.
      assert.equal(sent.meta.last_page, 1)
      assert.match(sent.links.first, /\/api\/v1\/mail\/messages\?status=sent&page=1$/)
      assert.equal(sent.links.next, null)
      assert.equal(sent.data[0].recipient, 'carol@customers.test')
      assert.equal(sent.data[0].attempts, 1)
      expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/messages', token: d.agent.token }), 403)

      // One click and the customer gets no more ticket mail.
      const unsubscribe = /\/mail\/unsubscribe\/([0-9a-f]{40})/.exec(mail.header('list-unsubscribe') ?? '')?.[1]
      expectStatus(await d.h.inject({
        method: 'POST', url: `/api/v1/mail/unsubscribe/${unsubscribe}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click'
      }), 200)
      await postComment(d.h, d.agent.token, ticketId, { body: 'Another answer.' })
      await d.send()
      assert.equal(d.capture.mails.length, 1)
    })

    it('retries a mail the SMTP server refused, with the error recorded, until it is sent', async (t) => {
      const d = await mailDesk(t, dialect)
      const ticket = await postTicket(d.h, d.alice.token, { category: 1, title: 'Refund' })
      d.capture.refuse(true)
      await d.send()
      const failed = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/messages?status=failed', token: d.admin.token }), 200).data
      assert.equal(failed.length, 2)
      assert.match(failed[0].error, /451|busy/i)
      d.capture.refuse(false)
      const jobs = (await d.h.store.jobs.list(jobQuery({ type: 'mail.send', perPage: 100 }))).items
      for (const job of jobs) await d.h.store.jobs.retry(job.id)
      await d.send()
      const sent = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/messages?status=sent', token: d.admin.token }), 200).data
      assert.equal(sent.length, 2)
      assert.equal(sent[0].attempts, 2)
      assert.equal(d.capture.mails.filter((m) => m.parsed.subject === `[#${ticket.id}] Refund`).length, 2)
    })

    it('threads a reply by the reply address, by In-Reply-To/References, and by a [#id] tag only from the owner', async (t) => {
      const d = await mailDesk(t, dialect)
      const { ticketId, messageId } = await newTicketByMail(d)
      await postComment(d.h, d.agent.token, ticketId, { body: 'Which printer?' })
      await d.send()
      const ours = d.capture.mails.find((m) => m.envelope.to[0] === 'carol@customers.test')!
      const replyAddress = ours.parsed.replyTo!.value[0]!.address!

      // 1. The reply address alone (no threading headers, another subject), with quoted history and a signature.
      await d.smtp({
        from: 'carol@customers.test', to: replyAddress, subject: 'whatever',
        text: 'The big one.\n\n-- \nCarol\n\nOn Mon, 1 Jan 2026, Help Desk wrote:\n> ##- Please type your reply above this line -##\n> Which printer?'
      })
      // 2. In-Reply-To our mail, sent to the plain support address.
      await d.smtp({ from: 'carol@customers.test', to: SUPPORT, subject: 'Re: fire', text: 'Still burning.', inReplyTo: ours.parsed.messageId! })
      // 3. References to her own first mail only.
      await d.smtp({ from: 'carol@customers.test', to: SUPPORT, subject: 'more', text: 'And smoking.', references: [messageId] })
      // 4. The [#id] tag from the owner.
      await d.smtp({ from: 'carol@customers.test', to: SUPPORT, subject: `Update [#${ticketId}]`, text: 'Now it is out.' })
      const comments = await commentsOf(d, ticketId)
      const bodies = comments.filter((c) => c.user_id !== d.agent.user.id).map((c) => c.body)
      assert.deepEqual(bodies, ['<p>The big one.</p>', '<p>Still burning.</p>', '<p>And smoking.</p>', '<p>Now it is out.</p>'])

      // The same tag from someone else is a new ticket, not a reply to a stranger's ticket.
      const before = await ticketCount(d)
      await d.smtp({ from: 'mallory@evil.test', to: SUPPORT, subject: `Re: [#${ticketId}] Printer on fire`, text: 'Let me in.' })
      assert.equal(await ticketCount(d), before + 1)
      assert.equal((await commentsOf(d, ticketId)).length, comments.length)

      // An unrelated new mail from the same sender, with the same subject and body, is a new ticket.
      await d.smtp({ from: 'carol@customers.test', to: SUPPORT, subject: 'Printer on fire', text: 'It is burning.' })
      assert.equal(await ticketCount(d), before + 2)

      // The original stays available to administrators.
      const records = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound?per_page=100', token: d.admin.token }), 200).data
      const first = records.find((r: any) => r.subject === 'whatever')
      const raw = await d.h.inject({ method: 'GET', url: `/api/v1/mail/inbound/${first.id}/raw`, token: d.admin.token })
      assert.equal(raw.statusCode, 200)
      assert.match(raw.body, /^> Which printer\?/m)
    })

    it('counts a mail delivered twice, or sent to two of our addresses, once', async (t) => {
      const d = await mailDesk(t, dialect)
      const mail = { from: 'dave@customers.test', to: [SUPPORT, SALES], subject: 'Twice', text: 'Once please.', messageId: '<twice.1@customers.test>' }
      await d.smtp(mail)
      const again = await d.post(mail)
      assert.equal(again.status, 'duplicate')
      await d.smtp({ ...mail, to: SALES })
      assert.equal(await ticketCount(d), 1)
      const records = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound', token: d.admin.token }), 200)
      assert.equal(records.meta.total, 1)
    })

    it('ignores auto-replies, bounces, our own mail and mail from our addresses, and keeps them', async (t) => {
      const d = await mailDesk(t, dialect)
      const { ticketId } = await newTicketByMail(d)
      await postComment(d.h, d.agent.token, ticketId, { body: 'Hello.' })
      await d.send()
      const ours = d.capture.mails.find((m) => m.envelope.to[0] === 'carol@customers.test')!
      const replyAddress = ours.parsed.replyTo!.value[0]!.address!
      const before = (await commentsOf(d, ticketId)).length

      const outOfOffice = await d.post({ from: 'carol@customers.test', to: replyAddress, subject: 'Out of office', text: 'Away.', headers: { 'Auto-Submitted': 'auto-replied' } })
      assert.equal(outOfOffice.status, 'ignored')
      assert.equal((await d.post({ from: 'carol@customers.test', to: replyAddress, subject: 'Away', text: 'Away.', headers: { 'X-Autoreply': 'yes' } })).status, 'ignored')
      assert.equal((await d.post({ from: 'carol@customers.test', to: replyAddress, subject: 'News', text: 'Bulk.', headers: { Precedence: 'bulk' } })).status, 'ignored')
      assert.equal((await d.post({ from: 'MAILER-DAEMON@mx.customers.test', to: replyAddress, subject: 'Undelivered', text: 'Bounce.' })).status, 'ignored')
      // Our own notification coming back (a Sent folder, a forwarding loop).
      const loop = await d.post(ours.raw)
      assert.equal(loop.status, 'ignored')
      assert.match(loop.reason ?? '', /our own/i)
      assert.equal((await d.post({ from: SUPPORT, to: replyAddress, subject: 'Loop', text: 'Me again.' })).status, 'ignored')
      // A bounce through SMTP: the null sender.
      await d.smtp({ envelope: { from: '', to: [replyAddress] }, from: 'carol@customers.test', to: replyAddress, subject: 'Bounce', text: 'x' } as any)
      assert.equal((await commentsOf(d, ticketId)).length, before)
      const ignored = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound?status=ignored', token: d.admin.token }), 200)
      assert.equal(ignored.meta.total, 7)
      assert.ok(ignored.data.every((r: any) => typeof r.error === 'string' && r.error !== ''))
    })

    it('holds a reply from someone Cc\'d on the first mail until an administrator releases it; then they are a participant, not a new owner', async (t) => {
      const d = await mailDesk(t, dialect)
      const first = '<cc.first@customers.test>'
      await d.smtp({ from: 'erin@customers.test', to: SUPPORT, cc: 'frank@partners.test', subject: 'Contract', text: 'See Frank.', messageId: first })
      assert.equal(await ticketCount(d), 1)
      await d.send()
      d.capture.mails.splice(0)
      // Frank answers Erin's original mail (reply-all): he never saw our reply address, and his From: is only a claim.
      await d.smtp({ from: 'Frank Partner <frank@partners.test>', to: ['erin@customers.test', SUPPORT], subject: 'Re: Contract', text: 'Agreed.', inReplyTo: first, references: [first] })
      assert.equal(await ticketCount(d), 1)
      const tickets = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/tickets?include=user', token: d.admin.token }), 200).data
      const ticket = tickets[0]
      assert.equal(ticket.user.email, 'erin@customers.test')
      assert.equal((await commentsOf(d, ticket.id)).length, 0, 'held, not posted')
      assert.equal(await d.h.store.users.findByEmail('frank@partners.test'), null, 'no account is made for a held sender')
      assert.equal(await d.send(), 0, 'nobody is mailed about a held mail')
      const [held] = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound?status=held', token: d.admin.token }), 200).data
      assert.equal(held.ticket_id, ticket.id)
      assert.equal(held.user_id, null)
      assert.match(held.error, /neither its owner nor a participant/)

      // An agent may not release it; an administrator may, once.
      expectStatus(await d.h.inject({ method: 'POST', url: `/api/v1/mail/inbound/${held.id}/release`, token: d.agent.token, payload: {} }), 403)
      const released = expectStatus(await d.h.inject({ method: 'POST', url: `/api/v1/mail/inbound/${held.id}/release`, token: d.admin.token, payload: {} }), 200).data
      assert.equal(released.status, 'replied')
      expectStatus(await d.h.inject({ method: 'POST', url: `/api/v1/mail/inbound/${held.id}/release`, token: d.admin.token, payload: {} }), 422)
      const comments = await commentsOf(d, ticket.id)
      assert.equal(comments.length, 1)
      assert.equal(comments[0].user.email, 'frank@partners.test')
      assert.equal(comments[0].user.first_name, 'Frank')
      // The released reply is mailed like any customer reply (to staff), and a staff reply now reaches both.
      await d.send()
      d.capture.mails.splice(0)
      await postComment(d.h, d.agent.token, ticket.id, { body: 'Signed.' })
      await d.send()
      assert.deepEqual(d.capture.mails.map((m) => m.envelope.to[0]).sort(), ['erin@customers.test', 'frank@partners.test'])
      // Frank's next reply comes to the address minted for him: posted at once.
      const toFrank = d.capture.mails.find((m) => m.envelope.to[0] === 'frank@partners.test')!
      await d.smtp({ from: 'frank@partners.test', to: toFrank.parsed.replyTo!.value[0]!.address!, subject: 'Re: Contract', text: 'Thanks.' })
      assert.equal((await commentsOf(d, ticket.id)).length, 3)
    })

    it('sends a reply\'s attachments with it, and links to those past the size limit', async (t) => {
      const d = await mailDesk(t, dialect, { maxAttachmentBytes: 1000 })
      const ticket = await postTicket(d.h, d.alice.token, { category: 1, title: 'Invoice' })
      const upload = async (content: Buffer, name: string): Promise<string> => {
        const body = multipart(content, name, 'text/plain')
        return expectStatus(await d.h.inject({ method: 'POST', url: '/api/v1/attachments', token: d.agent.token, payload: body.payload, headers: body.headers }), 201).data.id
      }
      const small = await upload(Buffer.from('line items\n'), 'invoice.txt')
      const large = await upload(Buffer.alloc(5000, 'x'), 'ledger.txt')
      await postComment(d.h, d.agent.token, ticket.id, { body: 'Attached.', attachments: [small, large] })
      await d.send()
      const mail = d.capture.mails.find((m) => m.envelope.to[0] === d.alice.user.email && m.parsed.subject?.startsWith('Re:') === true)!
      assert.deepEqual(mail.parsed.attachments.map((a) => a.filename), ['invoice.txt'])
      assert.equal(mail.parsed.attachments[0]?.content.toString(), 'line items\n')
      assert.ok((mail.parsed.text ?? '').includes(`ledger.txt: https://help.desk.test/api/v1/attachments/${large}/download`))
    })

    it('stores attachments like uploads and sanitises HTML mail', async (t) => {
      const d = await mailDesk(t, dialect)
      const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000a49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex')
      await d.smtp({
        from: 'gina@customers.test', to: SUPPORT, subject: 'Screenshot',
        html: '<p onclick="steal()">Look <script>alert(1)</script><a href="javascript:alert(2)">here</a></p>',
        attachments: [{ filename: 'shot.txt', content: png, contentType: 'text/plain' }]
      })
      const [ticket] = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/tickets?include=attachments', token: d.admin.token }), 200).data
      assert.doesNotMatch(ticket.body, /script|onclick|javascript/i)
      assert.match(ticket.body, /Look/)
      assert.equal(ticket.attachments.length, 1)
      assert.equal(ticket.attachments[0].name, 'shot.txt')
      assert.equal(ticket.attachments[0].mime_type, 'image/png', 'the type is sniffed from the bytes, not the mail\'s claim')
    })

    it('accepts only our recipients on SMTP, guards the HTTP door, and keeps what it cannot process', async (t) => {
      const d = await mailDesk(t, dialect)
      await assert.rejects(d.smtp({ from: 'x@customers.test', to: 'someone@elsewhere.test', subject: 'Relay?', text: 'x' }), /550|recipient/i)
      const raw = await rawMail({ from: 'x@customers.test', to: SUPPORT, subject: 'Hi', text: 'x' })
      expectStatus(await d.h.inject({ method: 'POST', url: '/api/v1/mail/inbound', headers: { 'content-type': 'message/rfc822' }, payload: raw }), 401)
      expectStatus(await d.h.inject({ method: 'POST', url: '/api/v1/mail/inbound', token: d.alice.token, headers: { 'content-type': 'message/rfc822' }, payload: raw }), 403)
      const bySecret = expectStatus(await d.h.inject({
        method: 'POST', url: '/api/v1/mail/inbound', headers: { 'content-type': 'message/rfc822', 'x-helpdesk-inbound-secret': 'webhook-secret' }, payload: raw
      }), 200).data
      assert.equal(bySecret.status, 'created')
      // Not for any address of ours and threading into nothing: kept, with the reason.
      const stray = await d.post({ from: 'y@customers.test', to: 'other@desk.test', subject: 'Stray', text: 'x' })
      assert.equal(stray.status, 'failed')
      const failed = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound?status=failed', token: d.admin.token }), 200).data
      assert.equal(failed.length, 1)
      assert.match(failed[0].error, /category/)
    })

    it('keeps mail past the per-sender rate limit unprocessed', async (t) => {
      const d = await mailDesk(t, dialect, { rateLimitPerHour: 2 })
      for (let i = 0; i < 3; i++) await d.smtp({ from: 'spam@customers.test', to: SUPPORT, subject: `Buy ${i}`, text: 'now' })
      assert.equal(await ticketCount(d), 2)
      const failed = expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound?status=failed', token: d.admin.token }), 200).data
      assert.match(failed[0].error, /within an hour/)
    })
  })
})
