import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ForbiddenError, NotFoundError, parseListQuery, ticketList, ValidationError, type DomainEvent, type User } from '@helpdesk/core'
import { testDialects } from '../src/index.js'
import { comment, deskOn, grant, person, stored, ticket, type Desk } from './use-case-fixtures.js'

/** Collects the domain events delivered after commit. */
function recordEvents (d: Desk): DomainEvent[] {
  const events: DomainEvent[] = []
  d.helpdesk.events.subscribe((event) => { events.push(event) })
  return events
}

const settle = async (): Promise<void> => { await new Promise((resolve) => setImmediate(resolve)) }

/** Ids listed to `actor` with `raw` (sort, filters) on one page of 100. */
async function listed (d: Desk, actor: User, raw: Parameters<typeof parseListQuery>[1] = {}): Promise<number[]> {
  return (await d.helpdesk.tickets.list(actor, parseListQuery(ticketList, { per_page: 100, ...raw }))).items.map((item) => item.id)
}

/** Ticket use cases at the service level: the life cycle (CONTRACT §8) and who may do what to a ticket (§3). */
for (const dialect of testDialects()) {
  describe(`ticket use cases on ${dialect}`, () => {
    it('starts a ticket Open, private and unassigned, owned by the customer who raised it', async (t) => {
      const d = await deskOn(t, dialect)
      const raised = await ticket(d, d.alice, { category: d.billing })
      assert.deepEqual(
        [raised.status, raised.private, raised.assigned_agent_id, raised.agent_assigned_at, raised.user_id, raised.creator_id],
        [1, true, null, null, d.alice.id, d.alice.id]
      )
      const onBehalf = await ticket(d, d.agent, { category: d.billing, customer_id: d.bob.id })
      assert.deepEqual([onBehalf.status, onBehalf.user_id, onBehalf.creator_id], [1, d.bob.id, d.agent.id])
    })

    it('moves the ticket through its life cycle with each comment (CONTRACT §8)', async (t) => {
      const d = await deskOn(t, dialect)
      const events = recordEvents(d)
      const { id } = await ticket(d, d.alice, { category: d.billing })
      const status = async (): Promise<number> => (await stored(d, id)).status
      await comment(d, d.alice, id)
      assert.equal(await status(), 1, 'a customer reply on Open leaves it Open')
      await comment(d, d.agent, id, { type: 2, body: 'note' })
      assert.equal(await status(), 1, 'notes never change the status')
      await comment(d, d.agent, id)
      assert.equal(await status(), 2, 'staff reply on Open -> Pending')
      await comment(d, d.agent, id)
      assert.equal(await status(), 2, 'a staff reply on Pending leaves it Pending')
      await comment(d, d.agent, id, { type: 2, body: 'note' })
      assert.equal(await status(), 2, 'notes never change the status')
      await comment(d, d.alice, id)
      assert.equal(await status(), 1, 'customer reply on Pending -> Open')
      await comment(d, d.alice, id, { close: true })
      assert.equal(await status(), 3, 'close -> Closed')
      await comment(d, d.agent, id, { close: true })
      assert.equal(await status(), 3, 'close on a closed ticket is ignored')
      await comment(d, d.agent, id)
      assert.equal(await status(), 3, 'a staff reply does not reopen a closed ticket')
      await comment(d, d.alice, id)
      assert.equal(await status(), 1, 'customer reply on Closed -> Open')
      await comment(d, d.agent, id, { type: 2, close: true })
      assert.equal(await status(), 3, 'a note that closes closes')
      await settle()
      const added = events.filter((e) => e.type === 'Tickets.CommentAdded')
      assert.equal(added.length, 11)
      const first = added[0] as any
      assert.deepEqual(Object.keys(first.comment).sort(), ['id', 'preview', 'private', 'type', 'user_id'])
      assert.deepEqual([first.by_staff, first.comment.type, first.ticket.id, first.category.name], [false, 1, id, 'Billing'])
      assert.deepEqual([(added[1] as any).by_staff, (added[1] as any).comment.type], [true, 2])
      // Closing raises who closed it, once per actual close (the ignored one raises nothing).
      assert.deepEqual(events.filter((e) => e.type !== 'Tickets.CommentAdded' && e.type !== 'Tickets.TicketUpdated').map((e) => e.type), [
        'Tickets.TicketCreated', 'Tickets.TicketClosedByCustomer', 'Tickets.TicketClosedByAgent'
      ])
    })

    it('changes nothing when a comment fails: neither the status nor the comments', async (t) => {
      const d = await deskOn(t, dialect)
      const { id } = await ticket(d, d.alice, { category: d.billing })
      await comment(d, d.agent, id)
      const before = await stored(d, id)
      await assert.rejects(comment(d, d.alice, id, { attachments: ['00000000-0000-4000-8000-000000000000'] }), (error: unknown) => {
        assert.ok(error instanceof ValidationError)
        assert.deepEqual(Object.keys(error.errors), ['attachments.0'])
        return true
      })
      await assert.rejects(comment(d, d.agent, id, { body: '' }), ValidationError)
      assert.deepEqual(await stored(d, id), before)
      assert.equal(before.status, 2)
      assert.equal(await d.store.knex('comments').where('ticket_id', id).count({ n: '*' }).first().then((r) => Number(r?.n)), 1)
    })

    it('leaves updated_at, the updated_at order and updated_since where they were for a note; a reply or a closing note moves them', async (t) => {
      const d = await deskOn(t, dialect)
      const first = await ticket(d, d.alice, { category: d.billing, title: 'First' })
      const second = await ticket(d, d.alice, { category: d.billing, title: 'Second' })
      const third = await ticket(d, d.alice, { category: d.billing, title: 'Third' })
      // All three old, in order: the order and the since filter are then unambiguous.
      await d.store.knex('tickets').where('id', first.id).update({ updated_at: '2020-01-01 10:00:00' })
      await d.store.knex('tickets').where('id', second.id).update({ updated_at: '2020-01-01 11:00:00' })
      await d.store.knex('tickets').where('id', third.id).update({ updated_at: '2020-01-01 12:00:00' })
      const view = async () => ({
        updated_at: (await d.helpdesk.tickets.findById(d.alice, first.id)).updated_at,
        order: await listed(d, d.alice, { sort: '-updated_at' }),
        since: await listed(d, d.alice, { filters: { updated_since: '2021-01-01 00:00:00' } })
      })
      const before = await view()
      assert.deepEqual(before, { updated_at: '2020-01-01 10:00:00', order: [third.id, second.id, first.id], since: [] })
      await comment(d, d.agent, first.id, { type: 2, private: true, body: 'Customer sounded upset.' })
      assert.deepEqual(await view(), before, 'a note leaves no trace the owner can see')
      await comment(d, d.agent, first.id, { type: 1, body: 'On it.' })
      const after = await view()
      assert.notEqual(after.updated_at, before.updated_at)
      assert.deepEqual([after.order, after.since], [[first.id, third.id, second.id], [first.id]])
      // A note that closes the ticket moves updated_at: the status change is visible anyway.
      await comment(d, d.agent, second.id, { type: 2, private: true, body: 'Done.', close: true })
      const closed = await stored(d, second.id)
      assert.equal(closed.status, 3)
      assert.notEqual(closed.updated_at, '2020-01-01 11:00:00')
    })

    it('lets staff comment with any type, and a customer only reply, only on their own tickets', async (t) => {
      const d = await deskOn(t, dialect)
      const alices = await ticket(d, d.alice, { category: d.billing, private: false })
      const bobs = await ticket(d, d.bob, { category: d.billing })
      const outsider = await person(d.helpdesk, 'agent', 'Olga')
      await assert.rejects(comment(d, d.alice, alices.id, { type: 2, body: 'note?' }), ForbiddenError, 'customers may not add notes')
      await assert.rejects(comment(d, d.bob, alices.id, { body: 'hijack' }), ForbiddenError, 'a public ticket is read-only to other customers')
      await assert.rejects(comment(d, d.alice, bobs.id, { body: 'x' }), NotFoundError, 'another customer\'s private ticket does not exist for them')
      await assert.rejects(comment(d, outsider, bobs.id, { body: 'x' }), NotFoundError, 'an agent of other categories does not see the ticket')
      const own = await comment(d, d.alice, alices.id, { body: 'A private reply of my own', private: true })
      assert.deepEqual([own.type, own.private, own.user_id], [1, true, d.alice.id])
      const note = await comment(d, d.agent, bobs.id, { type: 2, body: 'internal' })
      const reply = await comment(d, d.admin, bobs.id, { body: 'from the admin' })
      assert.deepEqual([note.type, reply.type], [2, 1])
      await assert.rejects(comment(d, d.agent, bobs.id, { type: 3 as 1, body: 'x' }), ValidationError)
    })

    it('lets the owner change title and body, staff everything; others may not', async (t) => {
      const d = await deskOn(t, dialect)
      const events = recordEvents(d)
      const { id } = await ticket(d, d.alice, { category: d.billing, private: false })
      const renamed = await d.helpdesk.tickets.update(d.alice, id, { title: 'Renamed', body: 'More detail' })
      assert.deepEqual([renamed.title, renamed.body], ['Renamed', 'More detail'])
      for (const change of [{ category: d.sales }, { status: 3 }, { private: true }]) {
        await assert.rejects(d.helpdesk.tickets.update(d.alice, id, change), ForbiddenError, JSON.stringify(change))
      }
      await assert.rejects(d.helpdesk.tickets.update(d.bob, id, { title: 'Mine' }), ForbiddenError, 'a public ticket is read-only to others')
      await assert.rejects(d.helpdesk.tickets.update(d.alice, id, { title: '' }), ValidationError)
      const moved = await d.helpdesk.tickets.update(d.agent, id, { category: d.sales, status: 3, private: true })
      assert.deepEqual([moved.category_id, moved.status, moved.private], [d.sales, 3, true])
      // Moved out of the agent's category and unassigned: the agent no longer sees it.
      await assert.rejects(d.helpdesk.tickets.update(d.agent, id, { title: 'x' }), NotFoundError)
      await assert.rejects(d.helpdesk.tickets.update(d.admin, id, { category: 999_999 }), ValidationError)
      await assert.rejects(d.helpdesk.tickets.update(d.admin, id, { status: 4 as 1 }), ValidationError)
      assert.deepEqual(await stored(d, id).then((s) => [s.category_id, s.status]), [d.sales, 3])
      await settle()
      assert.deepEqual(events.filter((e) => e.type !== 'Tickets.TicketUpdated').map((e) => e.type), ['Tickets.TicketCreated', 'Tickets.TicketClosedByAgent'])
    })

    it('lets the owner and staff change a ticket\'s privacy, not other customers', async (t) => {
      const d = await deskOn(t, dialect)
      const { id } = await ticket(d, d.alice, { category: d.billing })
      await assert.rejects(d.helpdesk.tickets.setPrivate(d.bob, id, false), NotFoundError)
      assert.equal((await d.helpdesk.tickets.setPrivate(d.alice, id, false)).private, false)
      // Bob now sees it, read-only.
      assert.equal((await d.helpdesk.tickets.findById(d.bob, id)).id, id)
      await assert.rejects(d.helpdesk.tickets.setPrivate(d.bob, id, true), ForbiddenError)
      assert.equal((await d.helpdesk.tickets.setPrivate(d.agent, id, true)).private, true)
      await assert.rejects(d.helpdesk.tickets.findById(d.bob, id), NotFoundError)
    })

    it('lets administrators and agents with assign_tickets assign staff, who then see the ticket', async (t) => {
      const d = await deskOn(t, dialect)
      const other = await person(d.helpdesk, 'agent', 'Olga', 'Other')
      const { id } = await ticket(d, d.alice, { category: d.billing })
      await assert.rejects(d.helpdesk.tickets.findById(other, id), NotFoundError, 'not of the category')
      await assert.rejects(d.helpdesk.tickets.assign(d.agent, id, other.id), ForbiddenError)
      await assert.rejects(d.helpdesk.tickets.assign(d.alice, id, other.id), ForbiddenError)
      await assert.rejects(d.helpdesk.tickets.assign(d.admin, id, d.bob.id), ValidationError, 'customers are not agents')
      const banned = await person(d.helpdesk, 'agent', 'Barred')
      await d.store.users.update(banned.id, { status: 3 })
      await assert.rejects(d.helpdesk.tickets.assign(d.admin, id, banned.id), ValidationError, 'banned staff cannot be assigned')
      await assert.rejects(d.helpdesk.tickets.assign(d.admin, id, 999_999), ValidationError)
      assert.equal((await stored(d, id)).assigned_agent_id, null)
      const assigned = await d.helpdesk.tickets.assign(d.admin, id, other.id)
      assert.equal(assigned.assigned_agent_id, other.id)
      assert.match(assigned.agent_assigned_at ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
      assert.equal((await d.helpdesk.tickets.findById(other, id)).id, id, 'the assigned agent sees a ticket outside their categories')
      const agent = await grant(d, d.agent, 'assign_tickets')
      assert.equal((await d.helpdesk.tickets.assign(agent, id, agent.id)).assigned_agent_id, agent.id)
    })

    it('lets administrators and agents with delete_tickets delete a ticket with its comments', async (t) => {
      const d = await deskOn(t, dialect)
      const { id } = await ticket(d, d.alice, { category: d.billing })
      const reply = await comment(d, d.agent, id)
      await assert.rejects(d.helpdesk.tickets.delete(d.alice, id), ForbiddenError)
      await assert.rejects(d.helpdesk.tickets.delete(d.agent, id), ForbiddenError)
      await assert.rejects(d.helpdesk.tickets.delete(d.bob, id), NotFoundError)
      assert.ok(await d.store.tickets.findById(id))
      const agent = await grant(d, d.agent, 'delete_tickets')
      await d.helpdesk.tickets.delete(agent, id)
      assert.equal(await d.store.tickets.findById(id), null)
      assert.equal(await d.store.comments.findById(reply.id), null)
      await assert.rejects(d.helpdesk.tickets.delete(d.admin, id), NotFoundError)
    })

    it('lets a comment\'s author and administrators edit, hide or delete it; colleagues and the ticket\'s owner may not', async (t) => {
      const d = await deskOn(t, dialect)
      const colleague = await person(d.helpdesk, 'agent', 'Colin')
      await d.helpdesk.agents.setCategories(d.admin, colleague.id, [d.billing])
      const { id } = await ticket(d, d.alice, { category: d.billing })
      const reply = await comment(d, d.agent, id)
      await assert.rejects(d.helpdesk.comments.update(colleague, reply.id, 'rewritten'), ForbiddenError)
      await assert.rejects(d.helpdesk.comments.update(d.alice, reply.id, 'rewritten'), ForbiddenError)
      await assert.rejects(d.helpdesk.comments.update(d.bob, reply.id, 'rewritten'), NotFoundError)
      await assert.rejects(d.helpdesk.comments.setPrivate(colleague, reply.id, true), ForbiddenError)
      await assert.rejects(d.helpdesk.comments.delete(colleague, reply.id), ForbiddenError)
      assert.equal((await d.helpdesk.comments.update(d.agent, reply.id, 'Edited')).body, 'Edited')
      assert.equal((await d.helpdesk.comments.setPrivate(d.admin, reply.id, true)).private, true)
      assert.equal((await d.helpdesk.comments.setPrivate(d.agent, reply.id, false)).private, false)
      const own = await comment(d, d.alice, id, { body: 'mine' })
      assert.equal((await d.helpdesk.comments.update(d.alice, own.id, 'mine, edited')).body, 'mine, edited')
      await d.helpdesk.comments.delete(d.agent, reply.id)
      await d.helpdesk.comments.delete(d.admin, own.id)
      assert.deepEqual([await d.store.comments.findById(reply.id), await d.store.comments.findById(own.id)], [null, null])
    })
  })
}
