import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { expectError, expectStatus, expectValidation, keysOf } from './http-assertions.js'
import { desk, postComment, postTicket, storedFiles, uploadId } from './ticket-fixtures.js'

const COMMENT_KEYS = ['body', 'created_at', 'id', 'preview', 'private', 'ticket_id', 'type', 'type_text', 'updated_at', 'user_id']

eachDialect((dialect) => {
  describe(`comments on ${dialect}`, () => {
    it('creates replies and notes with type_text and a plain-text preview of at most 200 characters', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const long = `<p>${'word '.repeat(100)}</p>`
      const reply = await postComment(h, d.agent.token, ticket.id, { body: `<h1>Hello &amp; welcome</h1><script>alert(1)</script><img src=x onerror=alert(1)>${long}` })
      assert.deepEqual(keysOf(reply), COMMENT_KEYS)
      assert.deepEqual([reply.type, reply.type_text, reply.private, reply.ticket_id, reply.user_id], [1, 'Reply', false, ticket.id, d.agent.user.id])
      assert.ok(reply.preview.startsWith('Hello & welcome word word'))
      assert.equal([...reply.preview].length, 200)
      assert.doesNotMatch(JSON.stringify(reply), /<script|onerror/)
      const note = await postComment(h, d.agent.token, ticket.id, { body: 'Internal', type: 2, private: true })
      assert.deepEqual([note.type, note.type_text, note.private], [2, 'Note', true])
      const viewed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/comments/${reply.id}?include=user,ticket,attachments`, token: d.alice.token }), 200).data
      assert.deepEqual([viewed.user.id, viewed.ticket.id, viewed.attachments], [d.agent.user.id, ticket.id, []])
      assert.doesNotMatch(JSON.stringify(viewed), /<script|onerror/)
      expectValidation(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/comments`, token: d.agent.token, payload: { type: 3, private: false } }), 'body', 'type')
      expectValidation(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/comments`, token: d.agent.token, payload: { body: '<script>x</script>', type: 1, private: false } }), 'body')
      expectError(await h.inject({ method: 'POST', url: '/api/v1/tickets/98765/comments', token: d.agent.token, payload: { body: 'x', type: 1, private: false } }), 404)
    })

    it('hides notes, and private replies on tickets they do not own, from customers', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, private: false })
      const mine = await postComment(h, d.alice.token, ticket.id, { body: 'Any news?' })
      const publicReply = await postComment(h, d.agent.token, ticket.id, { body: 'Soon' })
      const privateReply = await postComment(h, d.agent.token, ticket.id, { body: 'Your card ends 4242', private: true })
      const note = await postComment(h, d.agent.token, ticket.id, { body: 'Ask finance', type: 2 })
      const list = async (token: string) => expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/comments`, token }), 200).data.map((c: any) => c.id)
      assert.deepEqual(await list(d.agent.token), [mine.id, publicReply.id, privateReply.id, note.id])
      assert.deepEqual(await list(d.alice.token), [mine.id, publicReply.id, privateReply.id])
      assert.deepEqual(await list(d.bob.token), [mine.id, publicReply.id])
      expectError(await h.inject({ method: 'GET', url: `/api/v1/comments/${note.id}`, token: d.alice.token }), 404)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/comments/${privateReply.id}`, token: d.bob.token }), 404)
      // Once the ticket is private again, Bob sees none of it.
      await h.helpdesk.tickets.setPrivate(d.admin.user, ticket.id, true)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/comments`, token: d.bob.token }), 404)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/comments/${publicReply.id}`, token: d.bob.token }), 404)
      const paged = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}/comments?per_page=2&sort=-created_at&include=user`, token: d.agent.token }), 200)
      assert.deepEqual([paged.data.length, paged.meta.total, paged.data[0].user.id], [2, 4, d.agent.user.id])
    })

    it('lets a customer only reply (type 1) on their own tickets', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, private: false })
      const url = `/api/v1/tickets/${ticket.id}/comments`
      expectError(await h.inject({ method: 'POST', url, token: d.alice.token, payload: { body: 'note?', type: 2, private: false } }), 403)
      expectError(await h.inject({ method: 'POST', url, token: d.bob.token, payload: { body: 'hijack', type: 1, private: false } }), 403)
      const own = await postTicket(h, d.bob.token, { category: d.billing })
      expectError(await h.inject({ method: 'POST', url: `/api/v1/tickets/${own.id}/comments`, token: d.alice.token, payload: { body: 'x', type: 1, private: false } }), 404)
      await postComment(h, d.alice.token, ticket.id, { body: 'A private reply of my own', private: true })
    })

    it('lets the author and administrators edit, delete and toggle privacy; others get 403', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const colleague = await h.user('agent')
      await h.store.users.setCategories(colleague.user.id, [d.billing])
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const reply = await postComment(h, d.agent.token, ticket.id, { attachments: [await uploadId(h, d.agent.token)] })
      const url = `/api/v1/comments/${reply.id}`
      expectError(await h.inject({ method: 'PATCH', url, token: colleague.token, payload: { body: 'rewritten' } }), 403)
      expectError(await h.inject({ method: 'PATCH', url, token: d.alice.token, payload: { body: 'rewritten' } }), 403)
      expectError(await h.inject({ method: 'PATCH', url, token: d.bob.token, payload: { body: 'rewritten' } }), 404)
      const edited = expectStatus(await h.inject({ method: 'PATCH', url, token: d.agent.token, payload: { body: '<p>Edited <b>text</b></p><script>x</script>' } }), 200).data
      assert.deepEqual([edited.body, edited.preview, edited.type_text], ['<p>Edited <b>text</b></p>', 'Edited text', 'Reply'])
      expectValidation(await h.inject({ method: 'PATCH', url, token: d.agent.token, payload: {} }), 'body')
      assert.deepEqual(expectStatus(await h.inject({ method: 'DELETE', url: `${url}/privacy`, token: d.admin.token }), 200), { success: true })
      assert.equal((await h.store.comments.findById(reply.id))?.private, true)
      expectError(await h.inject({ method: 'PUT', url: `${url}/privacy`, token: colleague.token }), 403)
      expectStatus(await h.inject({ method: 'PUT', url: `${url}/privacy`, token: d.agent.token }), 200)
      assert.equal((await h.store.comments.findById(reply.id))?.private, false)
      const own = await postComment(h, d.alice.token, ticket.id, { body: 'mine' })
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/comments/${own.id}`, token: d.alice.token, payload: { body: 'mine, edited' } }), 200)
      expectError(await h.inject({ method: 'DELETE', url, token: colleague.token }), 403)
      assert.equal(storedFiles(h).length, 1)
      assert.deepEqual(expectStatus(await h.inject({ method: 'DELETE', url, token: d.agent.token }), 200), { success: true })
      assert.deepEqual(storedFiles(h), [])
      expectError(await h.inject({ method: 'GET', url, token: d.admin.token }), 404)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/comments/${own.id}`, token: d.admin.token }), 200)
    })

    it('links the caller\'s own unlinked attachments to a comment, once', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const file = await uploadId(h, d.alice.token)
      const comment = await postComment(h, d.alice.token, ticket.id, { attachments: [file] })
      const viewed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/comments/${comment.id}?include=attachments`, token: d.agent.token }), 200).data
      assert.deepEqual(viewed.attachments.map((a: any) => a.id), [file])
      const ticketView = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${ticket.id}?include=attachments,attachments-count`, token: d.agent.token }), 200).data
      assert.deepEqual([ticketView.attachments, ticketView.attachments_count], [[], 0], 'a comment\'s files are not the ticket\'s own')
      expectValidation(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/comments`, token: d.alice.token, payload: { body: 'again', type: 1, private: false, attachments: [file] } }), 'attachments.0')
    })
  })
})
