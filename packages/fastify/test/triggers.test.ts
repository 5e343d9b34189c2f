import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createHelpdesk, personActor, runTriggersOnChange, SYSTEM, TicketEventType, type DomainEvent, type ServiceContext } from '@helpdesk/core'
import { createKnexStore } from '@helpdesk/store-knex'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { mailDesk, SUPPORT } from './mail-fixtures.js'
import { desk, postComment, postTicket, recordEvents, settle, type Desk } from './ticket-fixtures.js'

async function createTrigger (h: TestApp, token: string, payload: Record<string, unknown>): Promise<any> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/triggers', token, payload }), 201).data
}

async function ticketOf (h: TestApp, d: Desk, id: number): Promise<any> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${id}?include=tags`, token: d.admin.token }), 200).data
}

async function historyOf (h: TestApp, d: Desk, id: number): Promise<any[]> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${id}/history?per_page=100`, token: d.admin.token }), 200).data
}

async function commentsOf (h: TestApp, d: Desk, id: number): Promise<any[]> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${id}/comments`, token: d.admin.token }), 200).data
}

async function count (h: TestApp, table: string): Promise<number> {
  const row = await h.store.knex(table).count({ n: '*' }).first() as { n: number | string }
  return Number(row.n)
}

const tagNames = (ticket: any): string[] => ticket.tags.map((tag: { name: string }) => tag.name).sort()

eachDialect((dialect) => {
  describe(`triggers on ${dialect}`, () => {
    it('is managed by administrators: validated, listed in order, reordered, audited', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const a = await createTrigger(h, d.admin.token, { name: 'A', events: ['ticket.created'], actions: [{ type: 'set_priority', value: 'high' }] })
      const b = await createTrigger(h, d.admin.token, { name: 'B', events: ['ticket.updated'], conditions: { all: [{ field: 'priority', operator: 'is', value: 'low' }] }, actions: [{ type: 'add_tags', value: ['Low'] }] })
      assert.deepEqual([a.position, b.position], [0, 1])
      assert.deepEqual(b.conditions, { all: [{ field: 'priority', operator: 'is', value: 'low' }], any: [] })
      assert.deepEqual(b.actions, [{ type: 'add_tags', value: ['low'] }])
      expectError(await h.inject({ method: 'POST', url: '/api/v1/triggers', token: d.agent.token, payload: { name: 'X', events: ['ticket.created'], actions: [{ type: 'set_status', value: 2 }] } }), 403)
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/triggers', token: d.admin.token, payload: { name: 'X', events: ['ticket.created'], conditions: { all: [{ field: 'priority', operator: 'is', value: 'asap' }] }, actions: [{ type: 'set_status', value: 2 }] } }), 'conditions.all.0.value')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/triggers', token: d.admin.token, payload: { name: 'X', events: ['ticket.deleted'], actions: [{ type: 'set_status', value: 2 }] } }), 'events.0')
      const reordered = expectStatus(await h.inject({ method: 'PUT', url: '/api/v1/triggers/order', token: d.admin.token, payload: { ids: [b.id] } }), 200).data
      assert.deepEqual(reordered.map((x: any) => [x.id, x.position]), [[b.id, 0], [a.id, 1]])
      const listed = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/triggers', token: d.admin.token }), 200).data
      assert.deepEqual(listed.map((x: any) => x.name), ['B', 'A'])
      const off = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/triggers/${a.id}`, token: d.admin.token, payload: { active: false } }), 200).data
      assert.equal(off.active, false)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/triggers/${b.id}`, token: d.admin.token }), 200)
      const audit = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/audit-log?per_page=100', token: d.admin.token }), 200).data
      const actions = audit.map((entry: any) => entry.action).filter((action: string) => action.startsWith('trigger.'))
      assert.deepEqual([...actions].sort(), ['trigger.created', 'trigger.created', 'trigger.deleted', 'trigger.reordered', 'trigger.updated'])
    })

    it('runs on a new ticket in its transaction: fields, tags, a note; history and events name the trigger (Zammad #4604)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const trigger = await createTrigger(h, d.admin.token, {
        name: 'Refunds',
        events: ['ticket.created'],
        conditions: { all: [{ field: 'subject', operator: 'contains_word', value: 'refund' }, { field: 'customer_email_domain', operator: 'is', value: 'example.com' }] },
        actions: [{ type: 'set_priority', value: 'urgent' }, { type: 'add_tags', value: ['refund'] }, { type: 'add_note', body: 'Refund for {{ customer.first_name }}' }, { type: 'notify', to: 'category_agents', message: 'Refund request' }]
      })
      const events = recordEvents(h)
      const created = await postTicket(h, d.alice.token, { category: d.billing, title: 'Refund please' })
      assert.equal(created.priority, 'urgent', 'the response shows the ticket as the triggers left it')
      const ticket = await ticketOf(h, d, created.id)
      assert.deepEqual(tagNames(ticket), ['refund'])
      const notes = await commentsOf(h, d, created.id)
      assert.equal(notes.length, 1)
      assert.equal(notes[0].type, 2)
      assert.equal(notes[0].user_id, null, 'written by the help desk, not a person')
      assert.match(notes[0].body, /Refund for Alice/)
      const history = await historyOf(h, d, created.id)
      const byTrigger = history.filter((entry) => entry.door === 'automation')
      assert.deepEqual(byTrigger.map((entry) => entry.field).sort(), ['priority', 'tags'])
      assert.ok(byTrigger.every((entry) => entry.actor.kind === 'automation' && entry.actor.name === 'trigger:Refunds'))
      await settle()
      const updated = events.find((e) => e.type === TicketEventType.TicketUpdated) as DomainEvent
      assert.deepEqual(updated.rule, { type: 'trigger', id: trigger.id, name: 'Refunds' })
      const bell = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/notifications', token: d.agent.token }), 200).data
      assert.ok(bell.some((n: any) => n.type === 'Triggers.Notify'), JSON.stringify(bell))
      // A ticket that does not match is left alone.
      const other = await postTicket(h, d.bob.token, { category: d.billing, title: 'Refund please' })
      assert.equal(other.priority, 'normal')
    })

    it('keeps the active triggers per instance, never stale: a change by another instance or by SQL is seen by the next change', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      // A second instance of the help desk on the same database (as two stateless servers behind a balancer).
      const otherStore = createKnexStore({ url: h.databaseUrl })
      t.after(async () => { await otherStore.close() })
      const other = createHelpdesk({ store: otherStore })
      const alice = personActor(d.alice.user, 'api')
      const tagsOfNew = async (): Promise<string[]> => {
        const created = await other.tickets.create(alice, { category: d.billing, title: 'Help', body: 'Please help.' })
        return ((await otherStore.tickets.tagsOf([created.id])).get(created.id) ?? []).map((tag) => tag.name).sort()
      }
      assert.deepEqual(await tagsOfNew(), [])
      const trigger = await createTrigger(h, d.admin.token, { name: 'Tag', events: ['ticket.created'], actions: [{ type: 'add_tags', value: ['first'] }] })
      assert.deepEqual(await tagsOfNew(), ['first'], 'a trigger created on the first instance')
      assert.deepEqual(await tagsOfNew(), ['first'], 'from the other instance\'s cache')
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/triggers/${trigger.id}`, token: d.admin.token, payload: { actions: [{ type: 'add_tags', value: ['second'] }] } }), 200)
      assert.deepEqual(await tagsOfNew(), ['second'], 'an update on the first instance')
      await h.store.knex('triggers').where('id', trigger.id).update({ active: false })
      assert.deepEqual(await tagsOfNew(), [], 'a change made in SQL')
      await h.store.knex('triggers').where('id', trigger.id).update({ active: true })
      assert.deepEqual(await tagsOfNew(), ['second'])
      // A change rolled back leaves no list behind it, even one the rolled-back transaction read.
      await assert.rejects(otherStore.transaction(async (tx) => {
        await tx.triggers.update(trigger.id, { actions: [{ type: 'add_tags', value: ['rolled-back'] }] })
        assert.deepEqual((await tx.triggers.active()).map((x) => x.actions), [[{ type: 'add_tags', value: ['rolled-back'] }]])
        throw new Error('roll back')
      }), /roll back/)
      assert.deepEqual(await tagsOfNew(), ['second'])
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/triggers/${trigger.id}`, token: d.admin.token }), 200)
      assert.deepEqual(await tagsOfNew(), [], 'a delete on the first instance')
      // With the list unchanged, a change reads one row of `trigger_list_version`, not the triggers.
      await createTrigger(h, d.admin.token, { name: 'Never', events: ['ticket.created'], conditions: { all: [{ field: 'subject', operator: 'contains_word', value: 'nothing' }] }, actions: [{ type: 'add_tags', value: ['x'] }] })
      await postTicket(h, d.alice.token, { category: d.billing })
      const second = await h.countQueries(async () => await h.store.transaction(async (tx) => await tx.triggers.active()))
      assert.equal(second.result.length, 1)
      assert.ok(second.queries <= 3, `${second.queries} queries (begin, the version, commit)`)
    })

    it('dry-runs conditions on the latest tickets without writing', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const refund = await postTicket(h, d.alice.token, { category: d.billing, title: 'Refund please' })
      await postTicket(h, d.bob.token, { category: d.billing, title: 'Refunded already' })
      const run = expectStatus(await h.inject({
        method: 'POST', url: '/api/v1/triggers/dry-run', token: d.admin.token,
        payload: { conditions: { all: [{ field: 'subject', operator: 'contains_word', value: 'refund' }] }, actions: [{ type: 'set_priority', value: 'high' }] }
      }), 200).data
      assert.equal(run.evaluated, 2)
      assert.deepEqual(run.matches, [{ ticket_id: refund.id, title: 'Refund please', changes: [{ field: 'priority', from: 'normal', to: 'high' }] }])
      assert.equal((await ticketOf(h, d, refund.id)).priority, 'normal', 'nothing written')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/triggers/dry-run', token: d.admin.token, payload: { conditions: { all: [{ field: 'nope', operator: 'is', value: 1 }] } } }), 'conditions.all.0.field')
    })

    it('assigns by strategy and calls a webhook endpoint of its own', async (t) => {
      const h = await buildApp(t, dialect, { workers: false })
      const d = await desk(h)
      // Subscribed to nothing: only the trigger's call reaches it.
      const { endpoint } = await h.helpdesk.webhooks.create(SYSTEM, { url: 'https://93.184.216.34/hook', events: ['Tickets.CommentDeleted'], active: true })
      await createTrigger(h, d.admin.token, { name: 'Route', events: ['ticket.created'], actions: [{ type: 'assign_by', strategy: 'least_open' }, { type: 'webhook', webhook_id: endpoint.id }] })
      const created = await postTicket(h, d.alice.token, { category: d.billing })
      assert.equal(created.assigned_agent_id, d.agent.user.id, 'the category\'s only available agent')
      const deliveries = await h.store.knex('webhook_deliveries').select('endpoint_id', 'event_type') as Array<{ endpoint_id: number, event_type: string }>
      assert.deepEqual(deliveries.map((row) => [Number(row.endpoint_id), row.event_type]), [[endpoint.id, 'Triggers.WebhookCalled']])
      const assigned = (await historyOf(h, d, created.id)).find((entry) => entry.field === 'assignee')
      assert.equal(assigned.actor.name, 'trigger:Route')
    })

    it('never loops: two triggers undoing each other fire once each per change (Zammad #2035)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await createTrigger(h, d.admin.token, { name: 'Up', events: ['ticket.updated'], conditions: { all: [{ field: 'priority', operator: 'is', value: 'normal' }] }, actions: [{ type: 'set_priority', value: 'high' }] })
      await createTrigger(h, d.admin.token, { name: 'Down', events: ['ticket.updated'], conditions: { all: [{ field: 'priority', operator: 'is', value: 'high' }] }, actions: [{ type: 'set_priority', value: 'normal' }] })
      const created = await postTicket(h, d.alice.token, { category: d.billing })
      const patched = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${created.id}`, token: d.admin.token, payload: { title: 'Renamed' } }), 200).data
      assert.equal(patched.priority, 'normal')
      const byTrigger = (await historyOf(h, d, created.id)).filter((entry) => entry.door === 'automation')
      assert.deepEqual(byTrigger.map((entry) => [entry.actor.name, entry.old_value, entry.new_value]), [['trigger:Up', 'normal', 'high'], ['trigger:Down', 'high', 'normal']])
    })

    it('cuts a chain at the depth limit: triggers reacting to triggers, three rounds at most', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      // In reverse order, so each round lets exactly one more link fire.
      const link = (name: string, needs: string | null, adds: string) => ({
        name,
        events: ['ticket.updated'],
        conditions: { all: [...(needs !== null ? [{ field: 'tags', operator: 'includes_all', value: [needs] }] : []), { field: 'tags', operator: 'includes_none', value: [adds] }] },
        actions: [{ type: 'add_tags', value: [adds] }]
      })
      await createTrigger(h, d.admin.token, link('D', 'c', 'd'))
      await createTrigger(h, d.admin.token, link('C', 'b', 'c'))
      await createTrigger(h, d.admin.token, link('B', 'a', 'b'))
      await createTrigger(h, d.admin.token, link('A', null, 'a'))
      const created = await postTicket(h, d.alice.token, { category: d.billing })
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${created.id}`, token: d.admin.token, payload: { priority: 'low' } }), 200)
      assert.deepEqual(tagNames(await ticketOf(h, d, created.id)), ['a', 'b', 'c'], 'the fourth link is past the depth limit')
    })

    it('leaves nothing of a rolled-back change: no ticket, no trigger note, no history', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await createTrigger(h, d.admin.token, { name: 'Note', events: ['ticket.created'], actions: [{ type: 'set_priority', value: 'high' }, { type: 'add_note', body: 'Seen' }] })
      const before = { tickets: await count(h, 'tickets'), comments: await count(h, 'comments'), history: await count(h, 'ticket_history') }
      let fail = true
      h.helpdesk.events.record(async (_tx, event) => { if (fail && event.type === TicketEventType.CommentAdded) throw new Error('disk full') })
      await assert.rejects(h.helpdesk.tickets.create(d.alice.user, { category: d.billing, title: 'Help', body: 'Please' }), /disk full/)
      assert.deepEqual({ tickets: await count(h, 'tickets'), comments: await count(h, 'comments'), history: await count(h, 'ticket_history') }, before)
      fail = false
      const ticket = await h.helpdesk.tickets.create(d.alice.user, { category: d.billing, title: 'Help', body: 'Please' })
      assert.equal(ticket.priority, 'high')
    })

    it('runs on comments by customer and staff, with the comment text and the channel', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await createTrigger(h, d.admin.token, { name: 'Angry', events: ['comment.customer'], conditions: { all: [{ field: 'comment', operator: 'contains_word', value: 'angry' }, { field: 'channel', operator: 'is', value: 'api' }] }, actions: [{ type: 'set_priority', value: 'urgent' }] })
      const created = await postTicket(h, d.alice.token, { category: d.billing })
      await postComment(h, d.admin.token, created.id, { body: 'I am angry too' })
      assert.equal((await ticketOf(h, d, created.id)).priority, 'normal', 'staff comments are not comment.customer')
      await postComment(h, d.alice.token, created.id, { body: 'I am <b>angry</b>!' })
      assert.equal((await ticketOf(h, d, created.id)).priority, 'urgent')
    })

    it('replies by mail in the ticket\'s thread, never as a second ticket (FreeScout #4947), never to auto-submitted mail, capped per recipient', async (t) => {
      const d = await mailDesk(t, dialect)
      const h = d.h
      await createTrigger(h, d.admin.token, { name: 'Ack', events: ['ticket.created'], actions: [{ type: 'reply', body: 'We got ticket #{{ ticket.id }}, {{ customer.first_name }}.' }] })
      await d.smtp({ from: 'Carol Client <carol@customers.test>', to: SUPPORT, subject: 'Printer on fire', text: 'It is burning.' })
      const tickets = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets', token: d.admin.token }), 200)
      assert.equal(tickets.meta.total, 1)
      const ticketId = tickets.data[0].id as number
      const thread = await commentsOf(h, d, ticketId)
      assert.equal(thread.length, 1)
      assert.match(thread[0].body, new RegExp(`We got ticket #${ticketId}`))
      await d.send()
      const sent = d.capture.mails.filter((mail) => mail.envelope.to.includes('carol@customers.test'))
      assert.equal(sent.length, 1, 'one acknowledgement')
      assert.match(sent[0]!.parsed.subject ?? '', new RegExp(`\\[#${ticketId}\\]`))
      assert.equal(expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets', token: d.admin.token }), 200).meta.total, 1, 'the reply made no ticket')

      // Auto-submitted mail is never answered (RFC 3834): it makes no ticket, so no trigger runs either.
      await d.post({ from: 'robot@customers.test', to: SUPPORT, subject: 'Out of office', text: 'Away.', headers: { 'Auto-Submitted': 'auto-replied' } })
      assert.equal(expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets', token: d.admin.token }), 200).meta.total, 1)
      // ...and a pass told the change came from auto-submitted mail suppresses its replies.
      const ctx = { store: h.store, events: h.helpdesk.events, clock: h.helpdesk.clock } as unknown as ServiceContext
      const ticket = (await h.store.tickets.findById(ticketId))!
      const run = await h.store.transaction(async (tx) => await runTriggersOnChange(ctx, tx, d.admin.user, { event: 'ticket.created', ticket, autoSubmitted: true }))
      assert.equal(run?.suppressed.length, 1)
      assert.equal((await commentsOf(h, d, ticketId)).length, 1)

      // 30 automatic mails to a recipient in 10 minutes: the 31st is not sent.
      await h.store.mail.createOutbound(Array.from({ length: 30 }, (_, i) => ({
        kind: 'reply', message_id: `<auto${i}@desk.test>`, ticket_id: ticketId, comment_id: null, user_id: null, author_id: null, recipient: 'dave@customers.test', subject: 'x', unsubscribe_token: null
      })))
      await d.smtp({ from: 'Dave <dave@customers.test>', to: SUPPORT, subject: 'Another', text: 'Hello.' })
      const daves = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets', token: d.admin.token }), 200).data.filter((x: any) => x.id !== ticketId)
      assert.equal(daves.length, 1)
      assert.equal((await commentsOf(h, d, daves[0].id)).length, 0, 'capped: no automatic reply')
    })
  })
})
