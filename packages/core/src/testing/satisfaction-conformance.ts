import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { ListQuery } from '../list/list-query.js'
import type { TicketScope } from '../tickets/ticket-policy.js'
import { Role } from '../users/user.js'
import { aTicket, person, type WithStore } from './conformance-support.js'

function scopeOf (viewerId: number, staff: boolean): TicketScope {
  return staff
    ? { tickets: { all: true }, comments: { all: true }, viewerId }
    : { tickets: { ownerOrPublic: viewerId }, comments: { repliesFor: viewerId }, viewerId }
}

const withSatisfaction: ListQuery = { include: ['satisfaction'], sort: [{ field: 'id', desc: false }], partial: {}, exact: {}, page: 1, perPage: 20 }

/** The contract of `SatisfactionRepository` (`satisfaction/satisfaction-store.ts`) and the tickets' `satisfaction` include. */
export function satisfactionConformance (withStore: WithStore): void {
  describe('satisfaction', () => {
    it('numbers the resolutions of a ticket 1, 2, ... (also when closings race), latest first; a ticket never closed has none', async () => {
      await withStore(async ({ store, clock }) => {
        const { ticketId } = await aTicket(store)
        const other = await aTicket(store, 'other@example.com')
        const category = (await store.tickets.findById(ticketId))!.category_id
        assert.equal(await store.satisfaction.latest(ticketId), null)
        assert.deepEqual(await store.satisfaction.ofTicket(ticketId), [])
        const first = await store.satisfaction.addResolution({ ticket_id: ticketId, closed_by: null, agent_id: null, category_id: category })
        assert.deepEqual(first, {
          ticket_id: ticketId, resolution: 1, closed_at: clock.at(), closed_by: null, agent_id: null, category_id: category,
          rating: null, comment: null, customer_id: null, channel: null, rated_at: null, rating_updated_at: null
        })
        clock.advance(1000)
        // Closings write the ticket's status first, in the same transaction: that is what queues concurrent ones.
        const numbers = await Promise.all([1, 2, 3].map(async () => await store.transaction(async (tx) => {
          await tx.tickets.update(ticketId, { status: 3 })
          return (await tx.satisfaction.addResolution({ ticket_id: ticketId, closed_by: null, agent_id: null, category_id: category })).resolution
        })))
        assert.deepEqual([...numbers].sort(), [2, 3, 4])
        assert.deepEqual((await store.satisfaction.ofTicket(ticketId)).map((r) => r.resolution), [4, 3, 2, 1])
        assert.equal((await store.satisfaction.latest(ticketId))?.resolution, 4)
        assert.equal((await store.satisfaction.addResolution({ ticket_id: other.ticketId, closed_by: null, agent_id: null, category_id: category })).resolution, 1, 'each ticket counts its own')
      })
    })

    it('rates one resolution: before and after, rated_at kept from the first rating, an absent comment kept; null for a missing one; gone with the ticket', async () => {
      await withStore(async ({ store, clock }) => {
        const { ownerId, ticketId } = await aTicket(store)
        const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
        const category = (await store.tickets.findById(ticketId))!.category_id
        await store.satisfaction.addResolution({ ticket_id: ticketId, closed_by: agent.id, agent_id: agent.id, category_id: category })
        const rating = { rating: 'good' as const, comment: 'Thanks', customer_id: ownerId, agent_id: agent.id, category_id: category, channel: 'mail' as const }
        assert.equal(await store.satisfaction.rate(ticketId, 2, rating), null)
        const first = await store.satisfaction.rate(ticketId, 1, rating)
        assert.equal(first?.before.rating, null)
        assert.deepEqual(first?.after, {
          ticket_id: ticketId, resolution: 1, closed_at: clock.at(), closed_by: agent.id, agent_id: agent.id, category_id: category,
          rating: 'good', comment: 'Thanks', customer_id: ownerId, channel: 'mail', rated_at: clock.at(), rating_updated_at: clock.at()
        })
        clock.advance(5000)
        const second = await store.satisfaction.rate(ticketId, 1, { ...rating, rating: 'bad', comment: undefined, channel: 'console' })
        assert.deepEqual(second?.before, first?.after)
        assert.deepEqual([second?.after.rating, second?.after.comment, second?.after.channel, second?.after.rated_at, second?.after.rating_updated_at],
          ['bad', 'Thanks', 'console', clock.at(-5000), clock.at()])
        assert.equal((await store.satisfaction.rate(ticketId, 1, { ...rating, comment: null }))?.after.comment, null)

        // The include: the latest rated resolution, for the owner and staff only.
        const stranger = await store.users.create(person(Role.Customer, 'stranger@example.com'))
        await store.tickets.update(ticketId, { private: false })
        const included = async (viewerId: number, staff: boolean) =>
          (await store.tickets.list(scopeOf(viewerId, staff), withSatisfaction)).items.find((t) => t.id === ticketId)?.satisfaction as { rating: string } | null | undefined
        assert.equal((await included(ownerId, false))?.rating, 'good')
        assert.equal((await included(agent.id, true))?.rating, 'good')
        assert.equal(await included(stranger.id, false), null, 'another customer reading a public ticket')
        await store.satisfaction.addResolution({ ticket_id: ticketId, closed_by: null, agent_id: null, category_id: category })
        assert.equal((await included(ownerId, false))?.rating, 'good', 'an unrated later closing leaves the latest rating shown')

        assert.equal(await store.tickets.delete(ticketId), true)
        assert.deepEqual(await store.satisfaction.ofTicket(ticketId), [])
      })
    })
  })
}
