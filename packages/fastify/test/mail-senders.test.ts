import { strict as assert } from 'node:assert'
import { describe, it } from 'node:test'
import { aligned, authenticateSender, classifyReplyToken, formatReplyToken, validMac } from '@helpdesk/core'
import { parseAuthenticationResults } from '@helpdesk/mail'
import { eachDialect } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { mailDesk, rawMail, SUPPORT, type CapturedMail, type MailDesk } from './mail-fixtures.js'
import { postComment } from './ticket-fixtures.js'

/** The receiving server the help desk trusts in these tests. */
const MX = 'mx.desk.test'

async function commentsOf (d: MailDesk, id: number): Promise<any[]> {
  return expectStatus(await d.h.inject({ method: 'GET', url: `/api/v1/tickets/${id}/comments?include=user`, token: d.admin.token }), 200).data
}

async function ticketOf (d: MailDesk, id: number): Promise<any> {
  return expectStatus(await d.h.inject({ method: 'GET', url: `/api/v1/tickets/${id}`, token: d.admin.token }), 200).data
}

async function inbound (d: MailDesk, status: string): Promise<any[]> {
  return expectStatus(await d.h.inject({ method: 'GET', url: `/api/v1/mail/inbound?status=${status}&per_page=100`, token: d.admin.token }), 200).data
}

function replyAddressOf (mail: CapturedMail): string {
  return mail.parsed.replyTo?.value[0]?.address ?? ''
}

/**
 * A ticket Carol opened by mail, the agent's answer mailed to her, and the
 * mails of both (each with the reply address minted for its recipient).
 */
async function conversation (d: MailDesk): Promise<{ ticketId: number, toCarol: CapturedMail, toAgent: CapturedMail }> {
  await d.smtp({ from: 'Carol Client <carol@customers.test>', to: SUPPORT, subject: 'Printer on fire', text: 'It is burning.' })
  const [record] = await inbound(d, 'processed')
  const ticketId = record.ticket_id as number
  await d.send()
  const toAgent = d.capture.mails.find((m) => m.envelope.to[0] === d.agent.user.email)!
  await postComment(d.h, d.agent.token, ticketId, { body: 'Which printer?' })
  await d.send()
  const toCarol = d.capture.mails.find((m) => m.envelope.to[0] === 'carol@customers.test')!
  assert.ok(toAgent !== undefined && toCarol !== undefined)
  d.capture.mails.splice(0)
  return { ticketId, toCarol, toAgent }
}

/** A raw mail with `Authentication-Results` lines on top (the first is the topmost, as a receiving server prepends it). */
async function withResults (results: string[], mail: Parameters<typeof rawMail>[0]): Promise<Buffer> {
  return Buffer.concat([Buffer.from(results.map((r) => `Authentication-Results: ${r}\r\n`).join('')), await rawMail(mail)])
}

