import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { desk, postTicket } from './ticket-fixtures.js'

const found = async (h: TestApp, token: string, query: string): Promise<number[]> =>
  (expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?per_page=100&${query}`, token }), 200).data as Array<{ id: number }>).map((t) => t.id)
const search = async (h: TestApp, token: string, text: string): Promise<number[]> => await found(h, token, `filter[search]=${encodeURIComponent(text)}`)

/**
 * CONTRACT §17: a ticket's purchase code and its owner's email and
 * marketplace username match only for staff and the ticket's owner; another
 * customer who sees the (public) ticket matches its id, title, body and the
 * owner's names only. Else search is an oracle for someone's purchase code.
 */
eachDialect((dialect) => {
  describe(`what a search may match, per caller, on ${dialect}`, () => {
    it('rewrites both documents on every change: ticket edits and owner renames', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const open = (await postTicket(h, d.bob.token, { category: d.billing, title: 'Scaffold wobbles', body: 'Rivets.', private: false })).id as number
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${open}`, token: d.admin.token, payload: { title: 'Ladder creaks' } }), 200)
      await h.store.tickets.update(open, { additional: { purchase_code: 'qq99-late' } })
      assert.deepEqual(await search(h, d.alice.token, 'Ladder'), [open])
      assert.deepEqual(await search(h, d.alice.token, 'Scaffold'), [])
      assert.deepEqual(await search(h, d.alice.token, 'qq99'), [])
      assert.deepEqual(await search(h, d.bob.token, 'qq99'), [open])
      await h.store.users.update(d.bob.user.id, { first_name: 'Roberta', email: 'roberta@masons.test' })
      assert.deepEqual(await search(h, d.alice.token, 'Roberta'), [open])
      assert.deepEqual(await search(h, d.alice.token, 'masons'), [])
      assert.deepEqual(await search(h, d.admin.token, 'masons'), [open])
    })
  })
})
