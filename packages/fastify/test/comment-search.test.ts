import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { desk, grant, idsOf, postComment, postTicket } from './ticket-fixtures.js'

async function search (h: TestApp, token: string, text: string): Promise<number[]> {
  const url = `/api/v1/tickets?filter[search]=${encodeURIComponent(text)}&per_page=100`
  return idsOf(expectStatus(await h.inject({ method: 'GET', url, token }), 200).data)
}

/** Issue 35: inbox search finds replies, and staff also notes, on the full-text index; customers never match what they may not read. */
eachDialect((dialect) => {
  describe(`search in comments on ${dialect}`, () => {
    it('finds replies for everyone who may read them and notes for staff only, kept as comments change', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await grant(h, d.agent, 'view_all_tickets')
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, title: 'Printer', body: 'It jams.' })
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${ticket.id}/privacy`, token: d.alice.token }), 200)
      const publicReply = await postComment(h, d.agent.token, ticket.id, { body: '<p>Clean the <b>rollers</b> gently.</p>', private: false })
      const privateReply = await postComment(h, d.agent.token, ticket.id, { body: 'Your serial is zx81kappa.', private: true })
      await postComment(h, d.agent.token, ticket.id, { body: 'Customer seems grumpyish today.', type: 2 })
      const staff = [d.admin.token, d.agent.token]

      for (const token of staff) {
        assert.deepEqual(await search(h, token, 'rollers'), [ticket.id], 'staff find a public reply')
        assert.deepEqual(await search(h, token, 'zx81kap'), [ticket.id], 'a private reply, by prefix')
        assert.deepEqual(await search(h, token, 'grumpyish'), [ticket.id], 'and an internal note')
        assert.deepEqual(await search(h, token, 'jams rollers'), [ticket.id], 'every term, from the body and a reply')
      }
      // The owner: replies, public and private, never notes.
      assert.deepEqual(await search(h, d.alice.token, 'rollers'), [ticket.id])
      assert.deepEqual(await search(h, d.alice.token, 'zx81kappa'), [ticket.id])
      assert.deepEqual(await search(h, d.alice.token, 'grumpyish'), [], 'a note is not the owner\'s to find')
      // Another customer reading the public ticket: its public replies only.
      assert.deepEqual(await search(h, d.bob.token, 'rollers'), [ticket.id])
      assert.deepEqual(await search(h, d.bob.token, 'zx81kappa'), [], 'a private reply is the owner\'s')
      assert.deepEqual(await search(h, d.bob.token, 'grumpyish'), [])

      // Changes follow: a reply made private, a reply edited, a comment deleted.
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/comments/${publicReply.id}/privacy`, token: d.agent.token }), 200)
      assert.deepEqual(await search(h, d.bob.token, 'rollers'), [], 'made private: gone for the other customer')
      assert.deepEqual(await search(h, d.alice.token, 'rollers'), [ticket.id])
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/comments/${privateReply.id}`, token: d.agent.token, payload: { body: 'Your serial is qq42lambda.' } }), 200)
      assert.deepEqual(await search(h, d.agent.token, 'zx81kappa'), [])
      assert.deepEqual(await search(h, d.agent.token, 'qq42lambda'), [ticket.id])
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/comments/${privateReply.id}`, token: d.agent.token }), 200)
      assert.deepEqual(await search(h, d.agent.token, 'qq42lambda'), [])
      assert.deepEqual(await search(h, d.agent.token, 'printer'), [ticket.id], 'the ticket\'s own words stay')
    })

    it('finds the comments of imported tickets, written with them in one pass', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const [imported, bare] = await h.helpdesk.tickets.importMany([
        {
          user_id: d.alice.user.id,
          category_id: d.billing,
          title: 'Imported',
          body: 'From the old desk.',
          private: false,
          comments: [
            { user_id: d.agent.user.id, body: '<p>Reboot the quokkaserver.</p>', type: 1 },
            { user_id: d.agent.user.id, body: '<p>Legacy wombatnote.</p>', type: 2 }
          ]
        },
        { user_id: d.bob.user.id, category_id: d.billing, title: 'Without comments', body: 'Plain platypusbody.' }
      ])
      assert.deepEqual(await search(h, d.admin.token, 'quokkaserver'), [imported])
      assert.deepEqual(await search(h, d.admin.token, 'wombatnote'), [imported])
      assert.deepEqual(await search(h, d.bob.token, 'quokkaserver'), [imported], 'a public reply of a public ticket')
      assert.deepEqual(await search(h, d.bob.token, 'wombatnote'), [])
      assert.deepEqual(await search(h, d.admin.token, 'platypusbody'), [bare], 'a ticket without comments is indexed too')
    })
  })
})
