import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { DRAFT_LIMITS, TICKET_LIMITS } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation, keysOf } from './http-assertions.js'
import { desk, postComment, postTicket, uploadId } from './ticket-fixtures.js'

const DRAFT_KEYS = ['attachments', 'body', 'created_at', 'id', 'private', 'ticket_id', 'type', 'type_text', 'updated_at']

function drafts (h: TestApp, token: string, ticketId: number) {
  const url = `/api/v1/tickets/${ticketId}/draft`
  return {
    get: async () => await h.inject({ method: 'GET', url, token }),
    put: async (payload: Record<string, unknown>) => await h.inject({ method: 'PUT', url, token, payload }),
    delete: async () => await h.inject({ method: 'DELETE', url, token })
  }
}

eachDialect((dialect) => {
  describe(`drafts on ${dialect}`, () => {
    it('saves, replaces, reads, lists and discards the caller\'s draft, its body sanitised as a comment\'s', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const mine = drafts(h, d.agent.token, ticket.id)
      assert.deepEqual(expectStatus(await mine.get(), 200), { data: null })

      const saved = expectStatus(await mine.put({ body: '<p>Checking <b>now</b></p><script>alert(1)</script><img src=x onerror=alert(1)>' }), 200).data
      assert.deepEqual(keysOf(saved), DRAFT_KEYS)
      assert.deepEqual([saved.ticket_id, saved.type, saved.type_text, saved.private, saved.attachments], [ticket.id, 1, 'Reply', false, []])
      assert.doesNotMatch(saved.body, /<script|onerror/)
      assert.match(saved.body, /<b>now<\/b>/)

      const replaced = expectStatus(await mine.put({ body: 'Ask finance', type: 2, private: true }), 200).data
      assert.deepEqual([replaced.id, replaced.body, replaced.type, replaced.type_text, replaced.private], [saved.id, 'Ask finance', 2, 'Note', true])
      assert.deepEqual(expectStatus(await mine.get(), 200).data, replaced)
      // An empty body is a draft still (it may hold attachments only, or the text was cleared).
      assert.equal(expectStatus(await mine.put({ body: '' }), 200).data.body, '')
      await mine.put({ body: 'Ask finance', type: 2 })

      const other = await postTicket(h, d.bob.token, { category: d.billing })
      await drafts(h, d.agent.token, other.id).put({ body: 'Second' })
      const listed = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/drafts?include=ticket&per_page=1', token: d.agent.token }), 200)
      assert.deepEqual([listed.meta.total, listed.meta.per_page, listed.data[0].ticket_id, listed.data[0].ticket.title], [2, 1, other.id, 'Help'])
      assert.match(listed.links.next, /page=2/)
      const notes = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/drafts?filter[type]=2', token: d.agent.token }), 200)
      assert.deepEqual(notes.data.map((x: any) => x.ticket_id), [ticket.id])
      expectError(await h.inject({ method: 'GET', url: '/api/v1/drafts?sort=title', token: d.agent.token }), 400)

      assert.deepEqual(expectStatus(await mine.delete(), 200), { success: true })
      assert.deepEqual(expectStatus(await mine.get(), 200), { data: null })
      assert.deepEqual(expectStatus(await mine.delete(), 200), { success: true }, 'discarding no draft is no error')
    })

    it('keeps each person\'s draft to themselves; a ticket they cannot see is 404; a type they may not send is 403', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const colleague = await h.user('agent')
      await h.store.users.setCategories(colleague.user.id, [d.billing])
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      expectStatus(await drafts(h, d.agent.token, ticket.id).put({ body: 'Secret plan', type: 2 }), 200)
      assert.deepEqual(expectStatus(await drafts(h, colleague.token, ticket.id).get(), 200), { data: null })
      assert.deepEqual(expectStatus(await drafts(h, d.admin.token, ticket.id).get(), 200), { data: null })
      expectStatus(await drafts(h, colleague.token, ticket.id).put({ body: 'My own words' }), 200)
      assert.equal(expectStatus(await drafts(h, d.agent.token, ticket.id).get(), 200).data.body, 'Secret plan', 'a colleague\'s save leaves mine')
      const listed = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/drafts', token: colleague.token }), 200)
      assert.deepEqual(listed.data.map((x: any) => x.body), ['My own words'])
      expectStatus(await drafts(h, colleague.token, ticket.id).delete(), 200)
      assert.equal(expectStatus(await drafts(h, d.agent.token, ticket.id).get(), 200).data.body, 'Secret plan', 'a colleague\'s discard leaves mine')

      // Bob cannot see Alice's private ticket: 404, as for its comments.
      for (const call of [() => drafts(h, d.bob.token, ticket.id).get(), () => drafts(h, d.bob.token, ticket.id).put({ body: 'x' }), () => drafts(h, d.bob.token, ticket.id).delete()]) {
        expectError(await call(), 404)
      }
      expectError(await drafts(h, d.agent.token, 98765).put({ body: 'x' }), 404)
      // The owner keeps a draft of a reply (the portal's composer), never of a note.
      assert.equal(expectStatus(await drafts(h, d.alice.token, ticket.id).put({ body: 'Any news?' }), 200).data.type, 1)
      expectError(await drafts(h, d.alice.token, ticket.id).put({ body: 'x', type: 2 }), 403)
      const publicTicket = await postTicket(h, d.alice.token, { category: d.billing, private: false })
      expectError(await drafts(h, d.bob.token, publicTicket.id).put({ body: 'x' }), 403)

      // A ticket the agent no longer sees drops out of their list (and the draft stays theirs alone).
      await h.store.users.setCategories(d.agent.user.id, [d.sales])
      assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url: '/api/v1/drafts', token: d.agent.token }), 200).meta.total, 0)
      expectError(await drafts(h, d.agent.token, ticket.id).get(), 404)
    })

    it('holds its uploads past the pruning of unlinked ones, and carries them to the comment that sends it', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const held = await uploadId(h, d.agent.token, Buffer.from('kept while drafted\n'), 'held.txt')
      const dropped = await uploadId(h, d.agent.token, Buffer.from('dropped from the draft\n'), 'dropped.txt')
      const loose = await uploadId(h, d.agent.token)
      const mine = drafts(h, d.agent.token, ticket.id)
      const saved = expectStatus(await mine.put({ body: 'See attached', attachments: [held, dropped] }), 200).data
      assert.deepEqual(saved.attachments.map((a: any) => a.name).sort(), ['dropped.txt', 'held.txt'])
      expectStatus(await mine.put({ body: 'See attached', attachments: [held] }), 200)

      await h.store.knex('attachments').update({ created_at: '2000-01-01 00:00:00' })
      assert.equal(await h.helpdesk.attachments.pruneUnlinked(), 2, 'the loose upload and the one the draft let go')
      assert.equal(await h.store.attachments.findById(loose), null)
      assert.equal(await h.store.attachments.findById(dropped), null)
      assert.deepEqual(expectStatus(await mine.get(), 200).data.attachments.map((a: any) => a.id), [held])
      const download = await h.inject({ method: 'GET', url: `/api/v1/attachments/${held}/download`, token: d.agent.token })
      assert.deepEqual([download.statusCode, download.body], [200, 'kept while drafted\n'])

      // Sending: the comment carries the upload, the draft goes, in one transaction.
      const comment = await postComment(h, d.agent.token, ticket.id, { body: 'See attached', attachments: [held] })
      assert.deepEqual(expectStatus(await mine.get(), 200), { data: null })
      const viewed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/comments/${comment.id}?include=attachments`, token: d.alice.token }), 200).data
      assert.deepEqual(viewed.attachments.map((a: any) => a.id), [held])
      assert.deepEqual(await h.store.knex('draft_attachments').select('attachment_id'), [])
      assert.equal(await h.helpdesk.attachments.pruneUnlinked(), 0)

      // Someone else's upload, or one linked already, is refused; so is a malformed id.
      const alices = await uploadId(h, d.alice.token)
      expectValidation(await mine.put({ body: 'x', attachments: [alices] }), 'attachments.0')
      expectValidation(await mine.put({ body: 'x', attachments: [held] }), 'attachments.0')
      expectValidation(await mine.put({ body: 'x', attachments: ['nope'] }), 'attachments.0')
    })

    it('an upload sits in one draft at most: saving it in another moves it', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const first = await postTicket(h, d.alice.token, { category: d.billing })
      const second = await postTicket(h, d.alice.token, { category: d.billing })
      const file = await uploadId(h, d.agent.token)
      expectStatus(await drafts(h, d.agent.token, first.id).put({ body: 'a', attachments: [file] }), 200)
      expectStatus(await drafts(h, d.agent.token, second.id).put({ body: 'b', attachments: [file] }), 200)
      assert.deepEqual(expectStatus(await drafts(h, d.agent.token, first.id).get(), 200).data.attachments, [])
      assert.deepEqual(expectStatus(await drafts(h, d.agent.token, second.id).get(), 200).data.attachments.map((a: any) => a.id), [file])
    })

    it('sending a reply or note deletes the draft, a refused comment leaves it, and a macro\'s comment is not the draft', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const mine = drafts(h, d.agent.token, ticket.id)
      await mine.put({ body: 'Half a thought' })
      expectValidation(await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket.id}/comments`, token: d.agent.token, payload: { body: '<script>x</script>', type: 1, private: false } }), 'body')
      assert.equal(expectStatus(await mine.get(), 200).data.body, 'Half a thought', 'a comment refused leaves the draft')
      await postComment(h, d.agent.token, ticket.id, { body: 'Internal', type: 2, private: true })
      assert.deepEqual(expectStatus(await mine.get(), 200), { data: null }, 'a note sends the draft too (one draft per ticket)')

      // A customer's draft goes with their reply; staff's drafts on the ticket stay.
      await mine.put({ body: 'Staff draft' })
      await drafts(h, d.alice.token, ticket.id).put({ body: 'Any news?' })
      await postComment(h, d.alice.token, ticket.id, { body: 'Any news?' })
      assert.deepEqual(expectStatus(await drafts(h, d.alice.token, ticket.id).get(), 200), { data: null })
      assert.equal(expectStatus(await mine.get(), 200).data.body, 'Staff draft')

      const macro = await h.helpdesk.macros.create(d.admin.user, { name: 'Ack', shared: true, actions: [{ type: 'add_note', body: 'Seen.' }] })
      await h.helpdesk.macros.apply(d.agent.user, ticket.id, macro.id)
      assert.equal(expectStatus(await mine.get(), 200).data.body, 'Staff draft', 'a macro\'s note leaves the draft being typed')

      // Deleting the ticket takes its drafts.
      await h.helpdesk.tickets.delete(d.admin.user, ticket.id)
      assert.deepEqual(await h.store.knex('drafts').select('id'), [])
    })

    it('keeps at most DRAFT_LIMITS.perUser drafts a person: a new one past that is 422, replacing one still works', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const many = DRAFT_LIMITS.perUser + 1
      const ids = await h.store.tickets.createMany(Array.from({ length: many }, (_, i) => ({
        user_id: d.alice.user.id, creator_id: d.alice.user.id, category_id: d.billing, status: 1 as const, private: true, title: `T${i}`, body: '<p>B</p>', additional: {}
      })))
      const at = '2030-01-01 00:00:00'
      const rows = ids.slice(0, DRAFT_LIMITS.perUser).map((id) => ({ user_id: d.agent.user.id, ticket_id: id, type: 1, body: 'x', private: false, created_at: at, updated_at: at }))
      for (let i = 0; i < rows.length; i += 100) await h.store.knex('drafts').insert(rows.slice(i, i + 100))
      expectValidation(await drafts(h, d.agent.token, ids[DRAFT_LIMITS.perUser]!).put({ body: 'One too many' }), 'ticket_id')
      assert.equal(expectStatus(await drafts(h, d.agent.token, ids[0]!).put({ body: 'Rewritten' }), 200).data.body, 'Rewritten')
      expectStatus(await drafts(h, d.admin.token, ids[DRAFT_LIMITS.perUser]!).put({ body: 'Someone else still may' }), 200)
    })

    it('refuses bodies over the comment limit, unknown types and a missing body with 422; writes nothing', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const mine = drafts(h, d.agent.token, ticket.id)
      expectValidation(await mine.put({ body: 'x'.repeat(TICKET_LIMITS.body + 1) }), 'body')
      expectValidation(await mine.put({ body: 'x', type: 3 }), 'type')
      expectValidation(await mine.put({ type: 1 }), 'body')
      expectValidation(await mine.put({ body: 'x', attachments: Array.from({ length: TICKET_LIMITS.attachments + 1 }, () => '00000000-0000-4000-8000-000000000000') }), 'attachments')
      assert.deepEqual(expectStatus(await mine.get(), 200), { data: null })
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id}/draft`, token: d.agent.token, payload: 'not json', headers: { 'content-type': 'application/json' } }), 400)
    })
  })
})
