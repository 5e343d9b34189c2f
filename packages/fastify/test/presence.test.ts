import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { buildApp, eachDialect, includesPostgres, manualClock, secondInstance, type TestApp } from './helpers.js'
import { eventStreams, type SseEvent } from './sse-client.js'
import { desk, postComment, postTicket } from './ticket-fixtures.js'

const presenceOf = (ticketId: number) => (e: SseEvent) => e.event === 'presence' && e.data.ticket_id === ticketId
const names = (entries: Array<{ user: { first_name: string }, state: string }>) => entries.map((e) => `${e.user.first_name}:${e.state}`)

async function beat (h: TestApp, token: string, ticketId: number, state: string, clientId?: string) {
  return await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticketId}/presence`, token, payload: clientId === undefined ? { state } : { state, client_id: clientId } })
}

async function leave (h: TestApp, token: string, ticketId: number, clientId?: string) {
  const query = clientId === undefined ? '' : `?client_id=${encodeURIComponent(clientId)}`
  return await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticketId}/presence${query}`, token })
}

eachDialect((dialect) => {
  describe(`ticket presence (${dialect})`, () => {
    it('lists the other staff on a ticket, with their state, until they leave or their heartbeat expires', async (t) => {
      const clock = manualClock(Date.now())
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const first = await beat(h, d.agent.token, ticket.id, 'viewing')
      assert.equal(first.statusCode, 200)
      assert.deepEqual(first.json().data.entries, [], 'nobody else is there yet')
      assert.equal(first.json().data.ttl_seconds, 30)
      const adminSees = (await beat(h, d.admin.token, ticket.id, 'typing')).json().data
      assert.deepEqual(names(adminSees.entries), ['Gus:viewing'], 'the caller is never listed, the others are')
      assert.equal(adminSees.entries[0].user.email, d.agent.user.email)
      const agentSees = (await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/presence`, token: d.agent.token })).json().data
      assert.deepEqual(names(agentSees.entries), ['Ada:typing'])
      // 20 s on, the agent beats again; the admin does not: at 31 s the admin is gone, the agent is not.
      clock.advance(20_000)
      await beat(h, d.agent.token, ticket.id, 'viewing')
      clock.advance(11_000)
      const later = (await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/presence`, token: d.admin.token })).json().data
      assert.deepEqual(names(later.entries), ['Gus:viewing'])
      assert.deepEqual((await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/presence`, token: d.agent.token })).json().data.entries, [], 'the admin expired')
      // Leaving removes at once; the prune job drops expired rows.
      assert.equal((await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticket.id}/presence`, token: d.agent.token })).statusCode, 200)
      assert.deepEqual((await beat(h, d.admin.token, ticket.id, 'viewing')).json().data.entries, [])
      clock.advance(120_000)
      assert.equal(await h.helpdesk.presence.pruneExpired(), 1)
      assert.equal((await h.store.knex('ticket_presence').count({ n: '*' }))[0]?.n, 0)
    })

    it('keeps presence per tab: leaving from one of two tabs keeps the person listed, typing in either shows typing', async (t) => {
      const clock = manualClock(Date.now())
      const h = await buildApp(t, dialect, { clock })
      await h.app.listen({ host: '127.0.0.1', port: 0 })
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const adminStream = await eventStreams(h.app, t).ready(d.admin.token)
      const list = async () => (await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/presence`, token: d.admin.token })).json().data
      assert.equal((await beat(h, d.agent.token, ticket.id, 'viewing', 'tab-one')).statusCode, 200)
      const first = (await list()).entries[0]
      clock.advance(5_000)
      await beat(h, d.agent.token, ticket.id, 'typing', 'tab_two')
      const both = await list()
      assert.deepEqual(names(both.entries), ['Gus:typing'], 'one entry per person; typing in one tab shows typing')
      assert.equal(both.entries[0].since, first.since, 'the stay began with the first tab')
      assert.equal(both.entries[0].expires_at > first.expires_at, true, 'the latest beat counts')
      await adminStream.next((e) => presenceOf(ticket.id)(e) && e.data.entries[0]?.state === 'typing')
      // The typing tab closes: still there, viewing through the other tab.
      assert.equal((await leave(h, d.agent.token, ticket.id, 'tab_two')).statusCode, 200)
      assert.deepEqual(names((await list()).entries), ['Gus:viewing'])
      await adminStream.next((e) => presenceOf(ticket.id)(e) && e.data.entries[0]?.state === 'viewing' && adminStream.events.filter(presenceOf(ticket.id)).length === 3)
      // Leaving without a client id (an API client's default tab) leaves the console's tabs alone.
      assert.equal((await leave(h, d.agent.token, ticket.id)).statusCode, 200)
      assert.deepEqual(names((await list()).entries), ['Gus:viewing'])
      // The second tab closes: gone.
      assert.equal((await leave(h, d.agent.token, ticket.id, 'tab-one')).statusCode, 200)
      assert.deepEqual((await list()).entries, [])
      const gone = await adminStream.next((e) => presenceOf(ticket.id)(e) && e.data.entries.length === 0)
      assert.deepEqual(gone.data.entries, [])
      // Expiry is per tab: the tab that stops beating drops out, the one that beats keeps the person there.
      await beat(h, d.agent.token, ticket.id, 'typing', 'tab-one')
      await beat(h, d.agent.token, ticket.id, 'viewing', 'tab_two')
      clock.advance(20_000)
      await beat(h, d.agent.token, ticket.id, 'viewing', 'tab_two')
      clock.advance(11_000)
      assert.deepEqual(names((await list()).entries), ['Gus:viewing'], 'the silent typing tab expired')
      assert.equal(await h.helpdesk.presence.pruneExpired(), 0, 'expired only just now: pruned later')
      clock.advance(60_000)
      assert.equal(await h.helpdesk.presence.pruneExpired(), 2)
    })

    it('takes a client id of 1-64 letters, digits, - and _ (422 otherwise, nothing written)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      for (const bad of ['', 'a b', 'x'.repeat(65), 'tab/1']) {
        const put = await beat(h, d.agent.token, ticket.id, 'viewing', bad)
        assert.equal(put.statusCode, 422, bad)
        assert.ok(put.json().errors.client_id !== undefined, JSON.stringify(put.json()))
        const del = await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticket.id}/presence?client_id=${encodeURIComponent(bad)}`, token: d.agent.token })
        assert.equal(del.statusCode, 422, bad)
        assert.ok(del.json().errors.client_id !== undefined, JSON.stringify(del.json()))
      }
      assert.equal((await beat(h, d.agent.token, ticket.id, 'viewing', 42 as unknown as string)).statusCode, 422)
      assert.equal((await h.store.knex('ticket_presence').count({ n: '*' }))[0]?.n, 0)
      assert.equal((await beat(h, d.agent.token, ticket.id, 'viewing', 'x'.repeat(64))).statusCode, 200)
    })

    it('is staff business: customers get 403 on their own ticket and 404 on one they cannot see; a bad state is 422', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const mine = await postTicket(h, d.alice.token, { category: d.sales })
      assert.equal((await beat(h, d.alice.token, mine.id, 'viewing')).statusCode, 403)
      assert.equal((await h.inject({ method: 'GET', url: `/api/v1/tickets/${mine.id}/presence`, token: d.alice.token })).statusCode, 403)
      assert.equal((await beat(h, d.bob.token, mine.id, 'viewing')).statusCode, 404)
      // The billing agent does not see a sales ticket.
      assert.equal((await beat(h, d.agent.token, mine.id, 'viewing')).statusCode, 404)
      const bad = await beat(h, d.admin.token, mine.id, 'lurking')
      assert.equal(bad.statusCode, 422)
      assert.ok(bad.json().errors.state !== undefined)
      assert.equal((await h.inject({ method: 'PUT', url: `/api/v1/tickets/${mine.id}/presence`, payload: { state: 'viewing' } })).statusCode, 401)
    })

    it('streams presence changes to staff who may see the ticket, never to customers, and not on every heartbeat', async (t) => {
      const h = await buildApp(t, dialect)
      await h.app.listen({ host: '127.0.0.1', port: 0 })
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const sales = await postTicket(h, d.alice.token, { category: d.sales })
      const streams = eventStreams(h.app, t)
      const adminStream = await streams.ready(d.admin.token)
      const agentStream = await streams.ready(d.agent.token)
      const aliceStream = await streams.ready(d.alice.token)
      await beat(h, d.agent.token, ticket.id, 'viewing')
      const arrived = await adminStream.next(presenceOf(ticket.id))
      assert.deepEqual(names(arrived.data.entries), ['Gus:viewing'])
      assert.equal(arrived.id ?? null, null, 'presence has no event id: it is not in the event log')
      await beat(h, d.agent.token, ticket.id, 'viewing')
      await beat(h, d.agent.token, ticket.id, 'typing')
      const typing = await adminStream.next((e) => presenceOf(ticket.id)(e) && e.data.entries[0]?.state === 'typing')
      assert.deepEqual(names(typing.data.entries), ['Gus:typing'])
      assert.equal(adminStream.events.filter(presenceOf(ticket.id)).length, 2, 'a heartbeat that changes nothing is not streamed')
      // The admin on the sales ticket: the billing agent never hears of it.
      await beat(h, d.admin.token, sales.id, 'viewing')
      await beat(h, d.admin.token, ticket.id, 'viewing')
      const agentHears = await agentStream.next((e) => presenceOf(ticket.id)(e) && e.data.entries.length > 0)
      assert.deepEqual(names(agentHears.data.entries), ['Ada:viewing'], 'the receiver is not listed')
      await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticket.id}/presence`, token: d.agent.token })
      const left = await adminStream.next((e) => presenceOf(ticket.id)(e) && e.data.entries.length === 0)
      assert.deepEqual(left.data.entries, [])
      await postComment(h, d.agent.token, ticket.id)
      await aliceStream.next((e) => e.event === 'ticket' && e.data.type === 'Tickets.CommentAdded')
      assert.ok(!agentStream.events.some(presenceOf(sales.id)), 'no presence of a ticket the agent may not see')
      assert.ok(!aliceStream.events.some((e) => e.event === 'presence'), 'customers never hear of presence')
      const logged = await h.store.eventLog.after(0, 1000)
      assert.ok(!logged.some((event) => /presence/i.test(event.type)), 'presence never enters the event log (nor webhooks)')
    })

    it('refuses a reply drafted before someone else commented (409), and sends it when nobody did', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const own = await postComment(h, d.agent.token, ticket.id, { body: 'First.' })
      // The agent's own comments never count as a collision.
      await postComment(h, d.agent.token, ticket.id, { body: 'Second.', if_no_comments_after: 0 })
      const other = await postComment(h, d.admin.token, ticket.id, { body: 'I answered already.' })
      const refused = await h.inject({
        method: 'POST', url: `/api/v1/tickets/${ticket.id}/comments`, token: d.agent.token, payload: { body: 'Late.', type: 1, private: false, if_no_comments_after: own.id }
      })
      assert.equal(refused.statusCode, 409)
      assert.match(refused.json().message, new RegExp(`#${other.id as number}`))
      assert.deepEqual(Object.keys(refused.json()), ['message'])
      const comments = (await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/comments?per_page=100`, token: d.agent.token })).json()
      assert.ok(!comments.data.some((c: { body: string }) => c.body.includes('Late.')), 'nothing was written')
      await postComment(h, d.agent.token, ticket.id, { body: 'After reading.', if_no_comments_after: other.id })
      // A customer is not warned about staff notes they cannot see.
      await postComment(h, d.agent.token, ticket.id, { body: 'Internal.', type: 2, private: true })
      await postComment(h, d.alice.token, ticket.id, { body: 'Thanks.', if_no_comments_after: own.id + 3 })
    })

    it('lets exactly one of two agents sending at once against the same newest comment through; the other gets 409', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const second = await h.user('agent', { first_name: 'Lin', last_name: 'Agent' })
      await h.store.users.setCategories(second.user.id, [d.billing])
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      // Several rounds: with the check made before the write transaction, both sends of a round passed it.
      for (let round = 1; round <= 5; round++) {
        const seen = await postComment(h, d.alice.token, ticket.id, { body: `Question ${round}.` })
        const send = async (token: string, body: string) => await h.inject({
          method: 'POST', url: `/api/v1/tickets/${ticket.id}/comments`, token, payload: { body, type: 1, private: false, if_no_comments_after: seen.id }
        })
        const answers = await Promise.all([send(d.agent.token, `Gus answers ${round}.`), send(second.token, `Lin answers ${round}.`)])
        assert.deepEqual(answers.map((a) => a.statusCode).sort(), [201, 409], `round ${round}: one answer is sent, the other refused`)
        const refused = answers.find((a) => a.statusCode === 409)
        const sent = answers.find((a) => a.statusCode === 201)
        assert.match(refused?.json().message, new RegExp(`#${sent?.json().data.id as number}\\b`), 'the refusal names the comment that got in first')
        const comments = (await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/comments?per_page=100`, token: d.admin.token })).json().data
        assert.equal(comments.filter((c: { body: string }) => c.body.includes(`answers ${round}.`)).length, 1, `round ${round}: one answer written`)
      }
    })
  })
})

describe('presence across two instances on one PostgreSQL', { skip: !includesPostgres() }, () => {
  it('a heartbeat through one app reaches a stream of the other', async (t) => {
    const h = await buildApp(t, 'postgres')
    await h.app.listen({ host: '127.0.0.1', port: 0 })
    const other = await secondInstance(t, h)
    const d = await desk(h)
    const ticket = await postTicket(h, d.alice.token, { category: d.billing })
    const onOther = await eventStreams(other, t).ready(d.admin.token)
    await beat(h, d.agent.token, ticket.id, 'typing')
    const heard = await onOther.next(presenceOf(ticket.id), 3000)
    assert.deepEqual(names(heard.data.entries), ['Gus:typing'])
    // And the other app answers the same list: nothing lives in one process's memory.
    const listed = await other.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/presence`, headers: { authorization: `Bearer ${d.admin.token}` } })
    assert.deepEqual(names(listed.json().data.entries), ['Gus:typing'])
    await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticket.id}/presence`, token: d.agent.token })
    await onOther.next((e) => presenceOf(ticket.id)(e) && e.data.entries.length === 0, 3000)
  })
})