describe('Authentication-Results and reply tokens', () => {
  it('parses RFC 8601 headers: authserv-id without its version, comments and quotes dropped, every DKIM result kept', () => {
    const parsed = parseAuthenticationResults('Authentication-Results: (our MX) MX.Desk.test 1;\r\n dkim=pass (2048-bit key) header.d="Corp.Test" header.s=sel;\r\n dkim=fail header.d=other.test; spf=pass smtp.mailfrom=Bounce@corp.test')
    assert.deepEqual(parsed, {
      authservId: 'mx.desk.test',
      results: [
        { method: 'dkim', result: 'pass', properties: { 'header.d': 'corp.test', 'header.s': 'sel' } },
        { method: 'dkim', result: 'fail', properties: { 'header.d': 'other.test' } },
        { method: 'spf', result: 'pass', properties: { 'smtp.mailfrom': 'bounce@corp.test' } }
      ]
    })
    assert.deepEqual(parseAuthenticationResults('Authentication-Results: mx.desk.test; none'), { authservId: 'mx.desk.test', results: [] })
    assert.equal(parseAuthenticationResults('Authentication-Results: '), null)
    // Keys that would poison an object are dropped by the parser.
    const poisoned = parseAuthenticationResults('Authentication-Results: mx.desk.test; __proto__=pass; constructor=pass; dkim=pass header.d=x.test')
    assert.deepEqual(poisoned?.results.map((r) => r.method), ['dkim'])
  })

  it('believes only the topmost header of a trusted authserv-id, and only an aligned pass', () => {
    const header = (authservId: string, ...results: Array<[string, string, Record<string, string>]>) =>
      ({ authservId, results: results.map(([method, result, properties]) => ({ method, result, properties })) })
    const trusted = ['mx.desk.test']
    const dkim = header('mx.desk.test', ['dkim', 'pass', { 'header.d': 'mail.corp.co.uk' }])
    assert.equal(authenticateSender('ann@corp.co.uk', [dkim], trusted).method, 'dkim')
    assert.equal(authenticateSender('ann@corp.co.uk', [dkim], []).verified, false, 'nothing is trusted by default')
    assert.equal(authenticateSender('ann@other.co.uk', [dkim], trusted).verified, false, 'co.uk is a public suffix, not an organization')
    assert.equal(authenticateSender('ann@corp.co.uk', [header('mx.evil.test', ['dkim', 'pass', { 'header.d': 'corp.co.uk' }])], trusted).verified, false)
    assert.equal(authenticateSender('ann@corp.co.uk', [header('mx.desk.test', ['dkim', 'fail', { 'header.d': 'corp.co.uk' }]), dkim], trusted).verified, false, 'a lower header is never read')
    assert.equal(authenticateSender('ann@corp.co.uk', [header('mx.desk.test', ['spf', 'pass', { 'smtp.mailfrom': 'b@bounce.corp.co.uk' }])], trusted).method, 'spf')
    assert.equal(authenticateSender('ann@corp.co.uk', [header('mx.desk.test', ['dmarc', 'pass', { 'header.from': 'corp.co.uk' }])], trusted).verified, false, 'only DKIM and SPF count')
    assert.ok(aligned('desk.test', 'DESK.test'))
    assert.ok(!aligned('desk.test', 'evildesk.test'))
  })

  it('mints tokens bound to a ticket and a recipient that no other pair, key or case change forges', () => {
    const key = { id: 3, secret: 'k'.repeat(64) }
    const token = formatReplyToken(key, 12, 34)
    assert.match(token, /^12\.34\.3\.[0-9a-f]{32}$/)
    const parsed = classifyReplyToken(token)
    assert.ok(parsed?.kind === 'bound')
    assert.ok(validMac(key, parsed.token, parsed.mac))
    assert.ok(!validMac({ ...key, secret: 'other' }, parsed.token, parsed.mac))
    assert.ok(!validMac(key, { ...parsed.token, recipientId: 35 }, parsed.mac))
    assert.ok(!validMac(key, { ...parsed.token, ticketId: 13 }, parsed.mac))
    assert.equal(classifyReplyToken(token.toUpperCase()), null, 'addresses are lowercased before they are read')
    assert.equal(classifyReplyToken('ab'.repeat(20))?.kind, 'legacy')
    assert.equal(classifyReplyToken('12.34.3.xyz'), null)
  })
})

