import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { PERMISSION_KEYS } from '@helpdesk/core'
import { assignTicket, createCategory, createTicket } from './fixtures.js'
import { buildApp, eachDialect } from './helpers.js'
import { expectError, expectStatus, expectUnauthenticated, expectValidation, ISO_DATETIME, keysOf } from './http-assertions.js'

const AGENT_KEYS = ['avatar', 'created_at', 'email', 'first_name', 'id', 'last_login_at', 'last_name', 'role', 'status', 'timezone', 'updated_at']
const newAgent = { first_name: 'Aga', last_name: 'Kent', email: 'aga@example.com', password: 'secret123', password_confirmation: 'secret123' }
const allPermissions = (value: boolean) => Object.fromEntries(PERMISSION_KEYS.map((k) => [k, value]))

eachDialect((dialect) => {
  describe(`agents on ${dialect}`, () => {
    describe('access', () => {
      it('is for administrators only: agents and customers get 403, anonymous callers 401', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const agent = await h.user('agent')
        const customer = await h.user('customer')
        await h.store.users.update(agent.user.id, { permissions: allPermissions(true) as never })
        const id = agent.user.id
        const requests = [
          { method: 'GET', url: '/api/v1/agents' },
          { method: 'GET', url: `/api/v1/agents/${id}` },
          { method: 'POST', url: '/api/v1/agents', payload: newAgent },
          { method: 'PATCH', url: `/api/v1/agents/${id}`, payload: { first_name: 'X' } },
          { method: 'DELETE', url: `/api/v1/agents/${id}` },
          { method: 'GET', url: `/api/v1/agents/${id}/permissions` },
          { method: 'PATCH', url: `/api/v1/agents/${id}/permissions`, payload: { manage_customers: true } },
          { method: 'GET', url: `/api/v1/agents/${id}/notifications` },
          { method: 'PATCH', url: `/api/v1/agents/${id}/notifications`, payload: { new_ticket: false } },
          { method: 'GET', url: `/api/v1/agents/${id}/categories` },
          { method: 'PUT', url: `/api/v1/agents/${id}/categories`, payload: { categories: [] } }
        ] as const
        for (const request of requests) {
          expectUnauthenticated(await h.inject({ ...request }))
          expectError(await h.inject({ ...request, token: customer.token }), 403)
          expectError(await h.inject({ ...request, token: agent.token }), 403)
        }
        expectStatus(await h.inject({ method: 'GET', url: '/api/v1/agents', token: admin.token }), 200)
      })
    })

    describe('CRUD', () => {
      it('creates an Active agent with ISO 8601 dates and lists administrators with role 1', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        await h.user('customer')
        const created = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/agents', token: admin.token, payload: newAgent }), 201).data
        assert.deepEqual(keysOf(created), AGENT_KEYS)
        assert.equal(created.role, 2)
        assert.equal(created.status, 1)
        assert.equal(created.timezone, null)
        assert.equal(created.last_login_at, null)
        assert.match(created.created_at, ISO_DATETIME)
        assert.match(created.updated_at, ISO_DATETIME)

        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/agents', token: admin.token }), 200)
        assert.deepEqual(list.data.map((a: { id: number, role: number }) => [a.id, a.role]), [[admin.user.id, 1], [created.id, 2]])
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents/${created.id}`, token: admin.token }), 200), { data: created })

        expectStatus(await h.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'aga@example.com', password: 'secret123' } }), 200)
        const afterLogin = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents/${created.id}`, token: admin.token }), 200).data
        assert.match(afterLogin.last_login_at, ISO_DATETIME)
      })

      it('validates a new agent like a customer: names, email, password and confirmation', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin', { email: 'taken@example.com' })
        const post = async (payload: object) => await h.inject({ method: 'POST', url: '/api/v1/agents', token, payload: { ...newAgent, ...payload } })
        expectValidation(await post({ first_name: 'f'.repeat(251) }), 'first_name')
        expectValidation(await post({ password: 'short', password_confirmation: 'short' }), 'password')
        expectValidation(await post({ password_confirmation: 'different' }), 'password')
        expectValidation(await post({ password_confirmation: undefined }), 'password')
        expectValidation(await post({ email: 'TAKEN@example.com' }), 'email')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/agents', token, payload: {} }), 'first_name', 'last_name', 'email', 'password')
      })

      it('updates partially with PATCH, POST and PUT, including a valid timezone', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const { user } = await h.user('agent', { first_name: 'Old', last_name: 'Name' })
        const url = `/api/v1/agents/${user.id}`
        const patched = expectStatus(await h.inject({ method: 'PATCH', url, token: admin.token, payload: { first_name: 'New' } }), 200).data
        assert.deepEqual([patched.first_name, patched.last_name], ['New', 'Name'])
        assert.equal(expectStatus(await h.inject({ method: 'POST', url, token: admin.token, payload: { last_name: 'Post' } }), 200).data.last_name, 'Post')
        const put = expectStatus(await h.inject({ method: 'PUT', url, token: admin.token, payload: { timezone: 'Europe/Berlin' } }), 200).data
        assert.deepEqual([put.first_name, put.last_name, put.timezone], ['New', 'Post', 'Europe/Berlin'])
        expectValidation(await h.inject({ method: 'PATCH', url, token: admin.token, payload: { timezone: 'Mars/Olympus' } }), 'timezone')
        expectValidation(await h.inject({ method: 'PATCH', url, token: admin.token, payload: { new_password: 'secret999' } }), 'new_password')
        const customer = await h.user('customer')
        expectError(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${customer.user.id}`, token: admin.token, payload: { first_name: 'X' } }), 404)
      })

      it('deletes an agent, but not the caller themself', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const agent = await h.user('agent')
        expectValidation(await h.inject({ method: 'DELETE', url: `/api/v1/agents/${admin.user.id}`, token: admin.token }), 'id')
        assert.deepEqual(expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/agents/${agent.user.id}`, token: admin.token }), 200), { success: true })
        expectError(await h.inject({ method: 'GET', url: `/api/v1/agents/${agent.user.id}`, token: admin.token }), 404)
        expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/auth/me', token: agent.token }))
      })
    })

    describe('permissions', () => {
      it('reads and sets flags with PATCH, PUT and POST; unknown keys are 422 on that key and nothing changes', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const agent = await h.user('agent')
        const url = `/api/v1/agents/${agent.user.id}/permissions`
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200), { data: allPermissions(false) })

        const patched = expectStatus(await h.inject({ method: 'PATCH', url, token: admin.token, payload: { manage_customers: true } }), 200)
        assert.deepEqual(patched, { data: { ...allPermissions(false), manage_customers: true } })
        expectStatus(await h.inject({ method: 'PUT', url, token: admin.token, payload: { view_all_tickets: true } }), 200)
        expectStatus(await h.inject({ method: 'POST', url, token: admin.token, payload: { manage_customers: false, delete_tickets: true } }), 200)
        const expected = { ...allPermissions(false), view_all_tickets: true, delete_tickets: true }
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200), { data: expected })

        expectValidation(await h.inject({ method: 'PATCH', url, token: admin.token, payload: { manage_articles: true, fly: true } }), 'fly')
        expectValidation(await h.inject({ method: 'PATCH', url, token: admin.token, payload: { manage_articles: 'yes' } }), 'manage_articles')
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200), { data: expected })
      })

      it('grants what it says: manage_customers opens /customers to the agent', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const agent = await h.user('agent')
        expectError(await h.inject({ method: 'GET', url: '/api/v1/customers', token: agent.token }), 403)
        expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.user.id}/permissions`, token: admin.token, payload: { manage_customers: true } }), 200)
        expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers', token: agent.token }), 200)
      })

      it('reports every permission as held by an administrator', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const other = await h.user('admin')
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents/${other.user.id}/permissions`, token: admin.token }), 200), { data: allPermissions(true) })
      })
    })

    describe('notification settings', () => {
      it('reads and partially changes them with PATCH, PUT and POST', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const agent = await h.user('agent')
        const url = `/api/v1/agents/${agent.user.id}/notifications`
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200), { data: { new_ticket: true, new_comment: true, ticket_reassigned: true } })
        expectStatus(await h.inject({ method: 'PATCH', url, token: admin.token, payload: { new_ticket: false } }), 200)
        expectStatus(await h.inject({ method: 'PUT', url, token: admin.token, payload: { new_comment: false } }), 200)
        const posted = expectStatus(await h.inject({ method: 'POST', url, token: admin.token, payload: { new_ticket: true } }), 200)
        assert.deepEqual(posted, { data: { new_ticket: true, new_comment: false, ticket_reassigned: true } })
        expectValidation(await h.inject({ method: 'PATCH', url, token: admin.token, payload: { new_comment: 1 } }), 'new_comment')
      })
    })

    describe('categories of an agent', () => {
      it('sets, lists, replaces and clears them', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const agent = await h.user('agent')
        const billing = await createCategory(h, admin.token, 'Billing')
        const sales = await createCategory(h, admin.token, 'Sales')
        const url = `/api/v1/agents/${agent.user.id}/categories`
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200).data, [])

        assert.deepEqual(expectStatus(await h.inject({ method: 'PUT', url, token: admin.token, payload: { categories: [sales, billing, sales] } }), 200), { success: true })
        const listed = expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200)
        assert.deepEqual(keysOf(listed), ['data', 'links', 'meta'], 'paged like every list')
        assert.equal(listed.meta.total, 2)
        const first = expectStatus(await h.inject({ method: 'GET', url: `${url}?per_page=1&sort=-name`, token: admin.token }), 200)
        assert.deepEqual(first.data.map((c: { name: string }) => c.name), ['Sales'], 'sorted by the categories list\'s sorts')
        assert.match(first.links.next, /page=2/)
        const counted = expectStatus(await h.inject({ method: 'GET', url: `${url}?include=agents-count&filter[name]=bill`, token: admin.token }), 200)
        assert.deepEqual(counted.data.map((c: { name: string, agents_count: number }) => [c.name, c.agents_count]), [['Billing', 1]])
        assert.deepEqual(listed.data.map((c: { name: string }) => c.name), ['Billing', 'Sales'])
        assert.deepEqual(keysOf(listed.data[0]), ['created_at', 'id', 'marketplace_item_id', 'name', 'order', 'purchase_verification', 'thumbnail', 'updated_at'])

        expectStatus(await h.inject({ method: 'PUT', url, token: admin.token, payload: { categories: [sales] } }), 200)
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200).data.map((c: { id: number }) => c.id), [sales])
        expectStatus(await h.inject({ method: 'PUT', url, token: admin.token, payload: { categories: [] } }), 200)
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200).data, [])
      })

      it('rejects unknown category ids on categories.N and keeps the old assignment', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const agent = await h.user('agent')
        const billing = await createCategory(h, admin.token, 'Billing')
        const url = `/api/v1/agents/${agent.user.id}/categories`
        expectStatus(await h.inject({ method: 'PUT', url, token: admin.token, payload: { categories: [billing] } }), 200)
        expectValidation(await h.inject({ method: 'PUT', url, token: admin.token, payload: { categories: [billing, 999999, 888888] } }), 'categories.1', 'categories.2')
        expectValidation(await h.inject({ method: 'PUT', url, token: admin.token, payload: { categories: ['x'] } }), 'categories.0')
        expectValidation(await h.inject({ method: 'PUT', url, token: admin.token, payload: {} }), 'categories')
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200).data.map((c: { id: number }) => c.id), [billing])
        const customer = await h.user('customer')
        expectError(await h.inject({ method: 'PUT', url: `/api/v1/agents/${customer.user.id}/categories`, token: admin.token, payload: { categories: [billing] } }), 404)
      })
    })

    describe('includes', () => {
      it('counts notes written and categories assigned, on the list and the view', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const agent = await h.user('agent')
        await h.store.users.update(agent.user.id, { permissions: { ...allPermissions(false), manage_customers: true } as never })
        const customer = await h.user('customer')
        for (const token of [agent.token, agent.token, admin.token]) {
          expectStatus(await h.inject({ method: 'POST', url: `/api/v1/customers/${customer.user.id}/notes`, token, payload: { note: 'n' } }), 201)
        }
        const a = await createCategory(h, admin.token, 'A')
        const b = await createCategory(h, admin.token, 'B')
        expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/agents/${agent.user.id}/categories`, token: admin.token, payload: { categories: [a, b] } }), 200)

        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/agents?include=notes-count,assigned-categories-count', token: admin.token }), 200)
        assert.deepEqual(
          list.data.map((x: Record<string, number>) => [x.id, x.notes_count, x.assigned_categories_count]),
          [[admin.user.id, 1, 0], [agent.user.id, 2, 2]]
        )
        const one = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents/${agent.user.id}?include=assigned-categories-count`, token: admin.token }), 200)
        assert.equal(one.data.assigned_categories_count, 2)
        assert.ok(!('notes_count' in one.data))
      })
    })

    describe('ticket counts', () => {
      it('counts the tickets assigned to each agent that are Closed (resolved) and not Closed (unresolved)', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const busy = await h.user('agent')
        const idle = await h.user('agent')
        const customer = await h.user('customer')
        const category = await createCategory(h, admin.token, 'Support')
        for (const closed of [false, false, true]) {
          await assignTicket(h, admin.user, await createTicket(h, admin.user, customer.user, category), busy.user, closed)
        }
        await assignTicket(h, admin.user, await createTicket(h, admin.user, customer.user, category), admin.user, true)
        await createTicket(h, admin.user, customer.user, category)

        const include = 'include=unresolved-tickets-count,resolved-tickets-count'
        const list = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents?${include}`, token: admin.token }), 200)
        assert.deepEqual(
          list.data.map((x: Record<string, number>) => [x.id, x.unresolved_tickets_count, x.resolved_tickets_count]),
          [[admin.user.id, 0, 1], [busy.user.id, 2, 1], [idle.user.id, 0, 0]]
        )
        const one = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents/${busy.user.id}?${include}`, token: admin.token }), 200)
        assert.deepEqual([one.data.unresolved_tickets_count, one.data.resolved_tickets_count], [2, 1])
      })
    })

    describe('filters', () => {
      it('filters partially on names and email and exactly on status', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin', { first_name: 'Root', last_name: 'Admin', email: 'root@corp.test' })
        const agent = await h.user('agent', { first_name: 'Penny', last_name: 'Lane', email: 'penny@corp.test' })
        await h.user('customer', { first_name: 'Penny', last_name: 'Customer' })
        await h.store.users.update(agent.user.id, { status: 3 })
        const ids = async (query: string) => expectStatus(await h.inject({ method: 'GET', url: `/api/v1/agents?${query}`, token: admin.token }), 200).data.map((x: { id: number }) => x.id)
        assert.deepEqual(await ids('filter[first_name]=PEN'), [agent.user.id])
        assert.deepEqual(await ids('filter[last_name]=adm'), [admin.user.id])
        assert.deepEqual(await ids('filter[email]=corp.TEST'), [admin.user.id, agent.user.id])
        assert.deepEqual(await ids('filter[status]=3'), [agent.user.id])
        assert.deepEqual(await ids('filter[status]=1,3'), [admin.user.id, agent.user.id])
      })
    })
  })
})
