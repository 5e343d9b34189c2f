import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { createArticle, createCollection } from './knowledge-base-fixtures.js'
import { desk, postComment, postTicket, settle } from './ticket-fixtures.js'

/** Escaped markup as a person would type it into a plain-text field. */
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;'
const SCRIPT = '&lt;script&gt;alert(1)&lt;/script&gt;'

/** What a plain-text field typed as `text` is stored and answered as: the text, `<` and `>` escaped (CONTRACT §17, issue 35). */
const esc = (text: string): string => text.replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Markup: a `<` that opens a tag, a comment or a declaration. */
const MARKUP = /<[a-z!/?]/i

/** CONTRACT §17: plain-text fields never contain markup; escaped text stays escaped; typed text is kept, never stripped (issue 35). */
eachDialect((dialect) => {
  describe(`plain-text fields on ${dialect}`, () => {
    it('keeps escaped markup escaped in ticket titles, comment previews and notification data', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, title: ESCAPED })
      assert.equal(ticket.title, ESCAPED)
      const tagged = await postTicket(h, d.alice.token, { category: d.billing, title: '<b>Bold</b> &amp; <i>plain</i> a < b' })
      assert.equal(tagged.title, '&lt;b&gt;Bold&lt;/b&gt; &amp; &lt;i&gt;plain&lt;/i&gt; a &lt; b', 'the typed text is kept, never stripped; < and > escaped')
      const literal = await postTicket(h, d.alice.token, { category: d.billing, title: 'Template shows <div class="x"> literally' })
      assert.equal(literal.title, 'Template shows &lt;div class="x"&gt; literally')
      assert.doesNotMatch(literal.title, MARKUP)
      const renamed = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${tagged.id}`, token: d.alice.token, payload: { title: SCRIPT } }), 200).data
      assert.equal(renamed.title, SCRIPT)

      const comment = await postComment(h, d.agent.token, ticket.id, { body: `<p>${SCRIPT}</p>` })
      assert.equal(comment.preview, SCRIPT)
      assert.equal(comment.body, `<p>${SCRIPT}</p>`)
      const stored = await postComment(h, d.agent.token, ticket.id, { body: '<pre>&lt;img src=x onerror=alert(1)&gt;</pre>' })
      assert.equal(stored.preview, ESCAPED)
      await settle()
      const notifications = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/notifications', token: d.alice.token }), 200).data as any[]
      const added = notifications.filter((n) => n.type === 'Tickets.CommentAdded')
      assert.ok(added.length > 0)
      for (const n of added) {
        assert.equal(n.data.ticket.title, ESCAPED)
        assert.doesNotMatch(n.data.comment.preview, MARKUP)
      }
      const listed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/comments`, token: d.alice.token }), 200).data as any[]
      for (const c of listed) assert.doesNotMatch(c.preview, MARKUP)
    })

    it('keeps markup out of (and the typed text in) the titles and names of articles, collections, categories, canned responses and custom fields', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const admin = d.admin.token
      const post = async (url: string, payload: object) => expectStatus(await h.inject({ method: 'POST', url: `/api/v1${url}`, token: admin, payload }), 201).data
      const category = await post('/categories', { name: `<img src=x onerror=alert(1)>Shop ${ESCAPED}` })
      assert.equal(category.name, esc(`<img src=x onerror=alert(1)>Shop ${ESCAPED}`))
      const collection = await createCollection(h, admin, { category_id: d.billing, name: `<script>x</script>Guides ${ESCAPED}` })
      assert.equal(collection.name, esc(`<script>x</script>Guides ${ESCAPED}`))
      const article = await createArticle(h, admin, { category: d.billing, collection: collection.id, title: `<b>Start</b> ${ESCAPED}` })
      assert.equal(article.title, esc(`<b>Start</b> ${ESCAPED}`))
      const canned = await post('/canned-responses', { name: `<i>Hi</i> ${ESCAPED}`, body: 'Hello.' })
      assert.equal(canned.name, esc(`<i>Hi</i> ${ESCAPED}`))
      const field = await post('/fields', { title: `<u>Plan</u> ${ESCAPED}`, type: 'text', placeholder: `<em>Pick</em> ${SCRIPT}` })
      assert.deepEqual([field.title, field.placeholder], [esc(`<u>Plan</u> ${ESCAPED}`), esc(`<em>Pick</em> ${SCRIPT}`)])
      for (const value of [category.name, collection.name, article.title, canned.name, field.title, field.placeholder]) assert.doesNotMatch(value, MARKUP)
      const renamed = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/articles/${article.id}`, token: admin, payload: { title: SCRIPT } }), 200).data
      assert.equal(renamed.title, SCRIPT)
      const blank = await h.inject({ method: 'POST', url: '/api/v1/categories', token: admin, payload: { name: ' \n\t ' } })
      assert.equal(blank.statusCode, 422, 'a name of nothing but spaces is blank')
    })

    it('keeps markup out of (and the typed text in) people\'s names, as registered, changed, and shown in notification data', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const registered = expectStatus(await h.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { first_name: `<img src=x onerror=alert(1)>Eve ${ESCAPED}`, last_name: '<b>Hacker</b>', email: 'eve@example.com', password: 'secret123', password_confirmation: 'secret123' }
      }), 201).data
      assert.deepEqual([registered.user.first_name, registered.user.last_name], [esc(`<img src=x onerror=alert(1)>Eve ${ESCAPED}`), '&lt;b&gt;Hacker&lt;/b&gt;'])
      const renamed = expectStatus(await h.inject({
        method: 'PATCH', url: `/api/v1/customers/${registered.user.id as number}`, token: d.admin.token, payload: { last_name: `<script>x</script>${SCRIPT}` }
      }), 200).data
      assert.equal(renamed.last_name, esc(`<script>x</script>${SCRIPT}`))
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/agents/${d.agent.user.id}`, token: d.admin.token, payload: { first_name: `<i>Gus</i> ${ESCAPED}` } }), 200)
      const ticket = await postTicket(h, registered.token, { category: d.billing })
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id}/agents`, token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)
      const byStaff = await postTicket(h, d.admin.token, { category: d.billing, email: 'newbie@example.com', first_name: '<u>New</u>', last_name: SCRIPT })
      const owner = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${byStaff.id}?include=user`, token: d.admin.token }), 200).data.user
      assert.deepEqual([owner.first_name, owner.last_name], ['&lt;u&gt;New&lt;/u&gt;', SCRIPT])
      await settle()
      const notifications = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/notifications', token: d.agent.token }), 200)
      assert.ok(notifications.data.length > 0)
      assert.doesNotMatch(JSON.stringify(notifications.data.map((n: { data: unknown }) => n.data)), MARKUP)
    })
  })
})
