import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { commentList, NotFoundError, parseListQuery, ticketList, viewQuery, type User } from '@helpdesk/core'
import { testDialects } from '../src/index.js'
import { comment, deskOn, grant, sortedIds, ticket, type Desk } from './use-case-fixtures.js'

/** Alice's private billing ticket, Bob's private sales ticket, Bob's public sales ticket, Bob's sales ticket assigned to the agent. */
async function fourTickets (d: Desk) {
  const word = 'Gearbox'
  const aliceBilling = await ticket(d, d.alice, { category: d.billing, title: `${word} Alice billing` })
  const bobSales = await ticket(d, d.bob, { category: d.sales, title: `${word} Bob sales` })
  const bobPublic = await ticket(d, d.bob, { category: d.sales, title: `${word} Bob public`, private: false })
  const bobAssigned = await ticket(d, d.bob, { category: d.sales, title: `${word} Bob assigned` })
  await d.helpdesk.tickets.assign(d.admin, bobAssigned.id, d.agent.id)
  return { aliceBilling, bobSales, bobPublic, bobAssigned }
}

/**
 * What `actor` sees, every way there is: the list (with its total), the
 * search, each single view and comment list. All must agree.
 */
async function seen (d: Desk, actor: User, all: number[]): Promise<number[]> {
  const page = await d.helpdesk.tickets.list(actor, parseListQuery(ticketList, { per_page: 100 }))
  const ids = sortedIds(page.items)
  assert.equal(page.total, ids.length, 'the total counts what is listed')
  const searched = await d.helpdesk.tickets.list(actor, parseListQuery(ticketList, { per_page: 100, filters: { search: 'Gearbox' } }))
  assert.deepEqual(sortedIds(searched.items), ids, 'search finds what the list shows, no more')
  assert.equal(searched.total, ids.length)
  for (const id of all) {
    const visible = ids.includes(id)
    const view = async () => await d.helpdesk.tickets.view(actor, id, viewQuery(ticketList, undefined))
    const comments = async () => await d.helpdesk.comments.list(actor, id, parseListQuery(commentList, {}))
    if (visible) {
      assert.equal((await view()).id, id)
      await comments()
    } else {
      await assert.rejects(view, NotFoundError, `ticket ${id} is not found for ${actor.email}`)
      await assert.rejects(comments, NotFoundError)
    }
  }
  return ids
}

