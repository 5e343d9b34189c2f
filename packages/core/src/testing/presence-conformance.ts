import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { CommentType } from '../tickets/comment.js'
import { Role } from '../users/user.js'
import { aTicket, person, type WithStore } from './conformance-support.js'

/** The contract of `PresenceRepository` (`presence/presence-store.ts`) and of the notifier's presence channel; the comments' `idsAfter`. */
export function presenceConformance (withStore: WithStore): void {
  describe('presence', () => {
    it('upserts one row per ticket and person, says when others would see a change, and reads only live rows', async () => {
      await withStore(async ({ store, clock }) => {
        const { ticketId } = await aTicket(store)
        const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
        const admin = await store.users.create(person(Role.Admin, 'admin@example.com'))
        const heard: number[][] = []
        const stop = await store.eventNotifier.listen({ ids: () => {}, resync: () => {}, presence: (ids) => { heard.push(ids) } })
        try {
          const beat = async (userId: number, state: 'viewing' | 'typing') =>
            await store.presence.upsert({ ticket_id: ticketId, user_id: userId, client_id: 'default', state, expires_at: clock.at(30_000) }, clock.at())
          assert.deepEqual(await beat(agent.id, 'viewing'), { changed: true })
          const since = clock.at()
          clock.advance(10_000)
          assert.deepEqual(await beat(agent.id, 'viewing'), { changed: false }, 'a heartbeat that changes nothing')
          assert.deepEqual(await beat(agent.id, 'typing'), { changed: true })
          assert.deepEqual(await beat(admin.id, 'viewing'), { changed: true })
          const live = await store.presence.liveOf([ticketId], clock.at())
          assert.deepEqual(live.map((e) => [e.user.id, e.state, e.since]), [[agent.id, 'typing', since], [admin.id, 'viewing', clock.at()]])
          assert.equal(live[0]?.user.email, 'agent@example.com')
          assert.equal(live[0]?.expires_at, clock.at(30_000))
          // 31 s later, nobody has beaten: both expired; a new beat starts a new stay.
          clock.advance(31_000)
          assert.deepEqual(await store.presence.liveOf([ticketId], clock.at()), [])
          assert.deepEqual(await beat(agent.id, 'typing'), { changed: true }, 'back after expiring is a change')
          assert.equal((await store.presence.liveOf([ticketId], clock.at()))[0]?.since, clock.at())
          assert.equal(await store.presence.remove(ticketId, agent.id, 'default', clock.at()), true)
          assert.equal(await store.presence.remove(ticketId, agent.id, 'default', clock.at()), false)
          for (let i = 0; i < 100 && heard.length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 20))
          assert.ok(heard.length >= 4 && heard.every((ids) => ids.length === 1 && ids[0] === ticketId), JSON.stringify(heard))
          // The admin's expired row: pruned by time, once.
          assert.equal(await store.presence.deleteExpired(clock.at(), 100), 1)
          assert.equal(await store.presence.deleteExpired(clock.at(), 100), 0)
          const facts = await store.presence.ticketFacts([ticketId, 999_999])
          assert.equal(facts.length, 1)
          assert.equal(facts[0]?.private, false)
        } finally {
          await stop()
        }
      })
    })

    it('keeps one row per tab and shows one entry per person: present while any tab is, typing while any tab types', async () => {
      await withStore(async ({ store, clock }) => {
        const { ticketId } = await aTicket(store)
        const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
        const heard: number[][] = []
        const stop = await store.eventNotifier.listen({ ids: () => {}, resync: () => {}, presence: (ids) => { heard.push(ids) } })
        try {
          const beat = async (tab: string, state: 'viewing' | 'typing', ttl = 30_000) =>
            await store.presence.upsert({ ticket_id: ticketId, user_id: agent.id, client_id: tab, state, expires_at: clock.at(ttl) }, clock.at())
          const seen = async () => (await store.presence.liveOf([ticketId], clock.at())).map((e) => [e.user.id, e.state, e.since, e.expires_at])
          assert.deepEqual(await beat('tab-a', 'viewing'), { changed: true })
          const since = clock.at()
          clock.advance(5_000)
          assert.deepEqual(await beat('tab-b', 'viewing'), { changed: false }, 'a second tab changes nothing others see')
          assert.deepEqual(await seen(), [[agent.id, 'viewing', since, clock.at(30_000)]], 'one entry, the first tab\'s start, the latest expiry')
          assert.deepEqual(await beat('tab-b', 'typing'), { changed: true })
          assert.deepEqual(await beat('tab-a', 'viewing'), { changed: false }, 'the other tab viewing: still typing')
          assert.deepEqual((await seen()).map((e) => e[1]), ['typing'])
          // The typing tab leaves: viewing (a change); then the other tab leaves: gone (a change).
          assert.equal(await store.presence.remove(ticketId, agent.id, 'tab-c', clock.at()), false, 'no such tab')
          assert.equal(await store.presence.remove(ticketId, agent.id, 'tab-b', clock.at()), true)
          assert.deepEqual(await seen(), [[agent.id, 'viewing', since, clock.at(30_000)]])
          assert.deepEqual(await beat('tab-b', 'viewing'), { changed: false }, 'back in a tab while another was there keeps the stay')
          assert.deepEqual((await seen()).map((e) => e[2]), [since])
          assert.equal(await store.presence.remove(ticketId, agent.id, 'tab-b', clock.at()), true)
          assert.equal(await store.presence.remove(ticketId, agent.id, 'tab-a', clock.at()), true)
          assert.deepEqual(await seen(), [])
          // Expiry is per tab: a silent tab drops out while the beating one stays.
          await beat('tab-a', 'typing', 10_000)
          await beat('tab-b', 'viewing', 60_000)
          clock.advance(11_000)
          assert.deepEqual((await seen()).map((e) => e[1]), ['viewing'], 'the silent typing tab expired')
          clock.advance(30_000)
          assert.equal(await store.presence.deleteExpired(clock.at(-1_000), 100), 1, 'only the expired tab is pruned')
          assert.equal((await seen()).length, 1)
          // Announced: the arrival, typing, back to viewing, gone, back typing; never a change others would not see.
          for (let i = 0; i < 100 && heard.length < 5; i++) await new Promise((resolve) => setTimeout(resolve, 20))
          await new Promise((resolve) => setTimeout(resolve, 100))
          assert.equal(heard.length, 5, JSON.stringify(heard))
        } finally {
          await stop()
        }
      })
    })

    it('lists the ids of comments after one, that a viewer may see, not written by the asker', async () => {
      await withStore(async ({ store }) => {
        const { ticketId, ownerId } = await aTicket(store)
        const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
        const ticket = (await store.tickets.findById(ticketId))!
        const add = async (userId: number, type: 1 | 2) => (await store.comments.create({ ticket_id: ticketId, user_id: userId, body: 'x', preview: 'x', type, private: false })).id
        const first = await add(agent.id, CommentType.Reply)
        const note = await add(agent.id, CommentType.Note)
        const reply = await add(ownerId, CommentType.Reply)
        assert.deepEqual(await store.comments.idsAfter(ticket, { all: true }, first, ownerId, 10), [note])
        assert.deepEqual(await store.comments.idsAfter(ticket, { all: true }, 0, agent.id, 10), [reply])
        assert.deepEqual(await store.comments.idsAfter(ticket, { repliesFor: ownerId }, 0, ownerId, 10), [first], 'a customer never hears of notes')
        assert.deepEqual(await store.comments.idsAfter(ticket, { all: true }, reply, agent.id, 10), [])
      })
    })
  })
}
