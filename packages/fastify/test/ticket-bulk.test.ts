import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { TicketEventType } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk, grant, postTicket, recordEvents, settle } from './ticket-fixtures.js'

interface Outcome { id: number, status: 'ok' | 'error', ticket?: { id: number, status: number, assigned_agent_id: number | null, priority: string }, error?: { code: string, message: string, errors?: Record<string, string[]> } }

async function bulk (h: TestApp, token: string, payload: unknown): Promise<Outcome[]> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/tickets/bulk', token, payload: payload as object }), 200).data
}

async function statusOf (h: TestApp, id: number): Promise<number | undefined> {
  return (await h.store.tickets.findById(id))?.status
}

/** Makes the database refuse history rows of one ticket: its update fails inside its transaction, after the ticket row was written. */
async function refuseHistoryOf (h: TestApp, dialect: 'sqlite' | 'postgres', ticketId: number): Promise<void> {
  if (dialect === 'sqlite') {
    await h.store.knex.raw(`create trigger bulk_refuse before insert on ticket_history when new.ticket_id = ${ticketId} begin select raise(abort, 'refused by the test'); end`)
  } else {
    await h.store.knex.raw(`create function bulk_refuse() returns trigger language plpgsql as $$ begin if new.ticket_id = ${ticketId} then raise exception 'refused by the test'; end if; return new; end $$`)
    await h.store.knex.raw('create trigger bulk_refuse before insert on ticket_history for each row execute function bulk_refuse()')
  }
}