/** Who sees which tickets and comments (CONTRACT §3), at the service level. */
for (const dialect of testDialects()) {
  describe(`ticket visibility on ${dialect}`, () => {
    it('shows an agent its categories\' tickets and those assigned to it; with view_all_tickets, all', async (t) => {
      const d = await deskOn(t, dialect)
      const x = await fourTickets(d)
      const all = sortedIds(Object.values(x))
      assert.deepEqual(await seen(d, d.agent, all), sortedIds([x.aliceBilling, x.bobAssigned]))
      const viewsAll = await grant(d, d.agent, 'view_all_tickets')
      assert.deepEqual(await seen(d, viewsAll, all), all)
    })

    it('shows an agent covering every category all tickets, until a category it does not cover appears', async (t) => {
      const d = await deskOn(t, dialect)
      const x = await fourTickets(d)
      await d.helpdesk.agents.setCategories(d.admin, d.agent.id, [d.billing, d.sales])
      // The lists and searches test "covers every category" once a query instead of each ticket's category.
      assert.deepEqual(await seen(d, d.agent, sortedIds(Object.values(x))), sortedIds(Object.values(x)))
      const support = (await d.helpdesk.categories.create(d.admin, { name: 'Support' })).id
      const outside = await ticket(d, d.bob, { category: support, title: 'Gearbox Bob support' })
      const inside = await ticket(d, d.alice, { category: d.billing, title: 'Gearbox Alice billing again' })
      const all = sortedIds([...Object.values(x), outside, inside])
      assert.deepEqual(await seen(d, d.agent, all), sortedIds([...Object.values(x), inside]))
      const categories = await d.helpdesk.tickets.list(d.agent, parseListQuery(ticketList, { per_page: 100, filters: { categories: `${d.billing},${support}` } }))
      assert.deepEqual(sortedIds(categories.items), sortedIds([x.aliceBilling, inside]))
      assert.equal(categories.total, 2)
      await d.helpdesk.tickets.assign(d.admin, outside.id, d.agent.id)
      assert.deepEqual(await seen(d, d.agent, all), all)
    })

    it('shows customers their own tickets and public ones; administrators all', async (t) => {
      const d = await deskOn(t, dialect)
      const x = await fourTickets(d)
      const all = sortedIds(Object.values(x))
      assert.deepEqual(await seen(d, d.alice, all), sortedIds([x.aliceBilling, x.bobPublic]))
      assert.deepEqual(await seen(d, d.bob, all), sortedIds([x.bobSales, x.bobPublic, x.bobAssigned]))
      assert.deepEqual(await seen(d, d.admin, all), all)
    })

    it('hides notes, and private replies on tickets they do not own, from customers', async (t) => {
      const d = await deskOn(t, dialect)
      const { id } = await ticket(d, d.alice, { category: d.billing, private: false })
      const mine = await comment(d, d.alice, id, { body: 'Any news?' })
      const publicReply = await comment(d, d.agent, id, { body: 'Soon' })
      const privateReply = await comment(d, d.agent, id, { body: 'Your card ends 4242', private: true })
      const note = await comment(d, d.agent, id, { type: 2, body: 'Ask finance' })
      const list = async (actor: User): Promise<number[]> => {
        const page = await d.helpdesk.comments.list(actor, id, parseListQuery(commentList, { per_page: 100 }))
        assert.equal(page.total, page.items.length)
        return page.items.map((c) => c.id)
      }
      const view = async (actor: User, commentId: number): Promise<number> => (await d.helpdesk.comments.view(actor, commentId, viewQuery(commentList, undefined))).id
      assert.deepEqual(await list(d.agent), [mine.id, publicReply.id, privateReply.id, note.id])
      assert.deepEqual(await list(d.admin), [mine.id, publicReply.id, privateReply.id, note.id])
      assert.deepEqual(await list(d.alice), [mine.id, publicReply.id, privateReply.id], 'the owner sees private replies, never notes')
      assert.deepEqual(await list(d.bob), [mine.id, publicReply.id], 'others see public replies only')
      assert.equal(await view(d.alice, privateReply.id), privateReply.id)
      assert.equal(await view(d.agent, note.id), note.id)
      await assert.rejects(view(d.alice, note.id), NotFoundError)
      await assert.rejects(view(d.bob, note.id), NotFoundError)
      await assert.rejects(view(d.bob, privateReply.id), NotFoundError)
      assert.equal(await view(d.bob, publicReply.id), publicReply.id)
      // last_reply (the newest comment the caller may see) and replies-count (replies only) follow the same rule.
      const withReplies = async (actor: User) => {
        const viewed = await d.helpdesk.tickets.view(actor, id, viewQuery(ticketList, 'last_reply,replies-count')) as any
        return [viewed.last_reply?.id ?? null, viewed.replies_count]
      }
      assert.deepEqual(await withReplies(d.agent), [note.id, 3])
      assert.deepEqual(await withReplies(d.alice), [privateReply.id, 3])
      assert.deepEqual(await withReplies(d.bob), [publicReply.id, 2])
      // Once the ticket is private again, Bob sees none of it.
      await d.helpdesk.tickets.setPrivate(d.admin, id, true)
      await assert.rejects(list(d.bob), NotFoundError)
      await assert.rejects(view(d.bob, publicReply.id), NotFoundError)
      await assert.rejects(view(d.bob, mine.id), NotFoundError)
    })

    it('matches purchase codes, emails and marketplace usernames only for staff and the owner (CONTRACT §17)', async (t) => {
      const d = await deskOn(t, dialect)
      await d.store.users.update(d.bob.id, { marketplace_username: 'bobthebuilder' })
      const bob = (await d.store.users.findById(d.bob.id))!
      const open = (await ticket(d, bob, { category: d.billing, title: 'Scaffold wobbles', body: '<p>Rivets loose.</p>', purchase_code: 'zx81-secret-7f3a', private: false })).id
      const found = async (actor: User, filters: Record<string, string>): Promise<number[]> =>
        sortedIds((await d.helpdesk.tickets.list(actor, parseListQuery(ticketList, { per_page: 100, filters }))).items)
      assert.deepEqual(await found(d.alice, { search: 'Scaffold' }), [open], 'the public ticket is searchable by its title')
      for (const text of ['zx81', 'zx81-secret-7f3a', 'secret', 'bobthebuilder', 'bobthe', 'thebuild', bob.email, bob.email.slice(3, 12)]) {
        assert.deepEqual(await found(d.alice, { search: text }), [], `another customer matches nothing by "${text}"`)
        assert.deepEqual(await found(bob, { search: text }), [open], `the owner matches "${text}"`)
        assert.deepEqual(await found(d.admin, { search: text }), [open], `staff match "${text}"`)
      }
      for (const text of ['Bob', 'Builder', 'uilde', 'Rivets', String(open)]) assert.deepEqual(await found(d.alice, { search: text }), [open], text)
      // The email filter is an owner-only field too.
      assert.deepEqual(await found(d.alice, { email: bob.email }), [])
      assert.deepEqual(await found(bob, { email: bob.email }), [open])
      assert.deepEqual(await found(d.admin, { email: bob.email }), [open])
      // The purchase code is kept, and shown only to the owner and staff.
      const code = async (actor: User) => (await d.helpdesk.tickets.view(actor, open, viewQuery(ticketList, undefined))).additional.purchase_code
      assert.deepEqual([await code(bob), await code(d.admin), await code(d.alice)], ['zx81-secret-7f3a', 'zx81-secret-7f3a', undefined])
    })
  })
}
