import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { createArticle, createCollection } from './knowledge-base-fixtures.js'
import { desk, postComment, postTicket } from './ticket-fixtures.js'

/** CONTRACT §17: a customer sees `email: null` for anybody but themselves; staff see every email. */
eachDialect((dialect) => {
  describe(`emails of embedded people on ${dialect}`, () => {
    it('shows a customer only their own email in ticket and comment includes, staff every email', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id}/privacy`, token: d.admin.token }), 200)
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id}/agents`, token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)
      await postComment(h, d.agent.token, ticket.id)
      await postComment(h, d.alice.token, ticket.id)

      const emailsAs = async (token: string) => {
        const one = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}?include=user,creator,agent`, token }), 200).data
        const list = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?include=user,creator,agent', token }), 200).data
        const comments = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/comments?include=user&sort=created_at`, token }), 200).data
        const listed = list.find((t: { id: number }) => t.id === ticket.id)
        for (const person of [one.user, one.creator, one.agent, listed.user, ...comments.map((c: any) => c.user)]) {
          assert.ok('email' in person, 'the email key is always present')
        }
        return {
          ticket: [one.user.email, one.creator.email, one.agent.email],
          list: [listed.user.email, listed.creator.email, listed.agent.email],
          comments: Object.fromEntries(comments.map((c: any) => [c.user.id === d.agent.user.id ? 'agent' : 'alice', c.user.email]))
        }
      }
      const alice = d.alice.user.email
      const agent = d.agent.user.email
      assert.deepEqual(await emailsAs(d.bob.token), { ticket: [null, null, null], list: [null, null, null], comments: { agent: null, alice: null } },
        'another customer sees no email on a public ticket')
      assert.deepEqual(await emailsAs(d.alice.token), { ticket: [alice, alice, null], list: [alice, alice, null], comments: { agent: null, alice } },
        'the owner sees their own email, not the agent\'s')
      assert.deepEqual(await emailsAs(d.admin.token), { ticket: [alice, alice, agent], list: [alice, alice, agent], comments: { agent, alice } })
      const single = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/comments/${(await postComment(h, d.alice.token, ticket.id)).id}?include=user`, token: d.bob.token }), 200).data
      assert.equal(single.user.email, null)
    })

    it('shows an article\'s author with email null to customers and anonymous readers', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const collection = await createCollection(h, d.admin.token, { category_id: d.billing })
      const article = await createArticle(h, d.admin.token, { category: d.billing, collection: collection.id })
      for (const token of [undefined, d.alice.token]) {
        const seen = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/articles/${article.id}?include=author`, ...(token !== undefined ? { token } : {}) }), 200).data
        assert.ok('email' in seen.author)
        assert.equal(seen.author.email, null)
      }
      const staff = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/articles/${article.id}?include=author`, token: d.agent.token }), 200).data
      assert.equal(staff.author.email, d.admin.user.email)
    })

    it('documents the embedded email as nullable in OpenAPI', async (t) => {
      const h = await buildApp(t, dialect)
      const doc = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/openapi.json' }), 200)
      const text = JSON.stringify(doc)
      assert.match(text, /Null unless the caller is staff or this person/)
    })

    it('keeps notification authors and data free of emails', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id}/agents`, token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)
      await postComment(h, d.agent.token, ticket.id)
      await new Promise((resolve) => setTimeout(resolve, 50))
      const seen = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/notifications', token: d.alice.token }), 200)
      assert.ok(seen.data.length > 0)
      assert.doesNotMatch(JSON.stringify(seen), /@/, 'no email reaches a customer\'s notifications')
    })
  })
})
