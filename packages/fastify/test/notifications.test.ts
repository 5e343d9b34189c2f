import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { SYSTEM, type DomainEvent } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectUnauthenticated, expectValidation } from './http-assertions.js'
import { notificationsOf, notificationTypes } from './notification-fixtures.js'

type Person = Awaited<ReturnType<TestApp['user']>>

/** Emits `event` inside a transaction the way services do; `fail` rolls it back. */
async function emit (h: TestApp, event: DomainEvent, fail = false): Promise<void> {
  const { store, helpdesk: { events } } = h
  await events.transaction(store, async (tx) => {
    await events.emit(tx, event)
    if (fail) throw new Error('rolled back on purpose')
  })
}

async function category (h: TestApp, name = 'Billing'): Promise<{ id: number, name: string }> {
  const created = await h.helpdesk.categories.create(SYSTEM, { name })
  return { id: created.id, name: created.name }
}

function ticketEvent (type: string, actor: Person, ticket: { id: number, user_id: number, category: { id: number, name: string }, assigned_agent_id?: number | null }, extra: Record<string, unknown> = {}): DomainEvent {
  return {
    type,
    actor_id: actor.user.id,
    ticket: {
      id: ticket.id,
      title: `Ticket ${ticket.id}`,
      user_id: ticket.user_id,
      creator_id: actor.user.id,
      category_id: ticket.category.id,
      assigned_agent_id: ticket.assigned_agent_id ?? null,
      status: 1,
      private: true
    },
    category: ticket.category,
    ...extra
  }
}

