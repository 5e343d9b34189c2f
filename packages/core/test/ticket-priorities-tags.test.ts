import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  checkedTicketTags, priorityOfRank, priorityRank, PRIORITIES, readableTicket, ruleTicketOf, sameTags, ticketStreamData,
  type FieldErrors, type Ticket, type User
} from '../src/index.js'

const ticket: Ticket = {
  id: 4, user_id: 9, creator_id: 9, category_id: 1, assigned_agent_id: null, status: 1, priority: 'high', private: false,
  title: 'Refund', body: 'x', additional: { fields: { 3: 'a' } }, agent_assigned_at: null, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00'
}
const person = (role: number, id = 1) => ({ id, role, permissions: {} }) as unknown as User

describe('ticket priorities and tags (pure)', () => {
  it('ranks priorities low < normal < high < urgent, and reads unknown ranks as normal', () => {
    assert.deepEqual(PRIORITIES.map(priorityRank), [0, 1, 2, 3])
    assert.deepEqual([0, 1, 2, 3].map(priorityOfRank), ['low', 'normal', 'high', 'urgent'])
    assert.equal(priorityOfRank(9), 'normal')
  })

  it('normalises tag names (trimmed, spaces collapsed, lowercased, no repeats) and keys errors by position', () => {
    const errors: FieldErrors = {}
    assert.deepEqual(checkedTicketTags(errors, ['  Refund ', 'refund', 'Big  Deal', 'été']), ['refund', 'big deal', 'été'])
    assert.deepEqual(errors, {})
    checkedTicketTags(errors, ['ok', '', '#x', 'a'.repeat(51)])
    assert.deepEqual(Object.keys(errors).sort(), ['tags.1', 'tags.2', 'tags.3'])
    const many: FieldErrors = {}
    checkedTicketTags(many, Array.from({ length: 51 }, (_, i) => `t${i}`))
    assert.ok(many.tags !== undefined)
    assert.ok(sameTags(['a', 'b'], ['b', 'a']))
    assert.ok(!sameTags(['a'], ['a', 'b']))
  })

  it('hides the tags include from customers, never from staff', () => {
    const tagged = { ...ticket, tags: [{ id: 1, name: 'angry' }] }
    assert.deepEqual((readableTicket(person(3, 9), tagged) as typeof tagged).tags, [])
    assert.deepEqual((readableTicket(person(3, 5), tagged) as typeof tagged).tags, [])
    assert.deepEqual((readableTicket(person(2), tagged) as typeof tagged).tags, [{ id: 1, name: 'angry' }])
  })

  it('streams the priority and the changed fields, never the tags', () => {
    const data = ticketStreamData({
      id: 1, type: 'Tickets.TicketUpdated', actor_id: 2, created_at: '2026-01-01 00:00:00',
      payload: { ticket: { ...ticket, tags: [{ id: 1, name: 'angry' }] }, changes: ['priority', 'tags'] }
    } as never)
    assert.equal(data?.ticket.priority, 'high')
    assert.deepEqual(data?.changes, ['priority', 'tags'])
    assert.equal('tags' in (data?.ticket ?? {}), false)
  })

  it('shows a ticket to rules with its tag names and answers', () => {
    assert.deepEqual(ruleTicketOf(ticket, [{ id: 1, name: 'vip' }]), {
      id: 4, status: 1, category_id: 1, assigned_agent_id: null, priority: 'high', tags: ['vip'], fields: { 3: 'a' }, title: 'Refund', private: false
    })
  })
})
