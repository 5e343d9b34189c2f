import assert from 'node:assert/strict'
import { describe, it, type TestContext } from 'node:test'
import { buildApp, eachDialect, includesPostgres, secondInstance, type BuildAppOptions } from './helpers.js'
import { apiBaseOf, eventStreams, openStream, type SseEvent, type SseStream } from './sse-client.js'
import { desk, postComment, postTicket } from './ticket-fixtures.js'

/** An app listening on a loopback port, and a way to open streams on it as a token's owner (closed after the test). */
async function listening (t: TestContext, dialect: 'sqlite' | 'postgres', options: BuildAppOptions = {}) {
  const h = await buildApp(t, dialect, options)
  await h.app.listen({ host: '127.0.0.1', port: 0 })
  return { h, stream: eventStreams(h.app, t) }
}

const ticketEvent = (type: string, ticketId: number) => (e: SseEvent) => e.event === 'ticket' && e.data.type === type && e.data.ticket.id === ticketId

eachDialect((dialect) => {
  describe(`GET /events (${dialect})`, () => {
    it('sends a ticket change to those who may see it and not to others', async (t) => {
      const { h, stream } = await listening(t, dialect)
      const d = await desk(h)
      const agentStream = await stream(d.agent.token)
      const bobStream = await stream(d.bob.token)
      assert.equal(agentStream.status, 200)
      assert.match(String(agentStream.headers['content-type']), /^text\/event-stream/)
      await agentStream.next((e) => e.event === 'unread_count')
      // Not the billing agent's: another category. Then one of theirs.
      const sales = await postTicket(h, d.alice.token, { category: d.sales, private: true, title: 'Sales question' })
      const billing = await postTicket(h, d.alice.token, { category: d.billing, private: true, title: 'Billing question' })
      const seen = await agentStream.next(ticketEvent('Tickets.TicketCreated', billing.id))
      assert.equal(seen.data.ticket.title, 'Billing question')
      assert.ok(Number(seen.id) > 0, 'every ticket event carries its event-log id')
      assert.ok(!agentStream.events.some((e) => e.event === 'ticket' && e.data.ticket.id === sales.id), 'the agent never hears of a ticket outside its categories')
      assert.equal((await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${billing.id as number}`, token: d.alice.token, payload: { title: 'Billing question, edited' } })).statusCode, 200)
      const updated = await agentStream.next(ticketEvent('Tickets.TicketUpdated', billing.id))
      assert.equal(updated.data.ticket.title, 'Billing question, edited')
      // Bob sees neither of Alice's private tickets, but a public one.
      const open = await postTicket(h, d.alice.token, { category: d.sales, private: false, title: 'Public question' })
      await bobStream.next(ticketEvent('Tickets.TicketCreated', open.id))
      assert.deepEqual(bobStream.events.filter((e) => e.event === 'ticket').map((e) => e.data.ticket.id), [open.id])
      assert.equal('additional' in (bobStream.events.find((e) => e.event === 'ticket')?.data.ticket ?? {}), false)
    })

    it('never sends a note to a customer, and private replies only to the owner', async (t) => {
      const { h, stream } = await listening(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, private: false })
      const alice = await stream(d.alice.token)
      const bob = await stream(d.bob.token)
      const agent = await stream(d.agent.token)
      const note = await postComment(h, d.agent.token, ticket.id, { type: 2, body: 'Internal: refund?' })
      const secret = await postComment(h, d.agent.token, ticket.id, { type: 1, private: true, body: 'Your account number' })
      const reply = await postComment(h, d.agent.token, ticket.id, { type: 1, body: 'Public answer' })
      const commentIds = (s: SseStream) => s.events.filter((e) => e.event === 'ticket' && e.data.comment !== undefined).map((e) => e.data.comment.id)
      await alice.next((e) => e.event === 'ticket' && e.data.comment?.id === reply.id)
      await bob.next((e) => e.event === 'ticket' && e.data.comment?.id === reply.id)
      await agent.next((e) => e.event === 'ticket' && e.data.comment?.id === reply.id)
      assert.deepEqual(commentIds(alice), [secret.id, reply.id], 'the owner: private and public replies, never the note')
      assert.deepEqual(commentIds(bob), [reply.id], 'another customer: the public reply only')
      assert.deepEqual(commentIds(agent), [note.id, secret.id, reply.id], 'staff: everything')
      assert.equal(alice.events.find((e) => e.data.comment?.id === reply.id)?.data.comment.type, 1)
    })

    it('sends my new notifications with the unread count', async (t) => {
      const { h, stream } = await listening(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const alice = await stream(d.alice.token)
      const first = await alice.next((e) => e.event === 'unread_count')
      assert.deepEqual(first.data, { count: 0 })
      const reply = await postComment(h, d.agent.token, ticket.id, { body: 'We are on it' })
      const notification = await alice.next((e) => e.event === 'notification')
      assert.equal(notification.data.type, 'Tickets.CommentAdded')
      assert.equal(notification.data.data.comment.id, reply.id)
      assert.equal(notification.data.read_at, null)
      assert.equal(notification.data.author.id, d.agent.user.id)
      const listed = await h.inject({ method: 'GET', url: '/api/v1/notifications', token: d.alice.token })
      assert.equal(listed.json().data[0].id, notification.data.id, 'the notification as the API shows it')
      const count = await alice.next((e) => e.event === 'unread_count' && e.data.count === 1)
      assert.equal(count.id, notification.id)
      // Bob gets none of Alice's notifications.
      const bob = await stream(d.bob.token)
      await postComment(h, d.agent.token, ticket.id, { body: 'Second answer' })
      await alice.next((e) => e.event === 'unread_count' && e.data.count === 2)
      assert.equal(bob.events.filter((e) => e.event === 'notification').length, 0)
    })

    it('resumes after Last-Event-ID with what was missed, and resets when it cannot', async (t) => {
      const { h, stream } = await listening(t, dialect)
      const d = await desk(h)
      const first = await stream(d.admin.token)
      const a = await postTicket(h, d.alice.token, { category: d.billing, title: 'A' })
      const seen = await first.next(ticketEvent('Tickets.TicketCreated', a.id))
      first.close()
      const b = await postTicket(h, d.alice.token, { category: d.billing, title: 'B' })
      const comment = await postComment(h, d.agent.token, b.id, { type: 2, body: 'note' })
      for (const how of ['header', 'query'] as const) {
        const again = how === 'header'
          ? await stream(d.admin.token, '', { 'last-event-id': String(seen.id) })
          : await stream(d.admin.token, `?last_event_id=${seen.id}`)
        await again.next((e) => e.event === 'ticket' && e.data.comment?.id === comment.id)
        const tickets = again.events.filter((e) => e.event === 'ticket')
        assert.deepEqual(tickets.map((e) => e.data.ticket.title), ['B', 'B'], `${how}: the missed creation and comment, nothing before`)
        assert.ok(tickets.every((e) => Number(e.id) > Number(seen.id)))
        again.close()
      }
      const polled = await stream(d.admin.token, `?poll=true&last_event_id=${seen.id}`)
      await polled.ended
      assert.equal(polled.events.filter((e) => e.event === 'ticket').length, 2, 'poll: the same, then the response ends')
      const future = await stream(d.admin.token, '', { 'last-event-id': '999999999' })
      const reset = await future.next((e) => e.event === 'reset')
      assert.match(reset.data.message, /reload/)
    })

    it('sends heartbeats and caps connections per user', async (t) => {
      const { h, stream } = await listening(t, dialect, { eventStream: { heartbeatMs: 100, maxConnectionsPerUser: 2 } })
      const d = await desk(h)
      const one = await stream(d.alice.token)
      assert.equal(await one.nextComment(2000), 'heartbeat')
      const two = await stream(d.alice.token)
      const three = await stream(d.alice.token)
      assert.equal(two.status, 200)
      assert.equal(three.status, 429)
      assert.match(three.body.message, /at most 2/)
      assert.equal((await stream(d.bob.token)).status, 200, 'the cap is per user')
      one.close()
      await one.ended
      let again = await stream(d.alice.token)
      for (let i = 0; again.status === 429 && i < 20; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        again = await stream(d.alice.token)
      }
      assert.equal(again.status, 200, 'a closed stream frees its place')
      const anonymous = await openStream(`${apiBaseOf(h.app)}/events`)
      assert.equal(anonymous.status, 401)
      for (const query of ['?last_event_id=abc', '?poll=maybe']) {
        const bad = await h.inject({ method: 'GET', url: `/api/v1/events${query}`, token: d.alice.token })
        assert.ok(bad.statusCode === 400 || bad.statusCode === 422, `${query}: ${bad.statusCode}`)
        assert.equal(typeof bad.json().message, 'string')
      }
      // A revoked token loses its open stream at the next heartbeat.
      const bobStream = await stream(d.bob.token)
      assert.equal((await h.inject({ method: 'POST', url: '/api/v1/auth/logout', token: d.bob.token })).statusCode, 200)
      await Promise.race([bobStream.ended, new Promise((_resolve, reject) => setTimeout(() => { reject(new Error('the stream outlived its token')) }, 3000))])
      // So does the console's session cookie once the session is logged out.
      const login = await h.inject({ method: 'POST', url: '/api/v1/auth/session', payload: { email: 'bob@builders.test', password: 'secret123' } })
      assert.equal(login.statusCode, 200)
      const cookie = `helpdesk_session=${/^helpdesk_session=([^;]+)/.exec(String(login.headers['set-cookie']))?.[1] ?? ''}`
      const cookieStream = await openStream(`${apiBaseOf(h.app)}/events`, { cookie })
      assert.equal(cookieStream.status, 200)
      const logout = await h.inject({ method: 'DELETE', url: '/api/v1/auth/session', headers: { cookie, 'x-csrf-token': login.json().data.csrf_token } })
      assert.equal(logout.statusCode, 200)
      await Promise.race([cookieStream.ended, new Promise((_resolve, reject) => setTimeout(() => { reject(new Error('the stream outlived its session')) }, 3000))])
    })

    it('ends open streams when the app closes, without holding it up', async (t) => {
      const { h, stream } = await listening(t, dialect)
      const d = await desk(h)
      const open = await stream(d.alice.token)
      await open.next((e) => e.event === 'unread_count')
      const started = Date.now()
      await h.app.close()
      await open.ended
      assert.ok(Date.now() - started < 3000, `close took ${Date.now() - started} ms`)
    })
  })
})

describe('GET /events across two instances on one PostgreSQL (LISTEN/NOTIFY)', { skip: !includesPostgres() }, () => {
  it('delivers a change made through one app to a stream of the other', async (t) => {
    const { h } = await listening(t, 'postgres')
    const other = await secondInstance(t, h)
    const d = await desk(h)
    const s = await eventStreams(other, t).ready(d.agent.token)
    const ticket = await postTicket(h, d.alice.token, { category: d.billing })
    await s.next(ticketEvent('Tickets.TicketCreated', ticket.id), 2000)
    const notification = await s.next((e) => e.event === 'notification')
    assert.equal(notification.data.type, 'Tickets.TicketCreated')
  })
})
