import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { noPermissions } from '@helpdesk/core'
import { createCategory, createTicket } from './fixtures.js'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'

const CUSTOMER_KEYS = [
  'avatar', 'company', 'created_at', 'email', 'first_name', 'id', 'last_login_at', 'last_name', 'marketplace_username', 'status', 'updated_at'
]
const newCustomer = { first_name: 'Carla', last_name: 'Jones', email: 'carla@example.com', company: 'Acme', password: 'secret123', password_confirmation: 'secret123' }

/** An agent holding only `manage_customers`. */
async function customerManager (h: TestApp) {
  const agent = await h.user('agent')
  await h.store.users.update(agent.user.id, { permissions: { ...noPermissions(), manage_customers: true } })
  return agent
}

async function createCustomer (h: TestApp, token: string, payload: object = newCustomer) {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload }), 201).data
}

eachDialect((dialect) => {
  describe(`customers on ${dialect}`, () => {
    describe('CRUD', () => {
      it('creates an Active customer with the resource shape, and views it', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const created = await createCustomer(h, token)
        assert.deepEqual(keysOf(created), CUSTOMER_KEYS)
        assert.deepEqual(
          { first_name: created.first_name, last_name: created.last_name, email: created.email, company: created.company, status: created.status, marketplace_username: created.marketplace_username, last_login_at: created.last_login_at },
          { first_name: 'Carla', last_name: 'Jones', email: 'carla@example.com', company: 'Acme', status: 1, marketplace_username: null, last_login_at: null }
        )
        assert.match(created.created_at, DATETIME)
        assert.match(created.updated_at, DATETIME)
        assert.match(created.avatar, /^https:\/\//)
        const viewed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers/${created.id}`, token }), 200)
        assert.deepEqual(viewed, { data: created })
      })

      it('updates partially with PATCH and with POST; absent fields keep their values', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const created = await createCustomer(h, token)
        const patched = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${created.id}`, token, payload: { company: 'Globex' } }), 200).data
        assert.deepEqual({ ...patched, updated_at: undefined }, { ...created, company: 'Globex', updated_at: undefined })
        const posted = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/customers/${created.id}`, token, payload: { first_name: 'Carol', email: 'carol@example.com' } }), 200).data
        assert.equal(posted.first_name, 'Carol')
        assert.equal(posted.email, 'carol@example.com')
        assert.equal(posted.last_name, 'Jones')
        assert.equal(posted.company, 'Globex')
        const cleared = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${created.id}`, token, payload: { company: null } }), 200).data
        assert.equal(cleared.company, null)
        const trimmed = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${created.id}`, token, payload: { company: '  Initech  ' } }), 200).data
        assert.equal(trimmed.company, 'Initech')
        const blank = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${created.id}`, token, payload: { company: '   ' } }), 200).data
        assert.equal(blank.company, null, 'nullable fields are null when empty')
        expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${created.id}`, token, payload: {} }), 200)
      })

      it('deletes a customer; afterwards it is 404 everywhere', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const created = await createCustomer(h, token)
        assert.deepEqual(expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${created.id}`, token }), 200), { success: true })
        expectError(await h.inject({ method: 'GET', url: `/api/v1/customers/${created.id}`, token }), 404)
        expectError(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${created.id}`, token, payload: { company: 'X' } }), 404)
        expectError(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${created.id}`, token }), 404)
      })

      it('does not treat staff as customers', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const agent = await h.user('agent')
        for (const method of ['GET', 'DELETE'] as const) {
          expectError(await h.inject({ method, url: `/api/v1/customers/${agent.user.id}`, token: admin.token }), 404)
        }
        expectError(await h.inject({ method: 'GET', url: `/api/v1/customers/${agent.user.id}/notes`, token: admin.token }), 404)
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers', token: admin.token }), 200)
        assert.deepEqual(list.data, [])
      })
    })

    describe('validation', () => {
      it('requires the fields of a new customer and reports each on its key', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: {} }), 'first_name', 'last_name', 'email', 'password')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { ...newCustomer, email: 'nope' } }), 'email')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { ...newCustomer, company: 'c'.repeat(251) } }), 'company')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { ...newCustomer, company: 7 } }), 'company')
      })

      it('limits names to 250 characters', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const errors = expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { ...newCustomer, first_name: 'a'.repeat(251) } }), 'first_name')
        assert.match(errors.first_name?.[0] ?? '', /250/)
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { ...newCustomer, last_name: 'a'.repeat(251) } }), 'last_name')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { ...newCustomer, first_name: '   ' } }), 'first_name')
        const created = await createCustomer(h, token, { ...newCustomer, first_name: 'a'.repeat(250) })
        expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${created.id}`, token, payload: { last_name: 'b'.repeat(251) } }), 'last_name')
      })

      it('checks passwords: at least 6 characters, confirmation present and equal (on password / new_password)', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const post = async (payload: object) => await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { ...newCustomer, ...payload } })
        expectValidation(await post({ password: '12345', password_confirmation: '12345' }), 'password')
        expectValidation(await post({ password_confirmation: 'secret124' }), 'password')
        expectValidation(await post({ password_confirmation: undefined }), 'password')
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers', token }), 200)
        assert.equal(list.meta.total, 0, 'a failed create writes nothing')

        const created = await createCustomer(h, token)
        const patch = async (payload: object) => await h.inject({ method: 'PATCH', url: `/api/v1/customers/${created.id}`, token, payload })
        expectValidation(await patch({ new_password: '12345', new_password_confirmation: '12345' }), 'new_password')
        expectValidation(await patch({ new_password: 'secret999', new_password_confirmation: 'secret998' }), 'new_password')
        expectValidation(await patch({ new_password: 'secret999' }), 'new_password')
        expectValidation(await patch({ first_name: 'Changed', new_password: 'secret999' }), 'new_password')
        const after = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers/${created.id}`, token }), 200).data
        assert.equal(after.first_name, 'Carla', 'a failed update writes nothing')
        expectStatus(await patch({ new_password: 'secret999', new_password_confirmation: 'secret999' }), 200)
      })

      it('keeps emails unique across all users, ignoring case', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin', { email: 'boss@example.com' })
        const first = await createCustomer(h, token)
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: newCustomer }), 'email')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { ...newCustomer, email: 'CARLA@Example.COM' } }), 'email')
        expectValidation(await h.inject({ method: 'POST', url: '/api/v1/customers', token, payload: { ...newCustomer, email: 'Boss@example.com' } }), 'email')
        const second = await createCustomer(h, token, { ...newCustomer, email: 'other@example.com' })
        expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${second.id}`, token, payload: { email: 'Carla@example.com' } }), 'email')
        // Changing the case of one's own email is not a clash.
        const own = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${first.id}`, token, payload: { email: 'Carla@Example.com' } }), 200)
        assert.equal(own.data.email, 'Carla@Example.com')
      })
    })

    describe('GET /customers filters and includes', () => {
      async function seed (h: TestApp) {
        const admin = await h.user('admin')
        const people = [
          { first_name: 'Alice', last_name: 'Smith', email: 'alice@alpha.test', company: 'Alpha Corp' },
          { first_name: 'alicia', last_name: 'Brown', email: 'ali@beta.test', company: 'Beta_Ltd' },
          { first_name: 'Bob', last_name: 'SMITHERS', email: 'bob@alpha.test', company: null },
          { first_name: 'Zoë', last_name: 'Ng', email: 'zoe@gamma.test', company: '100% Gamma' }
        ]
        const ids: number[] = []
        for (const p of people) ids.push((await createCustomer(h, admin.token, { ...p, password: 'secret123', password_confirmation: 'secret123' })).id)
        return { admin, ids }
      }
      const names = (body: { data: Array<{ first_name: string }> }) => body.data.map((c) => c.first_name)

      it('filters partially and case-insensitively on first_name, last_name, email and company', async (t) => {
        const h = await buildApp(t, dialect)
        const { admin } = await seed(h)
        const list = async (query: string) => expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers?${query}`, token: admin.token }), 200)
        assert.deepEqual(names(await list('filter[first_name]=ALI')), ['Alice', 'alicia'])
        assert.deepEqual(names(await list('filter[last_name]=smith')), ['Alice', 'Bob'])
        assert.deepEqual(names(await list('filter[email]=ALPHA.test')), ['Alice', 'Bob'])
        assert.deepEqual(names(await list('filter[company]=corp')), ['Alice'])
        assert.deepEqual(names(await list('filter[first_name]=ali&filter[last_name]=brown')), ['alicia'])
        assert.deepEqual(names(await list('filter[first_name]=zo%C3%AB')), ['Zoë'])
        // LIKE wildcards match literally.
        assert.deepEqual(names(await list('filter[company]=%25')), ['Zoë'])
        assert.deepEqual(names(await list('filter[company]=_')), ['alicia'])
        assert.equal((await list('filter[first_name]=')).meta.total, 4, 'an empty filter is no filter')
      })

      it('filters status exactly, with a comma list meaning any of', async (t) => {
        const h = await buildApp(t, dialect)
        const { admin, ids } = await seed(h)
        await h.store.users.update(ids[1]!, { status: 3 })
        await h.store.users.update(ids[2]!, { status: 2 })
        const list = async (query: string) => expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers?${query}`, token: admin.token }), 200)
        assert.deepEqual(names(await list('filter[status]=1')), ['Alice', 'Zoë'])
        assert.deepEqual(names(await list('filter[status]=3')), ['alicia'])
        assert.deepEqual(names(await list('filter[status]=2,3')), ['alicia', 'Bob'])
        expectValidation(await h.inject({ method: 'GET', url: '/api/v1/customers?filter[status]=active', token: admin.token }), 'filter.status')
      })

      it('includes notes-count on the list and the single view', async (t) => {
        const h = await buildApp(t, dialect)
        const { admin, ids } = await seed(h)
        for (const text of ['one', 'two']) {
          expectStatus(await h.inject({ method: 'POST', url: `/api/v1/customers/${ids[0]}/notes`, token: admin.token, payload: { note: text } }), 201)
        }
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers?include=notes-count', token: admin.token }), 200)
        assert.deepEqual(list.data.map((c: { notes_count: number }) => c.notes_count), [2, 0, 0, 0])
        const plain = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers', token: admin.token }), 200)
        assert.ok(!('notes_count' in plain.data[0]), 'includes appear only when asked for')
        const one = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers/${ids[0]}?include=notes-count`, token: admin.token }), 200)
        assert.equal(one.data.notes_count, 2)
      })
    })

    describe('GET /customers tickets-count', () => {
      it('counts the tickets each customer owns, including those staff raised for them', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const owner = await h.user('customer')
        const other = await h.user('customer')
        const category = await createCategory(h, admin.token, 'Support')
        await createTicket(h, admin.user, owner.user, category)
        await createTicket(h, admin.user, owner.user, category)
        await createTicket(h, owner.user, owner.user, category)
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/customers?include=tickets-count,notes-count', token: admin.token }), 200)
        assert.deepEqual(list.data.map((c: Record<string, number>) => [c.id, c.tickets_count, c.notes_count]), [[owner.user.id, 3, 0], [other.user.id, 0, 0]])
        const one = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers/${owner.user.id}?include=tickets-count`, token: admin.token }), 200)
        assert.equal(one.data.tickets_count, 3)
      })
    })

    describe('notification settings', () => {
      it('reads and partially changes them', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const customer = await h.user('customer')
        const url = `/api/v1/customers/${customer.user.id}/notifications`
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token }), 200), { data: { new_ticket: true, new_comment: true, ticket_reassigned: true } })
        const patched = expectStatus(await h.inject({ method: 'PATCH', url, token, payload: { new_comment: false } }), 200)
        assert.deepEqual(patched, { data: { new_ticket: true, new_comment: false, ticket_reassigned: true } })
        expectStatus(await h.inject({ method: 'PUT', url, token, payload: { ticket_reassigned: false } }), 200)
        assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url, token }), 200), { data: { new_ticket: true, new_comment: false, ticket_reassigned: false } })
        expectValidation(await h.inject({ method: 'PATCH', url, token, payload: { new_ticket: 'yes' } }), 'new_ticket')
        expectError(await h.inject({ method: 'GET', url: '/api/v1/customers/999999/notifications', token }), 404)
      })
    })

    describe('notes', () => {
      it('creates (sanitised), lists with creator and user, filters and deletes', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin', { first_name: 'Ada', last_name: 'Admin' })
        const manager = await customerManager(h)
        const customer = await h.user('customer', { first_name: 'Cy', last_name: 'Customer' })
        const url = `/api/v1/customers/${customer.user.id}/notes`

        const first = expectStatus(await h.inject({ method: 'POST', url, token: admin.token, payload: { note: '<p onclick="x()">Called <b>twice</b></p><script>alert(1)</script>' } }), 201).data
        assert.deepEqual(keysOf(first), ['created_at', 'id', 'text', 'updated_at'])
        assert.equal(first.text, '<p>Called <b>twice</b></p>')
        assert.match(first.created_at, DATETIME)
        expectStatus(await h.inject({ method: 'POST', url, token: manager.token, payload: { note: 'Prefers email' } }), 201)

        const all = expectStatus(await h.inject({ method: 'GET', url: `${url}?include=creator,user`, token: admin.token }), 200)
        assert.equal(all.meta.total, 2)
        const byText = new Map(all.data.map((n: { text: string }) => [n.text, n]))
        const note = byText.get('Prefers email') as Record<string, any>
        assert.deepEqual(keysOf(note), ['created_at', 'creator', 'id', 'text', 'updated_at', 'user'])
        assert.deepEqual({ ...note.creator, avatar: undefined }, { id: manager.user.id, type: 'agent', first_name: manager.user.first_name, last_name: manager.user.last_name, email: manager.user.email, avatar: undefined })
        assert.equal(note.user.id, customer.user.id)
        assert.equal(note.user.type, 'customer')
        assert.equal((byText.get('<p>Called <b>twice</b></p>') as Record<string, any>).creator.id, admin.user.id)

        const filtered = expectStatus(await h.inject({ method: 'GET', url: `${url}?filter[text]=EMAIL`, token: admin.token }), 200)
        assert.deepEqual(filtered.data.map((n: { text: string }) => n.text), ['Prefers email'])
        const byCreator = expectStatus(await h.inject({ method: 'GET', url: `${url}?filter[creator_id]=${admin.user.id}`, token: admin.token }), 200)
        assert.deepEqual(byCreator.data.map((n: { id: number }) => n.id), [first.id])

        const other = await h.user('customer')
        expectError(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${other.user.id}/notes/${first.id}`, token: admin.token }), 404)
        assert.deepEqual(expectStatus(await h.inject({ method: 'DELETE', url: `${url}/${first.id}`, token: admin.token }), 200), { success: true })
        expectError(await h.inject({ method: 'DELETE', url: `${url}/${first.id}`, token: admin.token }), 404)
        assert.equal(expectStatus(await h.inject({ method: 'GET', url, token: admin.token }), 200).meta.total, 1)
      })

      it('rejects an empty note and notes about unknown customers', async (t) => {
        const h = await buildApp(t, dialect)
        const { token } = await h.user('admin')
        const customer = await h.user('customer')
        expectValidation(await h.inject({ method: 'POST', url: `/api/v1/customers/${customer.user.id}/notes`, token, payload: {} }), 'note')
        expectValidation(await h.inject({ method: 'POST', url: `/api/v1/customers/${customer.user.id}/notes`, token, payload: { note: '' } }), 'note')
        expectValidation(await h.inject({ method: 'POST', url: `/api/v1/customers/${customer.user.id}/notes`, token, payload: { note: '<script>alert(1)</script>' } }), 'note')
        expectError(await h.inject({ method: 'POST', url: '/api/v1/customers/999999/notes', token, payload: { note: 'x' } }), 404)
      })
    })

    describe('permissions', () => {
      it('lets administrators and agents with manage_customers in; plain agents and customers get 403; anonymous 401', async (t) => {
        const h = await buildApp(t, dialect)
        const admin = await h.user('admin')
        const manager = await customerManager(h)
        const agent = await h.user('agent')
        const customer = await h.user('customer')
        const target = await createCustomer(h, admin.token)
        const requests = [
          { method: 'GET', url: '/api/v1/customers' },
          { method: 'GET', url: `/api/v1/customers/${target.id}` },
          { method: 'PATCH', url: `/api/v1/customers/${target.id}`, payload: { company: 'X' } },
          { method: 'POST', url: `/api/v1/customers/${target.id}`, payload: { company: 'Y' } },
          { method: 'GET', url: `/api/v1/customers/${target.id}/notifications` },
          { method: 'PATCH', url: `/api/v1/customers/${target.id}/notifications`, payload: { new_ticket: false } },
          { method: 'GET', url: `/api/v1/customers/${target.id}/notes` },
          { method: 'POST', url: `/api/v1/customers/${target.id}/notes`, payload: { note: 'hello' } }
        ] as const
        for (const request of requests) {
          expectUnauthenticated(await h.inject({ ...request }))
          expectError(await h.inject({ ...request, token: customer.token }), 403)
          expectError(await h.inject({ ...request, token: agent.token }), 403)
          const managed = await h.inject({ ...request, token: manager.token })
          assert.ok(managed.statusCode === 200 || managed.statusCode === 201, `${request.method} ${request.url}: ${managed.body}`)
          const administered = await h.inject({ ...request, token: admin.token })
          assert.ok(administered.statusCode === 200 || administered.statusCode === 201, `${request.method} ${request.url}: ${administered.body}`)
        }
        const create = { method: 'POST', url: '/api/v1/customers', payload: { ...newCustomer, email: 'fresh@example.com' } } as const
        expectError(await h.inject({ ...create, token: agent.token }), 403)
        expectError(await h.inject({ ...create, token: customer.token }), 403)
        await createCustomer(h, manager.token, create.payload)
        const notes = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/customers/${target.id}/notes`, token: admin.token }), 200)
        expectError(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${target.id}/notes/${notes.data[0].id}`, token: agent.token }), 403)
        expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${target.id}/notes/${notes.data[0].id}`, token: manager.token }), 200)
        expectError(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${target.id}`, token: agent.token }), 403)
        expectError(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${target.id}`, token: customer.token }), 403)
        expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${target.id}`, token: manager.token }), 200)
      })

      it('a customer may not read even their own record through /customers', async (t) => {
        const h = await buildApp(t, dialect)
        const customer = await h.user('customer')
        expectError(await h.inject({ method: 'GET', url: `/api/v1/customers/${customer.user.id}`, token: customer.token }), 403)
      })
    })
  })
})
