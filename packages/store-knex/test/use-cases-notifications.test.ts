import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { testDialects } from '../src/index.js'
import { comment, deskOn, grant, notificationsOf, notificationTypes, person, ticket } from './use-case-fixtures.js'

/**
 * Notification recipients (CONTRACT §11) for events raised by the services
 * themselves: never the actor, each honouring the recipient's settings.
 */
for (const dialect of testDialects()) {
  describe(`notification recipients on ${dialect}`, () => {
    it('a customer\'s new ticket notifies administrators and the category\'s agents, not the customer nor other agents', async (t) => {
      const d = await deskOn(t, dialect)
      const outsider = await person(d.helpdesk, 'agent', 'Olga')
      await d.helpdesk.agents.setCategories(d.admin, outsider.id, [d.sales])
      const raised = await ticket(d, d.alice, { category: d.billing, title: 'Broken invoice' })
      assert.deepEqual(await notificationTypes(d, d.admin), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(d, d.agent), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(d, outsider), [])
      assert.deepEqual(await notificationTypes(d, d.alice), [])
      const [created] = await notificationsOf(d, d.agent)
      assert.deepEqual(created?.data, { ticket: { id: raised.id, title: 'Broken invoice' }, category: { id: d.billing, name: 'Billing' }, author_id: d.alice.id })
      assert.equal(created?.author?.id, d.alice.id)
      assert.equal(created?.ticket_id, raised.id)
    })

    it('a ticket staff raise for a customer: TicketCreatedByAgent for the owner, TicketCreated for the others; deleting it deletes them', async (t) => {
      const d = await deskOn(t, dialect)
      const colleague = await person(d.helpdesk, 'agent', 'Colin')
      await d.helpdesk.agents.setCategories(d.admin, colleague.id, [d.billing])
      const raised = await ticket(d, d.agent, { category: d.billing, customer_id: d.alice.id, title: 'On the phone' })
      assert.deepEqual(await notificationTypes(d, d.alice), ['Tickets.TicketCreatedByAgent'])
      assert.deepEqual(await notificationTypes(d, d.admin), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(d, colleague), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(d, d.agent), [], 'never the creator')
      const [byAgent] = await notificationsOf(d, d.alice)
      assert.deepEqual(byAgent?.data, { ticket: { id: raised.id, title: 'On the phone' }, category: { id: d.billing, name: 'Billing' }, author_id: d.agent.id })
      await d.helpdesk.tickets.delete(d.admin, raised.id)
      assert.deepEqual(await notificationTypes(d, d.alice), [])
      assert.deepEqual(await notificationTypes(d, colleague), [])
    })

    it('an assignment notifies the newly assigned agent only', async (t) => {
      const d = await deskOn(t, dialect)
      const other = await person(d.helpdesk, 'agent', 'Grace', 'Hopper')
      const { id } = await ticket(d, d.alice, { category: d.billing })
      await d.helpdesk.tickets.assign(d.admin, id, other.id)
      assert.deepEqual(await notificationTypes(d, other), ['Tickets.TicketAssigned'])
      assert.deepEqual((await notificationsOf(d, other))[0]?.data.agent, { id: other.id, name: 'Grace Hopper' })
      assert.deepEqual(await notificationTypes(d, d.agent), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(d, d.alice), [])
      // Assigning oneself tells nobody.
      const agent = await grant(d, d.agent, 'assign_tickets')
      await d.helpdesk.tickets.assign(agent, id, agent.id)
      assert.deepEqual(await notificationTypes(d, d.agent), ['Tickets.TicketCreated'])
    })

    it('a customer\'s reply notifies the assigned agent, else the category\'s agents, never the customer', async (t) => {
      const d = await deskOn(t, dialect)
      const assigned = await person(d.helpdesk, 'agent', 'Asa')
      const unassigned = await ticket(d, d.alice, { category: d.billing })
      const reply = await comment(d, d.alice, unassigned.id, { body: 'Any news?' })
      assert.deepEqual(await notificationTypes(d, d.agent), ['Tickets.CommentAdded', 'Tickets.TicketCreated'])
      assert.deepEqual((await notificationsOf(d, d.agent))[0]?.data, {
        ticket: { id: unassigned.id, title: 'Help' }, category: { id: d.billing, name: 'Billing' }, author_id: d.alice.id, comment: { id: reply.id, preview: 'Any news?' }
      })
      assert.deepEqual(await notificationTypes(d, d.admin), ['Tickets.TicketCreated'], 'administrators are not told of replies')
      const other = await ticket(d, d.alice, { category: d.billing })
      await d.helpdesk.tickets.assign(d.admin, other.id, assigned.id)
      await comment(d, d.alice, other.id)
      assert.deepEqual(await notificationTypes(d, assigned), ['Tickets.CommentAdded', 'Tickets.TicketAssigned'])
      assert.equal((await notificationTypes(d, d.agent)).filter((type) => type === 'Tickets.CommentAdded').length, 1, 'the category is not told once someone is assigned')
      assert.deepEqual(await notificationTypes(d, d.alice), [])
    })

    it('a staff reply notifies the owner (private replies too) and the assigned agent; a note only the assigned agent', async (t) => {
      const d = await deskOn(t, dialect)
      const assigned = await person(d.helpdesk, 'agent', 'Asa')
      const { id } = await ticket(d, d.alice, { category: d.billing })
      await d.helpdesk.tickets.assign(d.admin, id, assigned.id)
      const count = async (who: typeof d.alice): Promise<number> => (await notificationTypes(d, who)).filter((type) => type === 'Tickets.CommentAdded').length
      await comment(d, d.agent, id, { private: true, body: 'Your card ends 4242' })
      assert.deepEqual([await count(d.alice), await count(assigned), await count(d.agent), await count(d.admin)], [1, 1, 0, 0])
      await comment(d, d.agent, id, { type: 2, body: 'internal' })
      assert.deepEqual([await count(d.alice), await count(assigned), await count(d.agent)], [1, 2, 0], 'notes never reach the customer nor the category')
      // The assigned agent answering is not told about it.
      await comment(d, assigned, id, { body: 'Done' })
      assert.deepEqual([await count(d.alice), await count(assigned)], [2, 2])
      // With nobody assigned, a note tells nobody.
      const unassigned = await ticket(d, d.alice, { category: d.billing })
      await comment(d, d.admin, unassigned.id, { type: 2, body: 'internal' })
      assert.deepEqual([await count(d.agent), await count(d.alice)], [0, 2])
    })

    it('closing notifies the owner (by staff) or the assigned agent, else the category (by the customer), whatever the settings', async (t) => {
      const d = await deskOn(t, dialect)
      const off = { new_comment: false, new_ticket: false, ticket_reassigned: false }
      await d.helpdesk.customers.updateNotificationSettings(d.admin, d.alice.id, off)
      await d.helpdesk.agents.updateNotificationSettings(d.admin, d.agent.id, off)
      const first = await ticket(d, d.alice, { category: d.billing })
      await comment(d, d.agent, first.id, { close: true })
      assert.deepEqual(await notificationTypes(d, d.alice), ['Tickets.TicketClosedByAgent'])
      await comment(d, d.alice, first.id)
      await comment(d, d.alice, first.id, { close: true })
      assert.deepEqual(await notificationTypes(d, d.agent), ['Tickets.TicketClosedByCustomer'], 'the category, as nobody is assigned')
      const assigned = await person(d.helpdesk, 'agent', 'Asa')
      const second = await ticket(d, d.alice, { category: d.billing })
      await d.helpdesk.tickets.assign(d.admin, second.id, assigned.id)
      await comment(d, d.alice, second.id, { close: true })
      assert.deepEqual(await notificationTypes(d, assigned), ['Tickets.TicketClosedByCustomer', 'Tickets.CommentAdded', 'Tickets.TicketAssigned'])
      assert.deepEqual(await notificationTypes(d, d.agent), ['Tickets.TicketClosedByCustomer'])
      // Closing through an update by staff notifies the owner too.
      const third = await ticket(d, d.alice, { category: d.billing })
      await d.helpdesk.tickets.update(d.admin, third.id, { status: 3 })
      assert.deepEqual(await notificationTypes(d, d.alice), ['Tickets.TicketClosedByAgent', 'Tickets.TicketClosedByAgent'])
    })

    it('new_ticket, new_comment and ticket_reassigned off suppress their notifications', async (t) => {
      const d = await deskOn(t, dialect)
      const quiet = await person(d.helpdesk, 'agent', 'Quinn')
      await d.helpdesk.agents.setCategories(d.admin, quiet.id, [d.billing])
      const off = { new_comment: false, new_ticket: false, ticket_reassigned: false }
      await d.helpdesk.agents.updateNotificationSettings(d.admin, quiet.id, off)
      await d.helpdesk.customers.updateNotificationSettings(d.admin, d.alice.id, off)
      const own = await ticket(d, d.alice, { category: d.billing })
      await ticket(d, d.agent, { category: d.billing, customer_id: d.alice.id })
      await d.helpdesk.tickets.assign(d.admin, own.id, quiet.id)
      await comment(d, d.alice, own.id)
      await comment(d, d.agent, own.id)
      assert.deepEqual(await notificationTypes(d, quiet), [])
      assert.deepEqual(await notificationTypes(d, d.alice), [])
      // The same events reach those who left their settings on.
      assert.deepEqual(await notificationTypes(d, d.agent), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(d, d.admin), ['Tickets.TicketCreated', 'Tickets.TicketCreated'])
    })

    it('each setting suppresses its own notifications only', async (t) => {
      const d = await deskOn(t, dialect)
      const only = async (setting: 'new_comment' | 'new_ticket' | 'ticket_reassigned') => {
        const agent = await person(d.helpdesk, 'agent', setting.replace(/_/g, ''))
        await d.helpdesk.agents.setCategories(d.admin, agent.id, [d.billing])
        await d.helpdesk.agents.updateNotificationSettings(d.admin, agent.id, { [setting]: false })
        return agent
      }
      const noComments = await only('new_comment')
      const noTickets = await only('new_ticket')
      const noAssignments = await only('ticket_reassigned')
      const first = await ticket(d, d.alice, { category: d.billing })
      await comment(d, d.alice, first.id)
      assert.deepEqual(await notificationTypes(d, noComments), ['Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(d, noTickets), ['Tickets.CommentAdded'])
      assert.deepEqual(await notificationTypes(d, noAssignments), ['Tickets.CommentAdded', 'Tickets.TicketCreated'])
      await d.helpdesk.tickets.assign(d.admin, first.id, noAssignments.id)
      await d.helpdesk.tickets.assign(d.admin, first.id, noComments.id)
      assert.deepEqual(await notificationTypes(d, noAssignments), ['Tickets.CommentAdded', 'Tickets.TicketCreated'])
      assert.deepEqual(await notificationTypes(d, noComments), ['Tickets.TicketAssigned', 'Tickets.TicketCreated'])
    })

    it('a customer note notifies administrators and agents with manage_customers, never its author', async (t) => {
      const d = await deskOn(t, dialect)
      const otherAdmin = await person(d.helpdesk, 'admin', 'Otto')
      const manager = await grant(d, await person(d.helpdesk, 'agent', 'Mia'), 'manage_customers')
      const note = await d.helpdesk.customers.addNote(d.admin, d.alice.id, 'Called about the invoice')
      assert.deepEqual(await notificationTypes(d, d.admin), [])
      assert.deepEqual(await notificationTypes(d, d.agent), [])
      assert.deepEqual(await notificationTypes(d, d.alice), [])
      assert.deepEqual(await notificationTypes(d, manager), ['Customers.NoteAdded'])
      assert.deepEqual(await notificationTypes(d, otherAdmin), ['Customers.NoteAdded'])
      assert.deepEqual((await notificationsOf(d, otherAdmin))[0]?.data, {
        customer: { id: d.alice.id, name: 'Alice Liddell' }, note: { id: note.id }, author_id: d.admin.id
      })
    })
  })
}
