import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, it } from 'node:test'
import { parseSatisfactionToken, WEBHOOK_EVENT_TYPES } from '@helpdesk/core'
import { buildApp, eachDialect, manualClock, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { mailDesk } from './mail-fixtures.js'
import { notificationsOf } from './notification-fixtures.js'
import { desk, postComment, postTicket, type Desk } from './ticket-fixtures.js'

type Person = Desk['alice']

/** A ticket of Alice's in billing, assigned to the billing agent, closed by the agent's reply. */
async function closedTicket (h: TestApp, d: Desk, options: { private?: boolean } = {}): Promise<number> {
  const ticket = await postTicket(h, d.alice.token, { category: d.billing, private: options.private ?? true })
  expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id as number}/agents`, token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)
  await postComment(h, d.agent.token, ticket.id, { body: 'Fixed it.', close: true })
  return ticket.id
}

async function rate (h: TestApp, person: Person, ticketId: number, payload: Record<string, unknown>) {
  return await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticketId}/satisfaction`, token: person.token, payload })
}

async function survey (h: TestApp, person: Person, ticketId: number) {
  return await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticketId}/satisfaction`, token: person.token })
}

async function linkView (h: TestApp, token: string) {
  return await h.inject({ method: 'POST', url: '/api/v1/satisfaction/link', payload: { token } })
}

async function linkRate (h: TestApp, token: string, payload: Record<string, unknown>) {
  return await h.inject({ method: 'PUT', url: '/api/v1/satisfaction/link', payload: { token, ...payload } })
}

/** The link token the closing mail of `ticketId` carries now (as the mail composer mints it). */
async function tokenOf (h: TestApp, ticketId: number): Promise<string> {
  const ticket = await h.store.tickets.findById(ticketId)
  assert.ok(ticket !== null)
  const link = await h.helpdesk.satisfaction.linkToken(ticket)
  assert.ok(link !== null, 'a closed ticket has a link to rate it')
  return link.token
}

eachDialect((dialect) => {
  describe(`customer satisfaction (${dialect})`, () => {
    it('lets the owner rate a closed ticket from the portal, change it until it reopens, and rate the next closing anew', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const id = await closedTicket(h, d)

      const before = expectStatus(await survey(h, d.alice, id), 200).data
      assert.deepEqual([before.resolution, before.can_rate, before.reason, before.rating, before.ratings], [1, true, null, null, []])
      assert.equal(before.survey.question, 'How would you rate the support you received?')

      const first = expectStatus(await rate(h, d.alice, id, { rating: 'good' }), 200).data
      assert.deepEqual([first.ticket_id, first.resolution, first.rating, first.comment, first.user_id, first.agent_id, first.category_id, first.channel],
        [id, 1, 'good', null, d.alice.user.id, d.agent.user.id, d.billing, 'api'])
      const changed = expectStatus(await rate(h, d.alice, id, { rating: 'bad', comment: '  Took <b>a week</b>.  ' }), 200).data
      assert.deepEqual([changed.rating, changed.comment, changed.created_at], ['bad', 'Took &lt;b&gt;a week&lt;/b&gt;.', first.created_at])
      // An absent comment keeps it; null removes it.
      assert.equal(expectStatus(await rate(h, d.alice, id, { rating: 'good' }), 200).data.comment, 'Took &lt;b&gt;a week&lt;/b&gt;.')
      assert.equal(expectStatus(await rate(h, d.alice, id, { rating: 'good', comment: null }), 200).data.comment, null)

      // Staff see it on the ticket and may not rate; a reply reopens the ticket and freezes the rating.
      const staffView = expectStatus(await survey(h, d.agent, id), 200).data
      assert.deepEqual([staffView.can_rate, staffView.reason, staffView.rating.rating], [false, 'not-owner', 'good'])
      expectError(await rate(h, d.agent, id, { rating: 'bad' }), 403)
      await postComment(h, d.alice.token, id, { body: 'Wait, it broke again.' })
      const reopened = expectStatus(await survey(h, d.alice, id), 200).data
      assert.deepEqual([reopened.resolution, reopened.can_rate, reopened.reason, reopened.rating, reopened.ratings.length], [null, false, 'not-closed', null, 1])
      assert.match(expectError(await rate(h, d.alice, id, { rating: 'bad' }), 403).message, /not closed/)

      // Closed again by a status change: a second resolution, rated on its own.
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${id}`, token: d.agent.token, payload: { status: 3 } }), 200)
      const second = expectStatus(await rate(h, d.alice, id, { rating: 'bad', comment: 'Twice now.' }), 200).data
      assert.equal(second.resolution, 2)
      const both = expectStatus(await survey(h, d.alice, id), 200).data
      assert.deepEqual(both.ratings.map((r: any) => [r.resolution, r.rating]), [[2, 'bad'], [1, 'good']])
    })

    it('shows the latest rating on the ticket to its owner and staff only, in a fixed number of queries per page', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const id = await closedTicket(h, d, { private: false })
      const unrated = await closedTicket(h, d, { private: false })
      expectStatus(await rate(h, d.alice, id, { rating: 'good', comment: 'Thanks!' }), 200)
      const view = async (person: Person, ticketId: number) =>
        expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticketId}?include=satisfaction`, token: person.token }), 200).data
      assert.equal((await view(d.alice, id)).satisfaction.comment, 'Thanks!')
      assert.equal((await view(d.agent, id)).satisfaction.rating, 'good')
      assert.equal((await view(d.alice, unrated)).satisfaction, null)
      // Bob reads Alice's public ticket, but not what she thought of the help she got.
      assert.equal((await view(d.bob, id)).satisfaction, null)
      expectError(await survey(h, d.bob, id), 403)
      expectError(await rate(h, d.bob, id, { rating: 'bad' }), 403)

      const list = async () => await h.countQueries(async () => await h.inject({ method: 'GET', url: '/api/v1/tickets?include=satisfaction', token: d.admin.token }))
      const few = await list()
      for (let i = 0; i < 5; i++) expectStatus(await rate(h, d.alice, await closedTicket(h, d), { rating: i % 2 === 0 ? 'good' : 'bad' }), 200)
      const many = await list()
      assert.equal(expectStatus(many.result, 200).data.filter((ticket: any) => ticket.satisfaction !== null).length, 6)
      assert.equal(many.queries, few.queries, 'one query for the include, whatever the page')
    })

    it('checks the input: the rating, the comment\'s length', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const id = await closedTicket(h, d)
      expectValidation(await rate(h, d.alice, id, { rating: 'meh' }), 'rating')
      expectValidation(await rate(h, d.alice, id, { rating: 'good', comment: 'x'.repeat(2001) }), 'comment')
      expectValidation(await rate(h, d.alice, id, {}), 'rating')
      assert.equal((await h.store.satisfaction.latest(id))?.rating, null, 'nothing written')
    })

    it('rates from the signed link of the closing mail, which shows the choice first and changes nothing until confirmed', async (t) => {
      const m = await mailDesk(t, dialect)
      const { h } = m
      const id = await closedTicket(h, m)
      await m.send()
      const mail = m.capture.mails.find((x) => x.envelope.to.includes(m.alice.user.email) && /closed/.test(x.parsed.text ?? ''))
      assert.ok(mail !== undefined, 'the closing mail went to the owner')
      const text = mail.parsed.text ?? ''
      assert.match(text, /How would you rate the support you received\?/)
      const good = /Good, I'm satisfied: (https:\/\/help\.desk\.test\/satisfaction#token=([\w.]+)&rating=good)/.exec(text)
      const bad = /Bad, I'm unsatisfied: (https:\/\/help\.desk\.test\/satisfaction#token=([\w.]+)&rating=bad)/.exec(text)
      assert.ok(good !== null && bad !== null, text)
      assert.equal(good[2], bad[2], 'one token, the choice in the link')
      const html = String(mail.parsed.html)
      const href = (url: string) => `href="${url.replace('&', '&amp;')}"`
      assert.ok(html.includes(href(good[1] as string)) && html.includes(href(bad[1] as string)), `both links in the HTML part: ${html}`)
      const token = good[2] as string
      assert.deepEqual(parseSatisfactionToken(token)?.token.ticketId, id)

      const shown = expectStatus(await linkView(h, token), 200).data
      assert.deepEqual([shown.ticket.id, shown.resolution, shown.can_rate, shown.rating], [id, 1, true, null])
      assert.equal((await h.store.satisfaction.latest(id))?.rating, null, 'looking at the link rates nothing')

      const rated = expectStatus(await linkRate(h, token, { rating: 'bad', comment: 'Slow.' }), 200).data
      assert.deepEqual([rated.rating, rated.comment, rated.channel, rated.user_id], ['bad', 'Slow.', 'mail', m.alice.user.id])
      // The same link changes it while the ticket stays closed, as the portal does.
      expectStatus(await linkRate(h, token, { rating: 'good' }), 200)
      assert.equal(expectStatus(await survey(h, m.alice, id), 200).data.rating.rating, 'good')
      const other = await postTicket(h, m.bob.token, { category: m.billing })
      await postComment(h, m.agent.token, other.id, { body: 'Done.', close: true })
      await m.send()
      const toBob = m.capture.mails.filter((x) => x.envelope.to.includes(m.bob.user.email))
      assert.ok(toBob.some((x) => (x.parsed.text ?? '').includes('/satisfaction#token=')), 'each owner gets their own link')
      assert.ok(m.capture.mails.filter((x) => !/closed/.test(x.parsed.text ?? '')).every((x) => !(x.parsed.text ?? '').includes('/satisfaction#')), 'only closing mails ask')
    })

    it('refuses a forged, altered or replayed link: another ticket, another customer, a later closing, an expired or retired one', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const id = await closedTicket(h, d)
      const otherId = await closedTicket(h, d)
      const token = await tokenOf(h, id)
      const parts = token.split('.')
      const swap = (index: number, value: string) => parts.map((part, i) => i === index ? value : part).join('.')
      const flipped = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0')
      for (const forged of [
        flipped, // the MAC altered
        swap(0, String(otherId)), // the same signature on another ticket
        swap(1, '2'), // on another closing
        swap(2, String(d.bob.user.id)), // for another customer
        swap(3, String(Number(parts[3]) + 86400 * 365)), // made later, to last longer
        swap(4, '99'), // under a key that does not exist
        'not-a-token',
        `${token}.1`
      ]) {
        expectError(await linkView(h, forged), 404)
        expectError(await linkRate(h, forged, { rating: 'bad' }), 404)
      }
      assert.equal((await h.store.satisfaction.latest(id))?.rating, null)
      assert.equal((await h.store.satisfaction.latest(otherId))?.rating, null, 'nothing rated on the other ticket')

      // A genuine link for the first closing: refused once the ticket reopened, and for the second closing.
      expectStatus(await linkRate(h, token, { rating: 'good' }), 200)
      await postComment(h, d.alice.token, id, { body: 'Again.' })
      assert.match(expectError(await linkRate(h, token, { rating: 'bad' }), 403).message, /not closed/)
      await postComment(h, d.agent.token, id, { body: 'Fixed again.', close: true })
      const superseded = expectStatus(await linkView(h, token), 200).data
      assert.deepEqual([superseded.can_rate, superseded.reason], [false, 'superseded'])
      assert.match(expectError(await linkRate(h, token, { rating: 'bad' }), 403).message, /closed again/)
      assert.deepEqual((await h.store.satisfaction.ofTicket(id)).map((r) => [r.resolution, r.rating]), [[2, null], [1, 'good']])
      const second = await tokenOf(h, id)
      expectStatus(await linkRate(h, second, { rating: 'bad' }), 200)

      // Another owner now: the link names nothing.
      const moved = await tokenOf(h, otherId)
      await h.store.tickets.update(otherId, { user_id: d.bob.user.id })
      expectError(await linkRate(h, moved, { rating: 'bad' }), 404)

      // Expired after `satisfaction.link_days` (30 by default, changeable).
      const late = await tokenOf(h, id)
      clock.advance(31 * 86400 * 1000)
      assert.match(expectError(await linkRate(h, late, { rating: 'good' }), 403).message, /expired/)
      expectStatus(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'satisfaction.link_days': 60 } }), 200)
      expectStatus(await linkRate(h, late, { rating: 'good' }), 200)

      // Rotating the signing keys with --retire-older retires the links too.
      await h.helpdesk.mail.rotateReplyKey({ retireOlder: true })
      expectError(await linkView(h, late), 404)
    })

    it('follows the administrator: surveys off, their wording, and notifying the assignee of a bad rating', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const settings = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/settings', token: d.admin.token }), 200).data
      assert.deepEqual([settings['satisfaction.enabled'], settings['satisfaction.notify_on_bad'], settings['satisfaction.link_days']], [true, true, 30])
      expectValidation(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'satisfaction.question': '   ' } }), 'satisfaction.question')
      expectValidation(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'satisfaction.link_days': 0 } }), 'satisfaction.link_days')
      expectError(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.agent.token, payload: { 'satisfaction.enabled': false } }), 403)
      expectStatus(await h.inject({
        method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'satisfaction.question': 'Did we help?', 'satisfaction.good_label': 'Yes', 'satisfaction.bad_label': 'No' }
      }), 200)

      const id = await closedTicket(h, d)
      const shown = expectStatus(await survey(h, d.alice, id), 200).data.survey
      assert.deepEqual(shown, { enabled: true, question: 'Did we help?', good_label: 'Yes', bad_label: 'No' })

      // A good rating tells nobody; a bad one the assignee (not the customer who gave it).
      const before = (await notificationsOf(h, d.agent.token)).length
      expectStatus(await rate(h, d.alice, id, { rating: 'good' }), 200)
      assert.equal((await notificationsOf(h, d.agent.token)).length, before)
      expectStatus(await rate(h, d.alice, id, { rating: 'bad', comment: 'Rude.' }), 200)
      const [bad] = await notificationsOf(h, d.agent.token)
      assert.equal(bad?.type, 'Tickets.SatisfactionRated')
      assert.deepEqual(bad?.data.satisfaction, { resolution: 1, rating: 'bad', comment: 'Rude.' })
      assert.equal(bad?.data.ticket.id, id)
      assert.ok((await notificationsOf(h, d.alice.token)).every((n) => n.type !== 'Tickets.SatisfactionRated'))

      expectStatus(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'satisfaction.notify_on_bad': false } }), 200)
      const quiet = await closedTicket(h, d)
      const count = (await notificationsOf(h, d.agent.token)).length
      expectStatus(await rate(h, d.alice, quiet, { rating: 'bad' }), 200)
      assert.equal((await notificationsOf(h, d.agent.token)).length, count, 'no notification when switched off')

      expectStatus(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'satisfaction.enabled': false } }), 200)
      const off = await closedTicket(h, d)
      const disabled = expectStatus(await survey(h, d.alice, off), 200).data
      assert.deepEqual([disabled.can_rate, disabled.reason], [false, 'disabled'])
      assert.match(expectError(await rate(h, d.alice, off, { rating: 'good' }), 403).message, /turned off/)
      const ticket = await h.store.tickets.findById(off)
      assert.equal(await h.helpdesk.satisfaction.linkToken(ticket!), null, 'no link to mail while surveys are off')
    })

    it('raises Tickets.SatisfactionRated with the rating before and after, to the event log, webhooks and the owner\'s and staff\'s stream', async (t) => {
      const h = await buildApp(t, dialect, { workers: false, webhooks: { allowPrivateTargets: true, backoff: () => 0 } })
      const d = await desk(h)
      assert.ok(WEBHOOK_EVENT_TYPES.includes('Tickets.SatisfactionRated'))
      const received: string[] = []
      const server = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () => { received.push(Buffer.concat(chunks).toString('utf8')); res.writeHead(200).end('ok') })
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      t.after(async () => { server.closeAllConnections(); await new Promise((resolve) => server.close(resolve)) })
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/webhooks', token: d.admin.token, payload: { url, events: ['Tickets.SatisfactionRated'] } }), 201)

      const id = await closedTicket(h, d, { private: false })
      const [last] = (await h.store.eventLog.after(0, 1000)).slice(-1)
      expectStatus(await rate(h, d.alice, id, { rating: 'good' }), 200)
      expectStatus(await rate(h, d.alice, id, { rating: 'bad', comment: 'On second thought.' }), 200)
      expectStatus(await rate(h, d.alice, id, { rating: 'bad', comment: 'On second thought.' }), 200)
      const logged = (await h.store.eventLog.after(last!.id, 100)).filter((e) => e.type === 'Tickets.SatisfactionRated')
      assert.equal(logged.length, 2, 'a rating that changes nothing raises nothing')
      assert.deepEqual(logged.map((e) => [(e.payload.previous as any)?.rating ?? null, (e.payload.satisfaction as any).rating]), [[null, 'good'], ['good', 'bad']])
      assert.equal(logged[1]?.ticket_id, id)

      await h.helpdesk.jobs.runDue()
      assert.equal(received.length, 2)
      const body = JSON.parse(received[1]!)
      assert.equal(body.type, 'Tickets.SatisfactionRated')
      assert.equal(body.data.ticket.id, id)
      assert.deepEqual([body.data.satisfaction.rating, body.data.satisfaction.comment, body.data.satisfaction.resolution, body.data.previous.rating], ['bad', 'On second thought.', 1, 'good'])

      const polled = async (person: Person) => {
        const res = await h.inject({ method: 'GET', url: `/api/v1/events?poll=true&last_event_id=${last!.id}`, headers: { authorization: `Bearer ${person.token}` } })
        return res.body.split('\n\n').filter((block) => block.includes('event: ticket') && block.includes('Tickets.SatisfactionRated'))
          .map((block) => JSON.parse(block.split('\n').find((line) => line.startsWith('data: '))!.slice(6)))
      }
      const owner = await polled(d.alice)
      assert.equal(owner.length, 2)
      assert.deepEqual(owner[1].satisfaction, { resolution: 1, rating: 'bad', comment: 'On second thought.' })
      assert.equal((await polled(d.agent)).length, 2)
      assert.equal((await polled(d.bob)).length, 0, 'another customer who reads the public ticket hears nothing of its rating')
    })
  })
})