eachDialect((dialect) => {
  describe(`POST /tickets/bulk on ${dialect}`, () => {
    it('checks each ticket on its own: an agent gets an error outcome for a ticket outside their categories, the others are closed', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const mine = [
        await postTicket(h, d.alice.token, { category: d.billing }),
        await postTicket(h, d.bob.token, { category: d.billing })
      ]
      const foreign = await postTicket(h, d.alice.token, { category: d.sales })
      const events = recordEvents(h)
      const outcomes = await bulk(h, d.agent.token, { ids: [mine[0].id, foreign.id, 999999, mine[1].id], action: { close: true } })
      assert.deepEqual(outcomes.map((o) => [o.id, o.status]), [[mine[0].id, 'ok'], [foreign.id, 'error'], [999999, 'error'], [mine[1].id, 'ok']])
      assert.equal(outcomes[0]?.ticket?.status, 3)
      // A ticket the agent may not see is "not found", as GET /tickets/{id} would say: its existence is not leaked.
      assert.deepEqual(outcomes[1]?.error, { code: 'HD_NOT_FOUND', message: 'Ticket not found.' })
      assert.deepEqual(outcomes[2]?.error, outcomes[1]?.error)
      assert.equal(await statusOf(h, mine[0].id), 3)
      assert.equal(await statusOf(h, mine[1].id), 3)
      assert.equal(await statusOf(h, foreign.id), 1)
      await settle()
      // The single-ticket route's events, once per closed ticket.
      assert.deepEqual(events.filter((e) => e.type === TicketEventType.TicketClosedByAgent).map((e) => (e as { ticket: { id: number } }).ticket.id).sort(), [mine[0].id, mine[1].id].sort())
      // And its history.
      const history = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${mine[0].id}/history`, token: d.admin.token }), 200).data as Array<{ field: string, from: unknown, to: unknown }>
      assert.ok(history.some((entry) => JSON.stringify(entry).includes('status')), JSON.stringify(history))
    })

    it('writes each ticket in its own transaction: one failing inside its write is rolled back alone', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const tickets = []
      for (let n = 0; n < 3; n++) tickets.push(await postTicket(h, d.alice.token, { category: d.billing }))
      const [first, failing, last] = tickets.map((ticket) => ticket.id as number) as [number, number, number]
      await refuseHistoryOf(h, dialect, failing)
      const outcomes = await bulk(h, d.admin.token, { ids: [first, failing, last], action: { status: 2 } })
      assert.deepEqual(outcomes.map((o) => o.status), ['ok', 'error', 'ok'])
      assert.deepEqual(outcomes[1]?.error, { code: 'HD_INTERNAL', message: 'Server error.' })
      assert.equal(await statusOf(h, first), 2)
      assert.equal(await statusOf(h, failing), 1, 'the failing ticket\'s own update was rolled back')
      assert.equal(await statusOf(h, last), 2)
    })

    it('assigns and unassigns per ticket: a refused or invalid ticket does not stop the others', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const billing = await postTicket(h, d.alice.token, { category: d.billing })
      const sales = await postTicket(h, d.alice.token, { category: d.sales })
      // An agent without assign_tickets: each ticket is refused, as PUT /tickets/{id}/agents would be.
      const refused = await bulk(h, d.agent.token, { ids: [billing.id], action: { assign: { assignee_id: d.agent.user.id } } })
      assert.equal(refused[0]?.error?.code, 'HD_FORBIDDEN')
      // Another agent of billing only: assigning them a sales ticket is that ticket's validation error.
      const colleague = await h.user('agent')
      await h.store.users.setCategories(colleague.user.id, [d.billing])
      const dispatcher = await h.user('agent')
      await grant(h, dispatcher, 'assign_tickets', 'view_all_tickets')
      const assigned = await bulk(h, dispatcher.token, { ids: [billing.id, sales.id], action: { assign: { assignee_id: colleague.user.id } } })
      assert.equal(assigned[0]?.status, 'ok')
      assert.equal(assigned[0]?.ticket?.assigned_agent_id, colleague.user.id)
      assert.equal(assigned[1]?.error?.code, 'HD_VALIDATION')
      assert.deepEqual(Object.keys(assigned[1]?.error?.errors ?? {}), ['action.assign.assignee_id'])
      await grant(h, d.agent, 'assign_tickets')
      const agentToken = (await h.helpdesk.auth.createToken(d.agent.user, 'again')).token
      // The billing agent, now allowed to assign, unassigns the billing ticket; the sales ticket is not theirs to see.
      const unassigned = await bulk(h, agentToken, { ids: [billing.id, sales.id], action: { assign: { assignee_id: null } } })
      assert.deepEqual(unassigned.map((o) => [o.status, o.status === 'ok' ? o.ticket?.assigned_agent_id : o.error?.code]), [['ok', null], ['error', 'HD_NOT_FOUND']])
      // An agent that does not exist is the whole request's 422.
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets/bulk', token: d.admin.token, payload: { ids: [billing.id], action: { assign: { assignee_id: d.alice.user.id } } } }), 'action.assign.assignee_id')
    })

    it('sets priorities, adds and removes tags, and deletes (with delete_tickets only)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const a = await postTicket(h, d.admin.token, { category: d.billing, customer_id: d.alice.user.id, tags: ['new', 'billing'] })
      const b = await postTicket(h, d.alice.token, { category: d.billing })
      const prioritised = await bulk(h, d.agent.token, { ids: [a.id, b.id], action: { priority: 'urgent' } })
      assert.deepEqual(prioritised.map((o) => o.ticket?.priority), ['urgent', 'urgent'])
      await bulk(h, d.agent.token, { ids: [a.id, b.id], action: { tags: { add: ['VIP '], remove: ['new'] } } })
      const tags = await h.store.tickets.tagsOf([a.id, b.id])
      assert.deepEqual(tags.get(a.id)?.map((tag) => tag.name).sort(), ['billing', 'vip'])
      assert.deepEqual(tags.get(b.id)?.map((tag) => tag.name), ['vip'])
      const refused = await bulk(h, d.agent.token, { ids: [a.id, b.id], action: { delete: true } })
      assert.deepEqual(refused.map((o) => o.error?.code), ['HD_FORBIDDEN', 'HD_FORBIDDEN'])
      const deleted = await bulk(h, d.admin.token, { ids: [a.id, b.id], action: { delete: true } })
      assert.deepEqual(deleted, [{ id: a.id, status: 'ok' }, { id: b.id, status: 'ok' }])
      assert.equal(await h.store.tickets.findById(a.id), null)
    })

    it('refuses customers (403) and anonymous callers (401); a malformed body is refused whole and changes nothing', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const own = await postTicket(h, d.alice.token, { category: d.billing })
      expectError(await h.inject({ method: 'POST', url: '/api/v1/tickets/bulk', token: d.alice.token, payload: { ids: [own.id], action: { close: true } } }), 403)
      expectError(await h.inject({ method: 'POST', url: '/api/v1/tickets/bulk', payload: { ids: [own.id], action: { close: true } } }), 401)
      const post = async (payload: unknown) => await h.inject({ method: 'POST', url: '/api/v1/tickets/bulk', token: d.admin.token, payload: payload as object })
      expectValidation(await post({ ids: [], action: { close: true } }), 'ids')
      expectValidation(await post({ ids: Array.from({ length: 101 }, (_, i) => i + 1), action: { close: true } }), 'ids')
      expectValidation(await post({ ids: [own.id, own.id], action: { close: true } }), 'ids')
      expectValidation(await post({ ids: [own.id] }), 'action')
      expectValidation(await post({ ids: [own.id], action: { close: true, delete: true } }), 'action')
      expectValidation(await post({ ids: [own.id], action: { status: 7 } }), 'action.status')
      expectValidation(await post({ ids: [own.id], action: {} }), 'action')
      expectValidation(await post({ ids: ['x'], action: { close: true } }), 'ids.0')
      const notJson = await h.inject({ method: 'POST', url: '/api/v1/tickets/bulk', token: d.admin.token, headers: { 'content-type': 'application/json' }, payload: '{"ids": [1' })
      expectError(notJson, 400)
      assert.equal(await statusOf(h, own.id), 1)
    })

    it('reads the tickets once for the whole request: fewer statements than the same changes one by one', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ids: number[] = []
      for (let n = 0; n < 20; n++) ids.push((await postTicket(h, d.alice.token, { category: d.billing })).id)
      const one = await h.countQueries(async () => await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ids[0]}`, token: d.agent.token, payload: { priority: 'high' } }))
      const many = await h.countQueries(async () => await bulk(h, d.agent.token, { ids: ids.slice(1), action: { priority: 'high' } }))
      t.diagnostic(`${dialect}: one PATCH ${one.queries} statements; bulk of 19 ${many.queries} (${(many.queries / 19).toFixed(1)} a ticket)`)
      assert.ok(many.queries < one.queries * 19, `${many.queries} statements for 19 tickets, ${one.queries} for one`)
    })
  })
})
