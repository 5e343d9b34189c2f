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
    it('matches purchase codes, emails and marketplace usernames only for staff and the owner', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await h.store.users.update(d.bob.user.id, { marketplace_username: 'bobthebuilder' })
      const open = (await postTicket(h, d.bob.token, { category: d.billing, title: 'Scaffold wobbles', body: '<p>Rivets loose.</p>', purchase_code: 'zx81-secret-7f3a', private: false })).id as number
      const others = await search(h, d.alice.token, 'Scaffold')
      assert.deepEqual(others, [open], 'the public ticket is searchable by its title')
      for (const text of ['zx81', 'zx81-secret-7f3a', 'secret', 'bobthebuilder', 'bobthe', 'thebuild', 'bob@builders.test', 'builders.te']) {
        assert.deepEqual(await search(h, d.alice.token, text), [], `another customer matches nothing by "${text}"`)
        assert.deepEqual(await search(h, d.bob.token, text), [open], `the owner matches "${text}"`)
        assert.deepEqual(await search(h, d.admin.token, text), [open], `staff match "${text}"`)
      }
      // The owner's names, the body and the id stay searchable for anyone who sees the ticket.
      for (const text of ['Bob', 'Builder', 'uilde', 'Rivets', String(open)]) assert.deepEqual(await search(h, d.alice.token, text), [open], text)
      // filter[email] is an owner-only field too.
      assert.deepEqual(await found(h, d.alice.token, 'filter[email]=builders'), [])
      assert.deepEqual(await found(h, d.bob.token, 'filter[email]=builders'), [open])
      assert.deepEqual(await found(h, d.admin.token, 'filter[email]=builders'), [open])
    })

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
