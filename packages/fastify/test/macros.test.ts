import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { TicketEventType, type DomainEvent } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk, grant, postTicket, recordEvents, settle, type Desk } from './ticket-fixtures.js'

async function createMacro (h: TestApp, token: string, payload: Record<string, unknown>): Promise<any> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/macros', token, payload }), 201).data
}

async function comments (h: TestApp, d: Desk, ticketId: number): Promise<any[]> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticketId}/comments`, token: d.admin.token }), 200).data
}

async function ticketOf (h: TestApp, d: Desk, ticketId: number): Promise<any> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticketId}?include=tags`, token: d.admin.token }), 200).data
}

eachDialect((dialect) => {
  describe(`macros on ${dialect}`, () => {
    it('keeps shared macros for all staff (administrators manage them) and personal ones for their owner', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const shared = await createMacro(h, d.admin.token, { name: 'Escalate', shared: true, actions: [{ type: 'set_priority', value: 'urgent' }] })
      assert.equal(shared.shared, true)
      expectError(await h.inject({ method: 'POST', url: '/api/v1/macros', token: d.agent.token, payload: { name: 'Mine shared', shared: true, actions: [{ type: 'set_status', value: 2 }] } }), 403)
      const mine = await createMacro(h, d.agent.token, { name: 'Pending', actions: [{ type: 'set_status', value: 2 }] })
      const adminOwn = await createMacro(h, d.admin.token, { name: 'Admin own', actions: [{ type: 'set_status', value: 3 }] })
      const names = async (token: string) => expectStatus(await h.inject({ method: 'GET', url: '/api/v1/macros', token }), 200).data.map((m: { name: string }) => m.name)
      assert.deepEqual(await names(d.agent.token), ['Escalate', 'Pending'])
      assert.deepEqual(await names(d.admin.token), ['Admin own', 'Escalate'])
      expectError(await h.inject({ method: 'GET', url: `/api/v1/macros/${adminOwn.id}`, token: d.agent.token }), 404)
      expectError(await h.inject({ method: 'PATCH', url: `/api/v1/macros/${shared.id}`, token: d.agent.token, payload: { name: 'x' } }), 403)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/macros', token: d.alice.token }), 403)
      const renamed = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/macros/${mine.id}`, token: d.agent.token, payload: { name: 'Wait for customer' } }), 200).data
      assert.equal(renamed.name, 'Wait for customer')
      const filtered = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/macros?filter[shared]=0&filter[name]=wait', token: d.agent.token }), 200)
      assert.deepEqual(filtered.data.map((m: { id: number }) => m.id), [mine.id])
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/macros/${mine.id}`, token: d.agent.token }), 200)
      assert.deepEqual(await names(d.agent.token), ['Escalate'])
    })

    it('validates actions with the rule language (422 keyed actions.N) and refuses trigger-only actions', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/macros', token: d.admin.token, payload: { name: 'Bad', actions: [{ type: 'set_status', value: 1 }, { type: 'set_priority', value: 'asap' }] } }), 'actions.1.value')
      expectError(await h.inject({ method: 'POST', url: '/api/v1/macros', token: d.admin.token, payload: { name: 'Bad', actions: [{ type: 'webhook', webhook_id: 1 }] } }), 422)
    })

    it('applies every action in one call: fields, tags, assignee, a reply with placeholders by the caller, and a note', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, title: 'Refund please' })
      const macro = await createMacro(h, d.admin.token, {
        name: 'Refund approved',
        shared: true,
        actions: [
          { type: 'set_priority', value: 'high' },
          { type: 'add_tags', value: ['Refund', 'billing'] },
          { type: 'assign', value: d.agent.user.id },
          { type: 'reply', body: '<p>Hello {{ customer.first_name }}, ticket #{{ ticket.id }} is refunded.</p>' },
          { type: 'add_note', body: 'Refund sent by {{ agent.first_name }}' },
          { type: 'set_status', value: 3 }
        ]
      })
      const events = recordEvents(h)
      const applied = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${macro.id}`, token: d.admin.token }), 200).data
      assert.equal(applied.priority, 'high')
      assert.equal(applied.status, 3, 'the status the macro sets wins over the reply\'s Pending')
      assert.equal(applied.assigned_agent_id, d.agent.user.id)
      assert.deepEqual(applied.tags.map((tag: { name: string }) => tag.name), ['billing', 'refund'])
      const thread = await comments(h, d, ticket.id)
      assert.equal(thread.length, 2)
      assert.equal(thread[0].body, `<p>Hello Alice, ticket #${ticket.id} is refunded.</p>`)
      assert.equal(thread[0].user_id, d.admin.user.id, 'the person applying is the author')
      assert.equal(thread[1].type, 2)
      assert.match(thread[1].body, /Refund sent by Gus/)
      await settle()
      const updated = events.filter((e) => e.type === TicketEventType.TicketUpdated) as DomainEvent[]
      const byMacro = updated.find((e) => (e.rule as { type: string } | undefined)?.type === 'macro') as DomainEvent
      assert.deepEqual(byMacro.rule, { type: 'macro', id: macro.id, name: 'Refund approved' })
      assert.deepEqual([...(byMacro.changes as string[])].sort(), ['assigned_agent_id', 'priority', 'status', 'tags'])
      assert.equal(byMacro.actor_id, d.admin.user.id)
      const added = events.filter((e) => e.type === TicketEventType.CommentAdded)
      assert.equal(added.length, 2)
      assert.ok(added.every((e) => (e.rule as { name: string }).name === 'Refund approved'))
      assert.ok(events.some((e) => e.type === TicketEventType.TicketAssigned))
      // History names the macro beside the person who applied it.
      const history = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/history?per_page=50`, token: d.admin.token }), 200).data
      const byRule = history.filter((entry: any) => entry.actor.name === 'macro:Refund approved')
      assert.deepEqual(byRule.map((entry: any) => entry.field).sort(), ['assignee', 'priority', 'status', 'tags'])
      assert.ok(byRule.every((entry: any) => entry.actor.user_id === d.admin.user.id && entry.actor.kind === 'person'))
      assert.deepEqual(byRule.find((entry: any) => entry.field === 'tags').new_value, ['billing', 'refund'])
    })

    it('answers with the due times the change made: a category move re-matches the SLA policy, a reply pauses it', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      for (const [category, minutes] of [[d.billing, 480], [d.sales, 30]] as const) {
        expectStatus(await h.inject({
          method: 'POST', url: '/api/v1/sla/policies', token: d.admin.token,
          payload: { name: `P${minutes}`, conditions: { category_ids: [category] }, first_response_minutes: minutes, resolution_minutes: minutes * 4, calendar_id: 1 }
        }), 201)
      }
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const due = (t: any) => [t.first_response_due_at, t.resolution_due_at, t.sla_next_due_at]
      const created = due(await ticketOf(h, d, ticket.id))
      assert.notEqual(created[0], null)
      const move = await createMacro(h, d.admin.token, { name: 'To sales', shared: true, actions: [{ type: 'set_category', value: d.sales }] })
      const moved = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${move.id}`, token: d.admin.token }), 200).data
      const stored = due(await ticketOf(h, d, ticket.id))
      assert.notDeepEqual(stored, created, 'the sales policy is stricter')
      assert.deepEqual(due(moved), stored, 'the response carries the due times of the change, not those from before it')
      const pend = await createMacro(h, d.admin.token, { name: 'Answer, keep open', shared: true, actions: [{ type: 'set_status', value: 1 }, { type: 'reply', body: 'On it.' }, { type: 'set_priority', value: 'high' }] })
      const answered = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${pend.id}`, token: d.admin.token }), 200).data
      const afterReply = due(await ticketOf(h, d, ticket.id))
      assert.notDeepEqual(afterReply, stored, 'the reply met the first response')
      assert.deepEqual(due(answered), afterReply)
      const close = await createMacro(h, d.admin.token, { name: 'Close', shared: true, actions: [{ type: 'set_status', value: 3 }] })
      const closed = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${close.id}`, token: d.admin.token }), 200).data
      assert.deepEqual(due(closed), due(await ticketOf(h, d, ticket.id)))
      assert.equal(closed.sla_next_due_at, null, 'a closed ticket is due for nothing')
    })

    it('keeps the status a macro sets even when a reply would move it (Open stays Open)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const macro = await createMacro(h, d.admin.token, { name: 'Answer, keep open', shared: true, actions: [{ type: 'set_status', value: 1 }, { type: 'reply', body: 'Looking into it.' }] })
      const applied = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${macro.id}`, token: d.admin.token }), 200).data
      assert.equal(applied.status, 1)
      assert.equal((await ticketOf(h, d, ticket.id)).status, 1)
      const plain = await createMacro(h, d.admin.token, { name: 'Answer', shared: true, actions: [{ type: 'reply', body: 'Done.' }] })
      const answered = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${plain.id}`, token: d.admin.token }), 200).data
      assert.equal(answered.status, 2, 'without set_status a staff reply makes it Pending, as any reply does')
    })

    it('checks each action against the caller\'s rights: assigning needs assign_tickets', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const macro = await createMacro(h, d.admin.token, { name: 'Take', shared: true, actions: [{ type: 'set_priority', value: 'low' }, { type: 'assign', value: d.agent.user.id }] })
      expectError(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${macro.id}`, token: d.agent.token }), 403)
      assert.equal((await ticketOf(h, d, ticket.id)).priority, 'normal')
      await grant(h, d.agent, 'assign_tickets')
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${macro.id}`, token: d.agent.token }), 200)
      expectError(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${macro.id}`, token: d.alice.token }), 403)
      // A ticket the agent cannot see is 404, as is another's personal macro.
      const sales = await postTicket(h, d.bob.token, { category: d.sales })
      expectError(await h.inject({ method: 'POST', url: `/api/v1/tickets/${sales.id}/macros/${macro.id}`, token: d.agent.token }), 404)
      const adminOwn = await createMacro(h, d.admin.token, { name: 'Own', actions: [{ type: 'set_status', value: 2 }] })
      expectError(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${adminOwn.id}`, token: d.agent.token }), 404)
    })

    it('is atomic: a failing action leaves no partial write', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      // The note is empty once sanitised: the comment service refuses it after the fields were written.
      const macro = await createMacro(h, d.admin.token, {
        name: 'Broken',
        shared: true,
        actions: [
          { type: 'set_priority', value: 'urgent' },
          { type: 'add_tags', value: ['vip'] },
          { type: 'reply', body: 'On it.' },
          { type: 'add_note', body: '<script>alert(1)</script>' }
        ]
      })
      const events = recordEvents(h)
      expectError(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${macro.id}`, token: d.admin.token }), 422)
      const after = await ticketOf(h, d, ticket.id)
      assert.equal(after.priority, 'normal')
      assert.deepEqual(after.tags, [])
      assert.equal(after.status, 1)
      assert.equal((await comments(h, d, ticket.id)).length, 0)
      await settle()
      assert.equal(events.length, 0, 'no event of a rolled-back change reaches subscribers')

      // An assignee banned since the macro was saved: refused before anything is written.
      const gone = await h.user('agent', { first_name: 'Gone' })
      const assign = await createMacro(h, d.admin.token, { name: 'To Gone', shared: true, actions: [{ type: 'set_priority', value: 'high' }, { type: 'assign', value: gone.user.id }] })
      await h.store.users.update(gone.user.id, { status: 3 })
      expectValidation(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/macros/${assign.id}`, token: d.admin.token }), 'actions')
      assert.equal((await ticketOf(h, d, ticket.id)).priority, 'normal')

      // A storage failure in the middle (an event recorder throwing on the reply) rolls back the fields too.
      const good = await createMacro(h, d.admin.token, { name: 'Good', shared: true, actions: [{ type: 'set_priority', value: 'urgent' }, { type: 'reply', body: 'Hi' }] })
      let fail = true
      h.helpdesk.events.record(async (_tx, event) => { if (fail && event.type === TicketEventType.CommentAdded) throw new Error('disk full') })
      await assert.rejects(h.helpdesk.macros.apply(d.admin.user, ticket.id, good.id), /disk full/)
      assert.equal((await ticketOf(h, d, ticket.id)).priority, 'normal')
      assert.equal((await comments(h, d, ticket.id)).length, 0)
      fail = false
      const applied = await h.helpdesk.macros.apply(d.admin.user, ticket.id, good.id)
      assert.equal(applied.priority, 'urgent')
    })
  })
})
