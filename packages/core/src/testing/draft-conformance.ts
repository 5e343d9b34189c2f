import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import type { ListQuery } from '../list/list-query.js'
import type { Store } from '../store.js'
import { Role } from '../users/user.js'
import { aTicket, person, type WithStore } from './conformance-support.js'

const newest: ListQuery = { include: ['ticket'], sort: [{ field: 'updated_at', desc: true }], partial: {}, exact: {}, page: 1, perPage: 20 }

async function anUpload (store: Store, userId: number): Promise<string> {
  const id = randomUUID()
  await store.attachments.create({ id, user_id: userId, name: 'a.txt', file_name: `${id}.txt`, mime_type: 'text/plain', size: 3 })
  return id
}

/** The contract of `DraftRepository` (`drafts/draft-store.ts`) and what drafts change in `AttachmentRepository`. */
export function draftConformance (withStore: WithStore): void {
  describe('drafts', () => {
    it('keeps one draft per author and ticket: a save replaces it (also when saves race), with exactly the uploads it names', async () => {
      await withStore(async ({ store, clock }) => {
        const { ticketId } = await aTicket(store)
        const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
        const colleague = await store.users.create(person(Role.Agent, 'colleague@example.com'))
        assert.equal(await store.drafts.find(agent.id, ticketId), null)
        const [a, b] = [await anUpload(store, agent.id), await anUpload(store, agent.id)]
        const first = await store.drafts.save({ user_id: agent.id, ticket_id: ticketId, type: 1, body: '<p>One</p>', private: false, attachment_ids: [a, b] })
        assert.deepEqual([first.type, first.body, first.private, first.created_at, first.attachments.map((x) => x.id).sort()], [1, '<p>One</p>', false, clock.at(), [a, b].sort()])
        clock.advance(1000)
        const second = await store.drafts.save({ user_id: agent.id, ticket_id: ticketId, type: 2, body: 'Two', private: true, attachment_ids: [b] })
        assert.deepEqual([second.id, second.type, second.private, second.created_at, second.updated_at], [first.id, 2, true, first.created_at, clock.at()])
        assert.deepEqual(second.attachments.map((x) => x.id), [b])
        assert.deepEqual(await store.drafts.find(agent.id, ticketId), second)
        assert.equal(await store.drafts.find(colleague.id, ticketId), null, 'another author has none')

        await Promise.all([1, 2, 3, 4].map(async (n) => await store.drafts.save({ user_id: colleague.id, ticket_id: ticketId, type: 1, body: `Race ${n}`, private: false, attachment_ids: [] })))
        assert.equal(await store.drafts.count(colleague.id), 1)
        assert.match((await store.drafts.find(colleague.id, ticketId))!.body, /^Race [1-4]$/)

        assert.equal(await store.drafts.delete(agent.id, ticketId), true)
        assert.equal(await store.drafts.delete(agent.id, ticketId), false)
        assert.ok(await store.attachments.findById(b) !== null, 'a discarded draft leaves its uploads')
      })
    })

    it('lists an author\'s drafts on tickets the visibility allows, newest first, with their uploads and the ticket include', async () => {
      await withStore(async ({ store, clock }) => {
        const mine = await aTicket(store)
        const theirs = await aTicket(store, 'other@example.com')
        await store.tickets.update(theirs.ticketId, { private: true })
        const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
        const upload = await anUpload(store, agent.id)
        await store.drafts.save({ user_id: agent.id, ticket_id: mine.ticketId, type: 1, body: 'Older', private: false, attachment_ids: [upload] })
        clock.advance(1000)
        await store.drafts.save({ user_id: agent.id, ticket_id: theirs.ticketId, type: 1, body: 'Newer', private: false, attachment_ids: [] })
        await store.drafts.save({ user_id: mine.ownerId, ticket_id: mine.ticketId, type: 1, body: 'The owner\'s', private: false, attachment_ids: [] })
        const all = await store.drafts.list(agent.id, { all: true }, newest)
        assert.deepEqual([all.total, ...all.items.map((d) => d.body)], [2, 'Newer', 'Older'])
        assert.deepEqual(all.items[1]?.attachments.map((a) => a.id), [upload])
        assert.equal((all.items[0]?.ticket as { id: number } | undefined)?.id, theirs.ticketId)
        const some = await store.drafts.list(agent.id, { ownerOrPublic: mine.ownerId }, newest)
        assert.deepEqual(some.items.map((d) => d.body), ['Older'], 'a private ticket of someone else drops out')
        assert.equal(await store.drafts.count(agent.id), 2)
      })
    })

    it('keeps a draft\'s uploads from pruning; linking one takes it out of its draft; an upload sits in one draft at most', async () => {
      await withStore(async ({ store }) => {
        const { ticketId } = await aTicket(store)
        const other = await aTicket(store, 'other@example.com')
        const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
        const [held, loose, moved] = [await anUpload(store, agent.id), await anUpload(store, agent.id), await anUpload(store, agent.id)]
        await store.drafts.save({ user_id: agent.id, ticket_id: ticketId, type: 1, body: '', private: false, attachment_ids: [held, moved] })
        await store.drafts.save({ user_id: agent.id, ticket_id: other.ticketId, type: 1, body: '', private: false, attachment_ids: [moved] })
        assert.deepEqual((await store.drafts.find(agent.id, ticketId))?.attachments.map((a) => a.id), [held])
        assert.equal(await store.attachments.deleteUnlinkedBefore('9999-01-01 00:00:00', 100).then((names) => names.length), 1)
        assert.equal(await store.attachments.findById(loose), null)
        assert.ok(await store.attachments.findById(held) !== null)
        assert.equal(await store.attachments.link([held], agent.id, { ticket_id: ticketId, comment_id: null }), 1)
        assert.deepEqual((await store.drafts.find(agent.id, ticketId))?.attachments, [])
        await store.tickets.delete(ticketId)
        assert.equal(await store.drafts.find(agent.id, ticketId), null, 'gone with the ticket')
        assert.equal(await store.drafts.count(agent.id), 1)
      })
    })
  })
}