eachDialect((dialect) => {
  describe(`mail senders are verified, not taken at their From: word (${dialect})`, () => {
    it('holds a forged staff reply (envelope attacker, From: the agent): no staff reply, no status change, nobody mailed', async (t) => {
      const d = await mailDesk(t, dialect, { trustedAuthServIds: [MX] })
      const { ticketId, toCarol } = await conversation(d)
      const before = await commentsOf(d, ticketId)
      const status = (await ticketOf(d, ticketId)).status

      // To the customer's own reply address, as if the agent answered from there.
      await d.smtp({
        envelope: { from: 'attacker@evil.test', to: [replyAddressOf(toCarol)] },
        from: `Gus Agent <${d.agent.user.email}>`, to: replyAddressOf(toCarol), subject: 'Re: Printer on fire', text: 'Send your password to attacker@evil.test.'
      })
      // To the plain support address, threading by In-Reply-To of a mail we sent.
      await d.smtp({
        envelope: { from: 'attacker@evil.test', to: [SUPPORT] },
        from: `Gus Agent <${d.agent.user.email}>`, to: SUPPORT, subject: 'Re: Printer on fire', text: 'Wire the money.', inReplyTo: toCarol.parsed.messageId!
      })
      assert.deepEqual((await commentsOf(d, ticketId)).map((c) => c.id), before.map((c) => c.id), 'no comment was posted')
      assert.equal((await ticketOf(d, ticketId)).status, status, 'the ticket did not move to Pending')
      assert.equal(await d.send(), 0, 'nothing is mailed')
      assert.equal(d.capture.mails.length, 0)
      const held = await inbound(d, 'held')
      assert.equal(held.length, 2)
      assert.ok(held.every((m) => m.ticket_id === ticketId && m.comment_id === null && m.user_id === null))
      assert.ok(held.some((m) => /not the person this reply address/.test(m.error)), JSON.stringify(held))
      assert.ok(held.some((m) => /staff never post by mail on a From: claim alone/.test(m.error)), JSON.stringify(held))

      // An administrator discards one: it stays on record, never posted.
      const discarded = expectStatus(await d.h.inject({ method: 'POST', url: `/api/v1/mail/inbound/${held[0].id}/discard`, token: d.admin.token }), 200).data
      assert.equal(discarded.status, 'ignored')
      assert.equal((await inbound(d, 'discarded')).length, 1)
      expectStatus(await d.h.inject({ method: 'POST', url: `/api/v1/mail/inbound/${held[0].id}/release`, token: d.admin.token, payload: {} }), 422)
      assert.equal((await commentsOf(d, ticketId)).length, before.length)
    })

    it('does not post customer A\'s mail to customer B\'s reply address under A\'s name, nor subscribe A', async (t) => {
      const d = await mailDesk(t, dialect)
      const { ticketId, toCarol } = await conversation(d)
      const before = (await commentsOf(d, ticketId)).length
      // Alice is a customer of the help desk; she writes to Carol's reply address.
      await d.smtp({ from: `Alice Liddell <${d.alice.user.email}>`, to: replyAddressOf(toCarol), subject: 'Re: Printer on fire', text: 'I am Carol now.' })
      assert.equal((await commentsOf(d, ticketId)).length, before)
      assert.deepEqual(await d.h.store.mail.participantIds(ticketId), [])
      const [held] = await inbound(d, 'held')
      assert.match(held.error, /not the person this reply address/)
      // The next staff reply goes to Carol only.
      await postComment(d.h, d.agent.token, ticketId, { body: 'Try turning it off.' })
      await d.send()
      assert.deepEqual(d.capture.mails.map((m) => m.envelope.to[0]), ['carol@customers.test'])

      // A stranger's [#id] tag is a ticket of their own; an In-Reply-To from them is held, not posted.
      await d.smtp({ from: 'mallory@evil.test', to: SUPPORT, subject: 'Re: x', text: 'Let me in.', references: [toCarol.parsed.messageId!] })
      assert.equal((await commentsOf(d, ticketId)).length, before + 1)
      assert.equal(await d.h.store.users.findByEmail('mallory@evil.test'), null)
      assert.equal((await inbound(d, 'held')).length, 2)
    })

    it('posts a genuine customer reply to her own reply address, and a reply by an old per-ticket address from the owner', async (t) => {
      const d = await mailDesk(t, dialect)
      const { ticketId, toCarol } = await conversation(d)
      const carol = await d.h.store.users.findByEmail('carol@customers.test')
      const result = await d.post({ from: 'CAROL@Customers.test', to: replyAddressOf(toCarol).toUpperCase(), subject: 'Re', text: 'The big one.' })
      assert.equal(result.status, 'replied', JSON.stringify(result))
      const last = (await commentsOf(d, ticketId)).at(-1)
      assert.equal(last.user_id, carol?.id)
      assert.equal(last.body, '<p>The big one.</p>')
      assert.equal((await ticketOf(d, ticketId)).status, 1, 'back to Open')

      // Mails sent before this release carried support+<per-ticket token>: they still thread, naming no one.
      const thread = await d.h.store.mail.findThread(ticketId)
      const legacy = `support+${thread!.reply_token}@desk.test`
      assert.equal((await d.post({ from: 'carol@customers.test', to: legacy, subject: 'Re', text: 'Old address.' })).status, 'replied')
      const byAgent = await d.post({ from: d.agent.user.email, to: legacy, subject: 'Re', text: 'Agent by old address.' })
      assert.equal(byAgent.status, 'held')
      assert.match(byAgent.reason ?? '', /old per-ticket reply address/)
    })

    it('posts a staff reply to the agent\'s own reply address only with a trusted, aligned DKIM or SPF pass', async (t) => {
      const d = await mailDesk(t, dialect, { trustedAuthServIds: [MX, 'mx2.desk.test'] })
      const { ticketId, toAgent } = await conversation(d)
      const agentAddress = d.agent.user.email
      const domain = agentAddress.slice(agentAddress.indexOf('@') + 1)
      const address = replyAddressOf(toAgent)
      assert.match(address, new RegExp(`^support\\+${ticketId}\\.${d.agent.user.id}\\.\\d+\\.[0-9a-f]{32}@desk\\.test$`))
      const reply = (text: string, results: string[], from = agentAddress): Promise<Buffer> =>
        withResults(results, { from, to: address, subject: 'Re: Printer on fire', text })
      const count = async (): Promise<number> => (await commentsOf(d, ticketId)).length
      const before = await count()

      // Untrusted authserv-id: a pass written by anyone else is not read.
      assert.equal((await d.post(await reply('Untrusted.', [`mx.evil.test; dkim=pass header.d=${domain}`]))).status, 'held')
      // Trusted server, but the DKIM domain is not aligned with From:.
      const misaligned = await d.post(await reply('Misaligned.', [`${MX}; dkim=pass header.d=evil.test; spf=pass smtp.mailfrom=bounce@evil.test`]))
      assert.equal(misaligned.status, 'held')
      assert.match(misaligned.reason ?? '', /no DKIM or SPF pass aligned/)
      // Trusted server says fail; a forged "pass" with the trusted id further down (written by the sender) is not read.
      assert.equal((await d.post(await reply('Forged below.', [`${MX}; dkim=fail header.d=${domain}; spf=softfail`, `${MX}; dkim=pass header.d=${domain}`]))).status, 'held')
      // No Authentication-Results at all.
      assert.equal((await d.post({ from: agentAddress, to: address, subject: 'Re', text: 'Bare.' })).status, 'held')
      assert.equal(await count(), before)
      assert.equal(await d.send(), 0)

      // Trusted and aligned (relaxed: a subdomain signs for the organizational domain): posted as the agent.
      const posted = await d.post(await reply('Use the extinguisher.', [`${MX}; dkim=pass (2048-bit key) header.d=mail.${domain} header.s=sel; spf=none`]))
      assert.equal(posted.status, 'replied', JSON.stringify(posted))
      const last = (await commentsOf(d, ticketId)).at(-1)
      assert.equal(last.user_id, d.agent.user.id)
      assert.equal((await ticketOf(d, ticketId)).status, 2, 'a staff reply moves the ticket to Pending')
      await d.send()
      assert.deepEqual(d.capture.mails.map((m) => m.envelope.to[0]), ['carol@customers.test'])
      // SPF alone, aligned, from the second trusted server.
      assert.equal((await d.post(await reply('SPF.', [`mx2.desk.test 1; spf=pass smtp.mailfrom=bounces@${domain}`]))).status, 'replied')
      // The agent's From: on Carol's address is still not the agent's reply, however well authenticated.
      const toCarol = d.capture.mails[0]!
      const crossed = await d.post(await withResults([`${MX}; dkim=pass header.d=${domain}`], { from: agentAddress, to: replyAddressOf(toCarol), subject: 'Re', text: 'Crossed.' }))
      assert.equal(crossed.status, 'held')

      // A held staff reply is released by an administrator as the agent they confirm.
      const [held] = await inbound(d, 'held')
      const released = expectStatus(await d.h.inject({ method: 'POST', url: `/api/v1/mail/inbound/${held.id}/release`, token: d.admin.token, payload: { user_id: d.agent.user.id } }), 200).data
      assert.equal(released.status, 'replied')
      assert.equal((await commentsOf(d, ticketId)).at(-1).user_id, d.agent.user.id)
    })

    it('refuses at RCPT TO a well-formed reply address that names no ticket, a forged MAC and a retired key (550)', async (t) => {
      const d = await mailDesk(t, dialect)
      const { ticketId, toCarol } = await conversation(d)
      const carol = await d.h.store.users.findByEmail('carol@customers.test')
      const [key] = await d.h.store.mail.replyKeys()
      assert.ok(key !== undefined && carol !== null)
      const refused = async (to: string): Promise<void> => {
        await assert.rejects(d.smtp({ from: 'carol@customers.test', to, subject: 'Re', text: 'x' }), (error: any) => {
          assert.equal(error.responseCode, 550, String(error))
          return true
        })
      }
      const countRecords = async (): Promise<number> => expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound', token: d.admin.token }), 200).meta.total
      const recorded = await countRecords()
      await refused(`support+${formatReplyToken(key, 999_999, carol.id)}@desk.test`)
      await refused(`support+${ticketId}.${carol.id}.${key.id}.${'0'.repeat(32)}@desk.test`)
      await refused(`support+${'ab'.repeat(20)}@desk.test`)
      assert.equal(await countRecords(), recorded, 'nothing was recorded: the sender is told at once')

      // Rotation: the old key still verifies, until it is retired.
      const rotated = await d.h.helpdesk.mail.rotateReplyKey()
      await d.smtp({ from: 'carol@customers.test', to: replyAddressOf(toCarol), subject: 'Re', text: 'Still works.' })
      await postComment(d.h, d.agent.token, ticketId, { body: 'New key.' })
      await d.send()
      const newer = d.capture.mails.find((m) => m.envelope.to[0] === 'carol@customers.test')!
      assert.match(replyAddressOf(newer), new RegExp(`\\.${rotated.id}\\.[0-9a-f]{32}@`))
      await d.h.helpdesk.mail.rotateReplyKey({ retireOlder: true })
      await refused(replyAddressOf(toCarol))
      await refused(replyAddressOf(newer))
      // A deleted ticket's addresses are refused too.
      await postComment(d.h, d.agent.token, ticketId, { body: 'Newest key.' })
      d.capture.mails.splice(0)
      await d.send()
      const newest = replyAddressOf(d.capture.mails[0]!)
      await d.smtp({ from: 'carol@customers.test', to: newest, subject: 'Re', text: 'Newest.' })
      expectStatus(await d.h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticketId}`, token: d.admin.token }), 200)
      await refused(newest)
    })

    it('makes the name of a customer created from mail plain text, as registration does', async (t) => {
      const d = await mailDesk(t, dialect)
      await d.smtp({ from: '"<img src=x onerror=alert(1)>" <x@customers.test>', to: SUPPORT, subject: 'Hi', text: 'x' })
      await d.smtp({ from: '"Ann <b>Bold</b> Lee" <ann@customers.test>', to: SUPPORT, subject: 'Hi', text: 'x' })
      await d.smtp({ from: '"Zed &lt;script&gt; Z" <zed@customers.test>', to: SUPPORT, subject: 'Hi', text: 'x' })
      const x = await d.h.store.users.findByEmail('x@customers.test')
      // Names are text, as typed (issue 35): nothing stripped, `<` and `>` escaped, never markup.
      assert.deepEqual([x?.first_name, x?.last_name], ['&lt;img', 'src=x onerror=alert(1)&gt;'])
      const ann = await d.h.store.users.findByEmail('ann@customers.test')
      assert.deepEqual([ann?.first_name, ann?.last_name], ['Ann', '&lt;b&gt;Bold&lt;/b&gt; Lee'])
      const zed = await d.h.store.users.findByEmail('zed@customers.test')
      assert.ok(!/[<>]/.test(`${zed?.first_name} ${zed?.last_name}`), `${zed?.first_name} ${zed?.last_name}`)
    })
  })
})
