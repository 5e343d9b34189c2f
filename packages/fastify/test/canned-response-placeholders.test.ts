import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, keysOf } from './http-assertions.js'
import { createCategory } from './knowledge-base-fixtures.js'

async function createResponse (h: TestApp, token: string, body: string, global = false): Promise<number> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/canned-responses', token, payload: { name: 'Reply', body, global } }), 201).data.id
}

async function render (h: TestApp, token: string, responseId: number, ticketId: number) {
  return await h.inject({ method: 'GET', url: `/api/v1/canned-responses/${responseId}/placeholders/${ticketId}`, token })
}

async function rendered (h: TestApp, token: string, responseId: number, ticketId: number): Promise<string> {
  const body = expectStatus(await render(h, token, responseId, ticketId), 200)
  assert.deepEqual(keysOf(body.data), ['response'])
  return body.data.response
}

eachDialect((dialect) => {
  describe(`canned response placeholders on ${dialect}`, () => {
    it('fills the tokens from the ticket, its owner and its agent, HTML-escaped', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin', { first_name: 'Ada', last_name: 'Admin' })
      // Names are plain text (tags stripped when stored, CONTRACT §17); what remains is escaped when filled in.
      const customer = await h.user('customer', { first_name: 'Ann "A&B"', last_name: 'O\'Neil', email: 'ann+kb@example.com' })
      const category = await createCategory(h, admin.token, 'Billing & Co')
      const ticket = await h.helpdesk.tickets.create(customer.user, { category: category.id, title: 'Can\'t "log in"', body: 'Help' })
      const id = await createResponse(h, admin.token, '<p>Hi {{ customer.first_name }} {{customer.last_name}}</p>')
      assert.equal(await rendered(h, admin.token, id, ticket.id), '<p>Hi Ann "A&amp;B" O\'Neil</p>')
      const all = await createResponse(h, admin.token,
        '#{{ticket.id}} {{ ticket.title }} is {{ticket.status}} in {{ ticket.category }} for {{customer.email}}; ' +
        '{{agent.first_name}} {{agent.last_name}}. {{ unknown.token }} {{ticket.nope}} {{ticket.id')
      assert.equal(
        await rendered(h, admin.token, all, ticket.id),
        `#${ticket.id} Can't "log in" is Open in Billing &amp; Co for ann+kb@example.com; ` +
          'Ada Admin. {{ unknown.token }} {{ticket.nope}} {{ticket.id'
      )
      const agent = await h.user('agent', { first_name: 'Bo', last_name: 'Agent' })
      await h.helpdesk.tickets.assign(admin.user, ticket.id, agent.user.id)
      await h.helpdesk.tickets.update(admin.user, ticket.id, { status: 2 })
      const short = await createResponse(h, admin.token, '{{ticket.status}} / {{agent.first_name}} {{agent.last_name}}', true)
      assert.equal(await rendered(h, admin.token, short, ticket.id), 'Pending / Bo Agent', 'the assigned agent, not the caller')
      assert.equal(await rendered(h, agent.token, short, ticket.id), 'Pending / Bo Agent')
      await h.helpdesk.tickets.update(admin.user, ticket.id, { status: 3 })
      assert.match(await rendered(h, admin.token, short, ticket.id), /^Closed \//)
    })

    it('fills then sanitises: a customer named javascript:alert(1)// makes no script link (issue 29)', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const customer = await h.user('customer', { first_name: 'javascript:alert(1)//', last_name: '" onclick="alert(2)' })
      const category = await createCategory(h, admin.token)
      const ticket = await h.helpdesk.tickets.create(customer.user, { category: category.id, title: 'Hi', body: 'Help' })
      const id = await createResponse(h, admin.token, '<a href="{{customer.first_name}}" title="{{customer.last_name}}">{{customer.first_name}}</a>')
      const html = await rendered(h, admin.token, id, ticket.id)
      assert.doesNotMatch(html, /href/)
      assert.equal(html, '<a title="&quot; onclick=&quot;alert(2)" rel="noopener noreferrer nofollow">javascript:alert(1)//</a>')
    })

    it('needs a ticket and a response the caller can see', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const customer = await h.user('customer')
      const category = await createCategory(h, admin.token)
      const ticket = await h.helpdesk.tickets.create(customer.user, { category: category.id, title: 'Private', body: 'Help' })
      const outsider = await h.user('agent')
      const own = await createResponse(h, outsider.token, 'Hello {{agent.first_name}}')
      expectError(await render(h, outsider.token, own, ticket.id), 404)
      expectError(await render(h, outsider.token, own, 999999), 404)
      await h.helpdesk.agents.setCategories(admin.user, outsider.user.id, [category.id])
      assert.equal(await rendered(h, outsider.token, own, ticket.id), `Hello ${outsider.user.first_name}`, 'the caller when nobody is assigned')
      const personal = await createResponse(h, admin.token, 'Admin only')
      expectError(await render(h, outsider.token, personal, ticket.id), 404)
      expectError(await render(h, outsider.token, 999999, ticket.id), 404)
      expectError(await render(h, customer.token, own, ticket.id), 403)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/canned-responses/${own}/placeholders/abc` , token: admin.token }), 404)
    })
  })
})