eachDialect((dialect) => {
  describe(`notifications on ${dialect}`, () => {
    it('a customer note notifies administrators and agents with manage_customers, never the author', async (t) => {
      const h = await buildApp(t, dialect)
      const author = await h.user('admin')
      const otherAdmin = await h.user('admin')
      const manager = await h.user('agent')
      const plainAgent = await h.user('agent')
      const customer = await h.user('customer', { first_name: 'Ada', last_name: 'Lovelace' })
      await h.helpdesk.agents.updatePermissions(author.user, manager.user.id, { manage_customers: true })

      const res = await h.inject({ method: 'POST', url: `/api/v1/customers/${customer.user.id}/notes`, token: author.token, payload: { note: 'Called about the invoice' } })
      assert.equal(res.statusCode, 201, res.body)
      const noteId = res.json().data.id as number

      assert.deepEqual(await notificationTypes(h, author.token), [])
      assert.deepEqual(await notificationTypes(h, plainAgent.token), [])
      assert.deepEqual(await notificationTypes(h, customer.token), [])
      assert.deepEqual(await notificationTypes(h, manager.token), ['Customers.NoteAdded'])
      const [notification] = await notificationsOf(h, otherAdmin.token)
      assert.ok(notification !== undefined)
      assert.match(notification.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      assert.deepEqual(notification.data, {
        customer: { id: customer.user.id, name: 'Ada Lovelace' }, note: { id: noteId }, author_id: author.user.id
      })
      assert.equal(notification.author.id, author.user.id)
      assert.equal(notification.author.name, `${author.user.first_name} ${author.user.last_name}`)
      assert.match(notification.author.avatar, /^https:\/\//)
      assert.deepEqual(Object.keys(notification.author).sort(), ['avatar', 'id', 'name'])
      assert.equal(notification.read_at, null)
      assert.match(notification.created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    })

    it('a rolled-back change leaves no notification and reaches no subscriber; a committed one does', async (t) => {
      const seen: DomainEvent[] = []
      const h = await buildApp(t, dialect, { onEvent: (event) => { seen.push(event) } })
      const cat = await category(h)
      const admin = await h.user('admin')
      const customer = await h.user('customer')
      const event = ticketEvent('Tickets.TicketCreated', customer, { id: 11, user_id: customer.user.id, category: cat })

      await new Promise((resolve) => setImmediate(resolve))
      seen.length = 0 // the users' Customers.CustomerCreated
      await assert.rejects(emit(h, event, true), /rolled back on purpose/)
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(await notificationTypes(h, admin.token), [])
      assert.equal(seen.length, 0)

      await emit(h, event)
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(await notificationTypes(h, admin.token), ['Tickets.TicketCreated'])
      assert.deepEqual(seen.map((e) => e.type), ['Tickets.TicketCreated'])

      // The host may subscribe through the decorated services as well.
      const later: string[] = []
      const off = h.app.helpdesk.events.subscribe((e) => { later.push(e.type) })
      await emit(h, event)
      off()
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(later, ['Tickets.TicketCreated'])
    })

    it('records one event with a fixed number of queries, whatever the audience', async (t) => {
      const h = await buildApp(t, dialect)
      const cat = await category(h)
      const customer = await h.user('customer')
      const agents: Person[] = []
      for (let i = 0; i < 3; i++) agents.push(await h.user('agent'))
      const admin = await h.user('admin')
      const assign = async (): Promise<void> => {
        for (const a of agents) await h.helpdesk.agents.setCategories(admin.user, a.user.id, [cat.id])
      }
      await assign()
      const event = ticketEvent('Tickets.TicketCreated', customer, { id: 21, user_id: customer.user.id, category: cat })
      const few = await h.countQueries(async () => { await emit(h, event) })
      for (let i = 0; i < 27; i++) agents.push(await h.user('agent'))
      await assign()
      const many = await h.countQueries(async () => { await emit(h, event) })
      assert.equal(many.queries, few.queries)
      assert.equal((await notificationTypes(h, agents.at(-1)!.token)).length, 1)
      assert.equal((await notificationTypes(h, agents[0]!.token)).length, 2)
    })

    it('lists, filters, views, and marks read and unread; another user\'s notification is 404', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const reader = await h.user('admin')
      const customer = await h.user('customer')
      for (let i = 0; i < 3; i++) {
        await h.helpdesk.customers.addNote(admin.user, customer.user.id, `Note ${i}`)
      }
      const all = await notificationsOf(h, reader.token)
      assert.equal(all.length, 3)
      const noteIds = all.map((n) => n.data.note.id as number)
      assert.deepEqual(noteIds, [...noteIds].sort((a, b) => b - a), 'newest first')
      const ascending = await notificationsOf(h, reader.token, '?sort=created_at')
      assert.deepEqual(ascending.map((n) => n.id), all.map((n) => n.id).reverse())
      const [first, second] = all as [Record<string, any>, Record<string, any>]

      const read = await h.inject({ method: 'POST', url: `/api/v1/notifications/${first.id}/read`, token: reader.token })
      assert.equal(read.statusCode, 200, read.body)
      assert.match(read.json().data.read_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
      assert.equal((await notificationsOf(h, reader.token, '?filter[read]=1')).length, 1)
      assert.equal((await notificationsOf(h, reader.token, '?filter[read]=0')).length, 2)
      assert.equal((await notificationsOf(h, reader.token, '?filter[read]=0,1')).length, 3)
      assert.equal((await notificationsOf(h, reader.token, '?filter[type]=Customers.NoteAdded')).length, 3)
      assert.equal((await notificationsOf(h, reader.token, '?filter[type]=Tickets.TicketCreated')).length, 0)

      const unread = await h.inject({ method: 'GET', url: '/api/v1/notifications/anything/unread', token: reader.token })
      assert.equal(unread.statusCode, 200, unread.body)
      assert.deepEqual(unread.json().data.map((n: { id: string }) => n.id), all.slice(1).map((n) => n.id))
      assert.equal(unread.json().meta.total, 2)

      const view = await h.inject({ method: 'GET', url: `/api/v1/notifications/${first.id}`, token: reader.token })
      assert.equal(view.statusCode, 200)
      assert.equal(view.json().data.id, first.id)
      const unmark = await h.inject({ method: 'DELETE', url: `/api/v1/notifications/${first.id}/read`, token: reader.token })
      assert.equal(unmark.statusCode, 200)
      assert.equal(unmark.json().data.read_at, null)

      for (const [method, url] of [['GET', ''], ['POST', '/read'], ['DELETE', '/read']] as const) {
        expectError(await h.inject({ method, url: `/api/v1/notifications/${second.id}${url}`, token: customer.token }), 404)
      }
      expectError(await h.inject({ method: 'GET', url: '/api/v1/notifications/not-a-uuid', token: reader.token }), 404)
      expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/notifications' }))

      const clear = await h.inject({ method: 'DELETE', url: '/api/v1/notifications/ignored/unread', token: reader.token })
      assert.equal(clear.statusCode, 200)
      assert.deepEqual(clear.json(), { success: true })
      assert.equal((await notificationsOf(h, reader.token, '?filter[read]=0')).length, 0)
      // The other administrator's notifications are untouched... they have none (they wrote the notes).
      assert.equal((await notificationsOf(h, admin.token)).length, 0)
    })

    it('rejects unknown filters (400) and bad filter values or pages (422)', async (t) => {
      const h = await buildApp(t, dialect)
      const user = await h.user('customer')
      const get = async (query: string) => await h.inject({ method: 'GET', url: `/api/v1/notifications?${query}`, token: user.token })
      assert.match(expectError(await get('filter[colour]=red'), 400).message, /colour.*read, type/)
      expectValidation(await get('filter[read]=maybe'), 'filter.read')
      assert.match(expectError(await get('sort=title'), 400).message, /title/)
      expectValidation(await get('page=0'), 'page')
    })

    it('pages with the same number of queries for 15 and for 100 notifications', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const reader = await h.user('admin')
      const customer = await h.user('customer')
      for (let i = 0; i < 100; i++) await h.helpdesk.customers.addNote(admin.user, customer.user.id, `Note ${i}`)
      const small = await h.countQueries(async () => await notificationsOf(h, reader.token, '?per_page=15'))
      const large = await h.countQueries(async () => await notificationsOf(h, reader.token, '?per_page=100'))
      assert.equal(small.result.length, 15)
      assert.equal(large.result.length, 100)
      assert.equal(large.queries, small.queries)
      assert.ok(large.result.every((n) => n.author?.id === admin.user.id))
    })
  })
})
