import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { automationActor, mailSenderActor, personActor, recordedActor, recordTicketChanges, SYSTEM, systemActor, ticketChanges, TicketEventType, type Ticket } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { desk, postComment, postTicket, type Desk } from './ticket-fixtures.js'

const sampleJson = join(fileURLToPath(new URL('../../../examples/import/', import.meta.url)), 'sample.json')

async function history (h: TestApp, token: string, ticketId: number, query = '') {
  return await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticketId}/history${query}`, token })
}

async function entries (h: TestApp, token: string, ticketId: number, query = '?per_page=100'): Promise<any[]> {
  return expectStatus(await history(h, token, ticketId, query), 200).data
}

async function historyRows (h: TestApp): Promise<number> {
  const row = await h.store.knex('ticket_history').count({ n: '*' }).first() as { n: number | string }
  return Number(row.n)
}

/** A ticket of Alice's in billing (the agent's category), public so other customers can read it. */
async function aliceTicket (h: TestApp, d: Desk): Promise<number> {
  return (await postTicket(h, d.alice.token, { category: d.billing, private: false })).id
}

describe('ticket history: what changed (pure)', () => {
  const base: Ticket = {
    id: 1, user_id: 2, creator_id: 2, category_id: 3, assigned_agent_id: null, status: 1, private: true, title: 'A', body: '<p>x</p>',
    additional: { fields: { 4: 'red' } }, agent_assigned_at: null, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00'
  }

  it('lists each changed field with its values, custom fields one by one, the body without its text, status alone public', () => {
    const after: Ticket = { ...base, status: 3, assigned_agent_id: 9, category_id: 5, private: false, title: 'B', body: '<p>y</p>', additional: { fields: { 4: 'blue', 6: 'L' }, purchase_code: 'P' } }
    assert.deepEqual(ticketChanges(base, after), [
      { field: 'status', old_value: 1, new_value: 3, public: true },
      { field: 'assignee', old_value: null, new_value: 9, public: false },
      { field: 'category', old_value: 3, new_value: 5, public: false },
      { field: 'private', old_value: true, new_value: false, public: false },
      { field: 'title', old_value: 'A', new_value: 'B', public: false },
      { field: 'body', old_value: null, new_value: null, public: false },
      { field: 'fields.4', old_value: 'red', new_value: 'blue', public: false },
      { field: 'fields.6', old_value: null, new_value: 'L', public: false },
      { field: 'purchase_code', old_value: null, new_value: 'P', public: false }
    ])
    assert.deepEqual(ticketChanges(base, { ...base, updated_at: '2026-02-01 00:00:00' }), [], 'only the time moved: nothing to record')
  })

  it('names the actor and the door of every kind of actor', () => {
    const user = { id: 7, role: 2 } as never
    assert.deepEqual(recordedActor(personActor(user, 'console')), { actor_kind: 'person', actor_id: 7, actor_name: null, door: 'console' })
    assert.deepEqual(recordedActor(user), { actor_kind: 'person', actor_id: 7, actor_name: null, door: 'api' })
    assert.deepEqual(recordedActor(personActor(user, 'mail')), { actor_kind: 'person', actor_id: 7, actor_name: null, door: 'mail' })
    assert.deepEqual(recordedActor(personActor(user, 'cli')), { actor_kind: 'person', actor_id: 7, actor_name: null, door: 'system' })
    assert.deepEqual(recordedActor(SYSTEM), { actor_kind: 'system', actor_id: null, actor_name: 'system', door: 'system' })
    assert.deepEqual(recordedActor(systemActor('import')).door, 'import')
    assert.deepEqual(recordedActor(automationActor({ type: 'sla', id: 3, name: 'Escalate' })), { actor_kind: 'automation', actor_id: null, actor_name: 'sla:Escalate', door: 'automation' })
    assert.deepEqual(recordedActor(mailSenderActor('x@example.com', user, false)), { actor_kind: 'mail', actor_id: null, actor_name: 'x@example.com', door: 'mail' })
    assert.deepEqual(recordedActor(mailSenderActor('x@example.com', user, true)).actor_id, 7)
  })
})

eachDialect((dialect) => {
  describe(`ticket history (${dialect})`, () => {
    it('records each change with its actor and door, in order: status, assignee, category, privacy, title, a closing reply, a rating', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const id = await aliceTicket(h, d)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${id}`, token: d.admin.token, payload: { status: 2 } }), 200)
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${id}/agents`, token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${id}`, token: d.admin.token, payload: { category: d.sales, title: 'Refund' } }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${id}/privacy`, token: d.admin.token }), 200)
      await h.helpdesk.tickets.update(personActor(d.admin.user, 'console'), id, { category: d.billing })
      await h.helpdesk.tickets.update(personActor(d.admin.user, 'mail'), id, { status: 1 })
      await postComment(h, d.alice.token, id, { body: 'Solved, thanks.', close: true })
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${id}/satisfaction`, token: d.alice.token, payload: { rating: 'good' } }), 200)
      // Changing nothing records nothing.
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${id}`, token: d.admin.token, payload: { status: 3 } }), 200)

      const all = await entries(h, d.admin.token, id)
      assert.deepEqual(all.map((e) => [e.field, e.old_value, e.new_value, e.door, e.actor.kind, e.actor.user_id, e.public]), [
        ['status', 1, 2, 'api', 'person', d.admin.user.id, true],
        ['assignee', null, d.agent.user.id, 'api', 'person', d.admin.user.id, false],
        ['category', d.billing, d.sales, 'api', 'person', d.admin.user.id, false],
        ['title', 'Help', 'Refund', 'api', 'person', d.admin.user.id, false],
        ['private', false, true, 'api', 'person', d.admin.user.id, false],
        ['category', d.sales, d.billing, 'console', 'person', d.admin.user.id, false],
        ['status', 2, 1, 'mail', 'person', d.admin.user.id, true],
        ['status', 1, 3, 'api', 'person', d.alice.user.id, true],
        ['satisfaction', null, { rating: 'good', comment: null }, 'api', 'person', d.alice.user.id, false]
      ])
      assert.ok(all.every((e) => e.ticket_id === id && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(e.created_at)))
    })

    it('records the changes of automations and the system with their names, and nothing of a write that rolled back', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const id = await aliceTicket(h, d)
      const before = await h.store.tickets.findById(id)
      assert.ok(before !== null)
      await h.store.transaction(async (tx) => {
        const after = await tx.tickets.update(id, { status: 2 })
        assert.ok(after !== null)
        await recordTicketChanges(tx, automationActor({ type: 'sla', id: 1, name: 'First response' }), before, after)
      })
      const [entry] = await entries(h, d.admin.token, id)
      assert.deepEqual([entry.field, entry.door, entry.actor], ['status', 'automation', { kind: 'automation', user_id: null, name: 'sla:First response' }])

      // A recorder that throws rolls the update back: the ticket and its history stay as they were.
      const rows = await historyRows(h)
      h.helpdesk.events.record(async (_tx, event) => { if (event.type === TicketEventType.TicketUpdated) throw new Error('boom') })
      const failed = await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${id}`, token: d.admin.token, payload: { status: 3, category: d.sales } })
      assert.equal(failed.statusCode, 500)
      assert.equal(await historyRows(h), rows, 'no history of a write that rolled back')
      assert.equal((await h.store.tickets.findById(id))?.status, 2)
    })

    it('shows the owner only the public changes of their own tickets; others get 404 by the visibility rule', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const id = await aliceTicket(h, d)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${id}`, token: d.admin.token, payload: { status: 2, title: 'Renamed' } }), 200)
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${id}/agents`, token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)

      assert.deepEqual((await entries(h, d.alice.token, id)).map((e) => e.field), ['status'])
      assert.deepEqual((await entries(h, d.agent.token, id)).map((e) => e.field), ['status', 'title', 'assignee'])
      // Bob can read Alice's public ticket, but its history is the owner's and staff's business.
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${id}`, token: d.bob.token }), 200)
      expectStatus(await history(h, d.bob.token, id), 404)
      const other = await h.user('agent')
      expectStatus(await history(h, other.token, id), 404)
      expectStatus(await history(h, d.admin.token, 999999), 404)
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${id}/history` }), 401)
    })

    it('pages like every list, with links, a field filter and includes at a fixed number of queries', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const id = await aliceTicket(h, d)
      for (let i = 0; i < 12; i++) {
        await h.helpdesk.tickets.update(i % 2 === 0 ? d.admin.user : d.agent.user, id, { status: i % 2 === 0 ? 2 : 1, title: `Title ${i}` })
      }
      const first = expectStatus(await history(h, d.admin.token, id, '?per_page=10&include=user'), 200)
      assert.equal(first.data.length, 10)
      assert.equal(first.meta.total, 24)
      assert.match(first.links.next, /page=2/)
      assert.equal(first.data[0].user.id, d.admin.user.id)
      assert.equal(first.data[1].user.id, d.admin.user.id)
      assert.equal(first.data[2].user.id, d.agent.user.id)
      const third = expectStatus(await history(h, d.admin.token, id, '?per_page=10&page=3'), 200)
      assert.equal(third.data.length, 4)
      assert.equal(third.links.next, null)
      const newest = expectStatus(await history(h, d.admin.token, id, '?sort=-id&per_page=1&filter[field]=title'), 200)
      assert.equal(newest.data[0].new_value, 'Title 11')
      assert.equal(newest.meta.total, 12)

      const small = await h.countQueries(async () => await history(h, d.admin.token, id, '?per_page=2&include=user'))
      const large = await h.countQueries(async () => await history(h, d.admin.token, id, '?per_page=24&include=user'))
      assert.equal(expectStatus(large.result, 200).data.length, 24)
      assert.equal(large.queries, small.queries, 'the same number of queries whatever the page size')
    })

    it('records where imported tickets came from, through the import door', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const job = await h.helpdesk.imports.importFile(sampleJson, { actor: d.admin.user })
      assert.equal(job.status, 'completed', job.message ?? '')
      const imported = await h.store.knex('ticket_history').where('field', 'imported').orderBy('id') as Array<Record<string, unknown>>
      assert.equal(imported.length, 3)
      const first = imported[0]!
      assert.deepEqual([first.door, first.actor_kind, first.actor_id], ['import', 'person', d.admin.user.id])
      const value = JSON.parse(first.new_value as string)
      assert.equal(value.import_id, job.id)
      assert.equal(typeof value.external_id, 'string')
      // A second run imports nothing again, and records nothing again.
      await h.helpdesk.imports.importFile(sampleJson)
      assert.equal(Number((await h.store.knex('ticket_history').where('field', 'imported').count({ n: '*' }).first() as { n: number }).n), 3)
    })
  })
})
