import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { candidateIds, defaultNotificationSettings, notificationRules, recipientsOf, ruleFor, type DomainEvent } from '../src/index.js'

const ticket = { id: 5, title: 'Printer', user_id: 30, creator_id: 30, category_id: 2, assigned_agent_id: 20, status: 1, private: true }
const base = { ticket, category: { id: 2, name: 'Hardware' } }

function commentEvent (type: 1 | 2, byStaff: boolean, actorId: number, assigned: number | null = 20): DomainEvent {
  return {
    type: 'Tickets.CommentAdded',
    actor_id: actorId,
    ...base,
    ticket: { ...ticket, assigned_agent_id: assigned },
    comment: { id: 9, type, private: true, preview: 'Hi', user_id: actorId },
    by_staff: byStaff
  }
}

describe('notification rules', () => {
  const comment = notificationRules['Tickets.CommentAdded']

  it('a staff reply goes to the owner (private replies included) and the assigned agent', () => {
    assert.deepEqual(comment.audience(commentEvent(1, true, 21)), { users: [30, 20], setting: 'new_comment' })
  })

  it('a customer reply goes to the assigned agent, else to the category agents', () => {
    assert.deepEqual(comment.audience(commentEvent(1, false, 30)), { users: [20], setting: 'new_comment' })
    assert.deepEqual(comment.audience(commentEvent(1, false, 30, null)), { users: [], staff: { categoryId: 2 }, setting: 'new_comment' })
  })

  it('a note goes to the assigned agent only', () => {
    assert.deepEqual(comment.audience(commentEvent(2, true, 21)), { users: [20], setting: 'new_comment' })
  })

  it('never the actor, each user once, and settings decide', () => {
    const audience = { users: [20, 30, null], setting: 'new_comment' as const }
    assert.deepEqual(candidateIds(audience, [20, 40], 30), [20, 40])
    const quiet = { ...defaultNotificationSettings(), new_comment: false }
    assert.deepEqual(recipientsOf(audience, [{ id: 20, notifications: quiet }, { id: 40, notifications: defaultNotificationSettings() }]), [40])
    assert.deepEqual(recipientsOf({ ...audience, setting: null }, [{ id: 20, notifications: quiet }]), [20])
  })

  it('payloads carry the keys of the contract', () => {
    const data = comment.data(commentEvent(1, true, 21))
    assert.deepEqual(data, { ticket: { id: 5, title: 'Printer' }, category: { id: 2, name: 'Hardware' }, author_id: 21, comment: { id: 9, preview: 'Hi' } })
    const assigned = ruleFor('Tickets.TicketAssigned')!.data({ type: 'Tickets.TicketAssigned', actor_id: 1, ...base, agent: { id: 20, first_name: 'Grace', last_name: 'Hopper' } })
    assert.deepEqual(assigned.agent, { id: 20, name: 'Grace Hopper' })
    assert.equal(ruleFor('Tickets.TicketDeleted'), null)
    assert.equal(ruleFor('Something.Else'), null)
  })
})
