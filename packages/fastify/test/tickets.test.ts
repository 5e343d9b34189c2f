import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'
import { desk, grant, postComment, postTicket, recordEvents, settle, storedFiles, uploadId } from './ticket-fixtures.js'

const TICKET_KEYS = [
  'additional', 'agent_assigned_at', 'assigned_agent_id', 'body', 'category_id', 'created_at', 'id', 'merged_into_id', 'priority', 'private', 'status', 'title',
  'updated_at', 'user_id'
]

eachDialect((dialect) => {
  describe(`tickets on ${dialect}`, () => {
    describe('POST /tickets', () => {
      it('lets a customer raise their own ticket: Open, private, unassigned, with the resource shape', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const events = recordEvents(h)
        expectUnauthenticated(await h.inject({ method: 'POST', url: '/api/v1/tickets', payload: { category: d.billing, title: 'x', body: 'y' } }))
        expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/tickets' }))
        // A customer cannot raise a ticket for someone else: customer_id is ignored.
        const ticket = await postTicket(h, d.alice.token, { category: d.billing, title: 'Invoice', body: 'Wrong amount', customer_id: d.bob.user.id })
        assert.deepEqual(keysOf(ticket), TICKET_KEYS)
        assert.deepEqual(
          { user_id: ticket.user_id, status: ticket.status, private: ticket.private, assigned_agent_id: ticket.assigned_agent_id, agent_assigned_at: ticket.agent_assigned_at, additional: ticket.additional, category_id: ticket.category_id },
          { user_id: d.alice.user.id, status: 1, private: true, assigned_agent_id: null, agent_assigned_at: null, additional: { fields: {} }, category_id: d.billing }
        )
        assert.match(ticket.created_at, DATETIME)
        const viewed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}?include=user,creator`, token: d.alice.token }), 200).data
        assert.equal(viewed.user.id, d.alice.user.id)
        assert.equal(viewed.creator.id, d.alice.user.id)
        await settle()
        assert.deepEqual(events.map((e) => e.type), ['Tickets.TicketCreated'])
        const created = events[0] as any
        assert.deepEqual({ actor: created.actor_id, ticket: created.ticket.id, category: created.category }, { actor: d.alice.user.id, ticket: ticket.id, category: { id: d.billing, name: 'Billing' } })
      })

      it('lets staff raise a ticket for a customer by customer_id, its alias customer, or email', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const events = recordEvents(h)
        const byId = await postTicket(h, d.agent.token, { category: d.billing, customer_id: d.alice.user.id, private: false })
        const byAlias = await postTicket(h, d.agent.token, { category: d.billing, customer: d.bob.user.id })
        const byEmail = await postTicket(h, d.admin.token, { category: d.sales, email: 'ALICE.liddell@example.com' })
        assert.deepEqual([byId.user_id, byAlias.user_id, byEmail.user_id], [d.alice.user.id, d.bob.user.id, d.alice.user.id])
        assert.equal(byId.private, false)
        const viewed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${byId.id}?include=user,creator`, token: d.admin.token }), 200).data
        assert.deepEqual([viewed.user.id, viewed.creator.id], [d.alice.user.id, d.agent.user.id])
        await settle()
        assert.deepEqual(events.map((e) => e.type), [
          'Tickets.TicketCreated', 'Tickets.TicketCreatedByAgent', 'Tickets.TicketCreated', 'Tickets.TicketCreatedByAgent',
          'Tickets.TicketCreated', 'Tickets.TicketCreatedByAgent'
        ])
      })

      it('creates an Unconfirmed customer without a usable password for an unknown email, in the same transaction', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const ticket = await postTicket(h, d.agent.token, { category: d.billing, email: 'new.person@example.org', first_name: 'New', last_name: 'Person' })
        const owner = await h.store.users.findByEmail('new.person@example.org')
        assert.ok(owner !== null)
        assert.deepEqual([owner.id, owner.role, owner.status, owner.first_name, owner.last_name], [ticket.user_id, 3, 2, 'New', 'Person'])
        assert.equal(await h.store.users.findPasswordHash(owner.id), null)
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'new.person@example.org', password: '' } }), 'password')
        // A failing ticket creates no customer: nothing is written halfway.
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.agent.token, payload: { category: 999, title: 'x', body: 'y', email: 'ghost@example.org' } }), 'category')
        assert.equal(await h.store.users.findByEmail('ghost@example.org'), null)
      })

      it('reports every invalid field at once (422) and writes nothing', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.alice.token, payload: {} }), 'category', 'title', 'body')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.alice.token, payload: { category: d.billing, title: 'x'.repeat(251), body: 'y' } }), 'title')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.alice.token, payload: { category: 12345, title: 'ok', body: '<script>alert(1)</script>' } }), 'category', 'body')
        // Staff must name the customer; a staff email or a non-customer id is refused.
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.agent.token, payload: { category: d.billing, title: 'x', body: 'y' } }), 'email')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.agent.token, payload: { category: d.billing, title: 'x', body: 'y', email: d.admin.user.email } }), 'email')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.agent.token, payload: { category: d.billing, title: 'x', body: 'y', customer_id: d.admin.user.id } }), 'customer_id')
        // Attachments must be the caller's own, unlinked uploads.
        const bobs = await uploadId(h, d.bob.token)
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.alice.token, payload: { category: d.billing, title: 'x', body: 'y', attachments: [bobs, '00000000-0000-4000-8000-000000000000'] } }), 'attachments.0', 'attachments.1')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.alice.token, payload: { category: d.billing, title: 'x', body: 'y', attachments: ['not-a-uuid'] } }), 'attachments.0')
        // Custom-field answers go through the category's fields: this category has none.
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/tickets', token: d.alice.token, payload: { category: d.billing, title: 'x', body: 'y', fields: { 99: 'x' } } }), 'fields.99')
        const page = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets', token: d.admin.token }), 200)
        assert.equal(page.meta.total, 0)
      })

      it('keeps the purchase code in additional, searchable, and shows it only to the owner and staff', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const ticket = await postTicket(h, d.alice.token, { category: d.billing, private: false, purchase_code: ' PC-1234-ABCD ' })
        assert.deepEqual(ticket.additional, { fields: {}, purchase_code: 'PC-1234-ABCD' })
        const asStaff = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: d.agent.token }), 200).data
        assert.equal(asStaff.additional.purchase_code, 'PC-1234-ABCD')
        const asOther = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: d.bob.token }), 200).data
        assert.deepEqual(asOther.additional, { fields: {} })
        const listed = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets', token: d.bob.token }), 200).data
        assert.deepEqual(listed.map((x: any) => x.additional), [{ fields: {} }])
      })

      it('never returns scripts or event handlers from ticket bodies and titles', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const ticket = await postTicket(h, d.alice.token, {
          category: d.billing,
          title: 'Hi <script>alert(1)</script><b>there</b>',
          body: '<p>Look <img src=x onerror=alert(1)> <a href="javascript:alert(1)">here</a></p><script>alert(2)</script><b>bold</b>'
        })
        const responses = [
          JSON.stringify(ticket),
          (await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token })).body,
          (await h.inject({ method: 'GET', url: '/api/v1/tickets', token: d.alice.token })).body
        ]
        for (const body of responses) {
          assert.doesNotMatch(body, /<script|onerror|javascript:/i)
        }
        assert.equal(ticket.title, 'Hi &lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;there&lt;/b&gt;', 'a title is text: kept, never markup (issue 35)')
        assert.match(ticket.body, /<b>bold<\/b>/)
        assert.match(ticket.body, /<img src="x" \/>|<img src="x">/)
        const updated = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, payload: { body: '<p onclick="x()">new</p><script>1</script>' } }), 200).data
        assert.equal(updated.body, '<p>new</p>')
      })
    })

    describe('POST|PATCH /tickets/{id}', () => {
      it('lets the owner change title and body (POST and PATCH), but not the category (403)', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const ticket = await postTicket(h, d.alice.token, { category: d.billing })
        const posted = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, payload: { title: 'Renamed' } }), 200).data
        assert.deepEqual([posted.title, posted.body], ['Renamed', 'Please help.'])
        const patched = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, payload: { body: 'More detail' } }), 200).data
        assert.deepEqual([patched.title, patched.body], ['Renamed', 'More detail'])
        expectError(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, payload: { category: d.sales } }), 403)
        expectError(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, payload: { status: 3 } }), 403)
        expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, payload: { title: '' } }), 'title')
      })

      it('lets staff change category, status and privacy; bad values are 422', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const events = recordEvents(h)
        const ticket = await postTicket(h, d.alice.token, { category: d.billing })
        const moved = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.admin.token, payload: { category: d.sales, status: 3, private: false } }), 200).data
        assert.deepEqual([moved.category_id, moved.status, moved.private], [d.sales, 3, false])
        expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.admin.token, payload: { category: 999 } }), 'category')
        expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.admin.token, payload: { status: 4 } }), 'status')
        expectError(await h.inject({ method: 'PATCH', url: '/api/v1/tickets/424242', token: d.admin.token, payload: { title: 'x' } }), 404)
        await settle()
        assert.deepEqual(events.filter((e) => e.type !== 'Tickets.TicketUpdated').map((e) => e.type), ['Tickets.TicketCreated', 'Tickets.TicketClosedByAgent'])
      })
    })

    describe('PUT|DELETE /tickets/{id}/privacy', () => {
      it('makes a ticket public and private again: its owner and staff, not other customers', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const ticket = await postTicket(h, d.alice.token, { category: d.billing })
        const privacy = `/api/v1/tickets/${ticket.id}/privacy`
        expectError(await h.inject({ method: 'PUT', url: privacy, token: d.bob.token }), 404)
        assert.deepEqual(expectStatus(await h.inject({ method: 'PUT', url: privacy, token: d.alice.token }), 200), { success: true })
        assert.equal((await h.store.tickets.findById(ticket.id))?.private, false)
        // Bob now sees it, read-only.
        expectError(await h.inject({ method: 'DELETE', url: privacy, token: d.bob.token }), 403)
        expectError(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.bob.token, payload: { title: 'Mine' } }), 403)
        assert.deepEqual(expectStatus(await h.inject({ method: 'DELETE', url: privacy, token: d.agent.token }), 200), { success: true })
        assert.equal((await h.store.tickets.findById(ticket.id))?.private, true)
        expectError(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: d.bob.token }), 404)
      })
    })

    describe('PUT /tickets/{id}/agents', () => {
      it('assigns an agent: administrators and agents with assign_tickets; raises TicketAssigned', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const other = await h.user('agent', { first_name: 'Olga', last_name: 'Other' })
        const ticket = await postTicket(h, d.alice.token, { category: d.billing })
        const url = `/api/v1/tickets/${ticket.id}/agents`
        const events = recordEvents(h)
        expectError(await h.inject({ method: 'PUT', url, token: d.agent.token, payload: { agent: other.user.id } }), 403)
        expectError(await h.inject({ method: 'PUT', url, token: d.alice.token, payload: { agent: other.user.id } }), 403)
        expectValidation(await h.inject({ method: 'PUT', url, token: d.admin.token, payload: { agent: d.bob.user.id } }), 'agent')
        expectValidation(await h.inject({ method: 'PUT', url, token: d.admin.token, payload: {} }), 'agent')
        const banned = await h.user('agent')
        await h.store.users.update(banned.user.id, { status: 3 })
        expectValidation(await h.inject({ method: 'PUT', url, token: d.admin.token, payload: { agent: banned.user.id } }), 'agent')
        assert.deepEqual(expectStatus(await h.inject({ method: 'PUT', url, token: d.admin.token, payload: { agent: other.user.id } }), 200), { success: true })
        const assigned = await h.store.tickets.findById(ticket.id)
        assert.equal(assigned?.assigned_agent_id, other.user.id)
        assert.match(assigned?.agent_assigned_at ?? '', DATETIME)
        // The assigned agent now sees a ticket outside their categories.
        expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}`, token: other.token }), 200)
        await grant(h, d.agent, 'assign_tickets')
        expectStatus(await h.inject({ method: 'PUT', url, token: d.agent.token, payload: { agent: d.agent.user.id } }), 200)
        await settle()
        assert.deepEqual(events.filter((e) => e.type !== 'Tickets.TicketUpdated').map((e) => [e.type, (e.agent as { id: number }).id]), [
          ['Tickets.TicketAssigned', other.user.id], ['Tickets.TicketAssigned', d.agent.user.id]
        ])
        assert.deepEqual(events[0]?.agent, { id: other.user.id, first_name: 'Olga', last_name: 'Other' })
      })
    })

    describe('DELETE /tickets/{id}', () => {
      it('deletes with its comments, attachments and their files: administrators and agents with delete_tickets', async (t) => {
        const h = await buildApp(t, dialect)
        const d = await desk(h)
        const events = recordEvents(h)
        const ticket = await postTicket(h, d.alice.token, { category: d.billing, attachments: [await uploadId(h, d.alice.token)] })
        const comment = await postComment(h, d.agent.token, ticket.id, { attachments: [await uploadId(h, d.agent.token)] })
        assert.equal(storedFiles(h).length, 2)
        const url = `/api/v1/tickets/${ticket.id}`
        expectError(await h.inject({ method: 'DELETE', url, token: d.alice.token }), 403)
        expectError(await h.inject({ method: 'DELETE', url, token: d.agent.token }), 403)
        expectError(await h.inject({ method: 'DELETE', url, token: d.bob.token }), 404)
        await grant(h, d.agent, 'delete_tickets')
        assert.deepEqual(expectStatus(await h.inject({ method: 'DELETE', url, token: d.agent.token }), 200), { success: true })
        expectError(await h.inject({ method: 'GET', url, token: d.admin.token }), 404)
        expectError(await h.inject({ method: 'GET', url: `/api/v1/comments/${comment.id}`, token: d.admin.token }), 404)
        assert.equal(await h.store.comments.findById(comment.id), null)
        assert.deepEqual(storedFiles(h), [])
        await settle()
        assert.deepEqual(events.map((e) => e.type).at(-1), 'Tickets.TicketDeleted')
        expectError(await h.inject({ method: 'DELETE', url, token: d.admin.token }), 404)
      })
    })
  })
})
