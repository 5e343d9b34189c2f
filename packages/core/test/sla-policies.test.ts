import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  businessCalendar, checkPolicyInput, receivesTicketChange, evaluateTicketSla, matchesConditions, matchPolicy, SLA_CONDITIONS, TicketStatus, twentyFourSevenCalendar, ValidationError,
  type SlaConfig, type SlaPolicy, type Ticket
} from '../src/index.js'

const split = [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }]
const office = businessCalendar({ time_zone: 'Europe/Berlin', hours: { mon: split, tue: split, wed: split, thu: split, fri: split } })

function policy (id: number, patch: Partial<SlaPolicy>): SlaPolicy {
  return {
    id, name: `P${id}`, position: id, is_default: false, conditions: {}, first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 480,
    calendar_id: 2, warning_minutes: 30, warnings_follow_calendar: true, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00', ...patch
  }
}

const config: SlaConfig = {
  policies: [
    policy(2, { conditions: { email_domains: ['bigcustomer.com'] }, first_response_minutes: 15, calendar_id: 1 }),
    policy(3, { conditions: { category_ids: [7], fields: { 4: ['Gold', 'Platinum'] } }, first_response_minutes: 30 }),
    policy(4, { conditions: { category_ids: [7] } }),
    policy(1, { is_default: true, first_response_minutes: null, next_response_minutes: null, resolution_minutes: 1440, calendar_id: 1 })
  ],
  calendars: new Map([[1, twentyFourSevenCalendar()], [2, office]]),
  paused_statuses: [TicketStatus.Pending],
  needs_email: true
}

function ticket (patch: Partial<Ticket> = {}): Ticket {
  return {
    id: 1, user_id: 10, creator_id: 10, category_id: 7, assigned_agent_id: null, status: TicketStatus.Open, private: true, title: 'T', body: 'B',
    additional: { fields: {} }, agent_assigned_at: null, created_at: '2026-01-12 08:00:00', updated_at: '2026-01-12 08:00:00', ...patch
  }
}

const facts = (t: Ticket, email: string | null = 'ann@example.com') => ({ category_id: t.category_id, user_id: t.user_id, fields: t.additional.fields ?? {}, email })

describe('SLA policies: matching and evaluation', () => {
  it('takes the first policy whose conditions all hold, else the default one', () => {
    assert.equal(matchPolicy(config, facts(ticket(), 'boss@sub.bigcustomer.com'))?.id, 2)
    assert.equal(matchPolicy(config, facts(ticket({ additional: { fields: { 4: 'Gold' } } })))?.id, 3)
    assert.equal(matchPolicy(config, facts(ticket({ additional: { fields: { 4: 'Bronze' } } })))?.id, 4)
    assert.equal(matchPolicy(config, facts(ticket({ category_id: 8 })))?.id, 1)
    assert.equal(matchPolicy(config, facts(ticket({ category_id: 8 }), 'x@notbigcustomer.com'))?.id, 1, 'a domain matches whole labels only')
    assert.equal(matchesConditions({ customer_ids: [10, 11] }, facts(ticket())), true)
    assert.equal(matchesConditions({ customer_ids: [11] }, facts(ticket())), false)
  })

  it('checks conditions by kind, so a new kind (priority) is one entry', () => {
    assert.deepEqual(Object.keys(SLA_CONDITIONS).sort(), ['category_ids', 'customer_ids', 'email_domains', 'fields'])
    assert.deepEqual(checkPolicyInput({ name: 'X', calendar_id: 1, conditions: { email_domains: ['@BigCustomer.com '], category_ids: [3, 3] } }, true).conditions,
      { email_domains: ['bigcustomer.com'], category_ids: [3] })
    assert.throws(() => checkPolicyInput({ name: 'X', calendar_id: 1, conditions: { priority: [1] } }, true),
      (error: unknown) => error instanceof ValidationError && error.errors['conditions.priority'] !== undefined)
    assert.throws(() => checkPolicyInput({ name: 'X', calendar_id: 1, first_response_minutes: 0 }, true),
      (error: unknown) => error instanceof ValidationError && error.errors.first_response_minutes !== undefined)
  })

  it('moves a ticket to the policy its new category matches, keeping the time used and paused (GLPI #15605)', () => {
    // Monday 09:00 CET under policy 4 (office hours); a staff reply at 09:40 makes it Pending until Tuesday 10:00.
    let state = evaluateTicketSla(config, null, ticket(), null, null, new Date('2026-01-12T08:00:00Z')).state
    state = evaluateTicketSla(config, state, ticket({ status: TicketStatus.Pending }), null, { reply: 'staff' }, new Date('2026-01-12T08:40:00Z')).state
    const back = evaluateTicketSla(config, state, ticket(), null, { reply: 'customer' }, new Date('2026-01-13T09:00:00Z'))
    assert.equal(back.state.paused_minutes, 440)
    // Moved to category 8 (the default policy: 24 hours around the clock) at 10:30: 70 business minutes used carry over.
    const moved = evaluateTicketSla(config, back.state, ticket({ category_id: 8 }), null, null, new Date('2026-01-13T09:30:00Z'))
    assert.equal(moved.state.policy_id, 1)
    assert.equal(moved.state.paused_minutes, 440)
    assert.equal(moved.due.first_response_due_at, null)
    assert.equal(moved.due.resolution_due_at, '2026-01-14 08:20:00')
    assert.deepEqual(moved.state.timeline.events.map((e) => e.type), ['staff_reply', 'status', 'customer_reply', 'status', 'policy'])
  })

  it('re-evaluating with nothing new adds nothing and gives the same due times (a property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 20 * 24 * 60 }), fc.integer({ min: 0, max: 10 * 24 * 60 }), (openMinutes, laterMinutes) => {
      const first = new Date(Date.parse('2026-03-20T08:00:00Z') + openMinutes * 60_000)
      const a = evaluateTicketSla(config, null, ticket({ created_at: '2026-03-20 08:00:00' }), null, null, first)
      const b = evaluateTicketSla(config, a.state, ticket({ created_at: '2026-03-20 08:00:00' }), null, null, new Date(first.getTime() + laterMinutes * 60_000))
      assert.equal(b.changed, false)
      assert.deepEqual(b.state.timeline, a.state.timeline)
      // A running clock's due time does not depend on when it is read.
      assert.equal(b.due.resolution_due_at, a.due.resolution_due_at)
    }), { numRuns: 60 })
  })

  it('streams warnings and breaches to staff only, never to the ticket\'s owner (even on a public ticket)', () => {
    const t = ticket({ private: false })
    const event = {
      id: 1, type: 'Tickets.SlaBreached', actor_id: null, ticket_id: t.id, created_at: '2026-01-12 09:00:00',
      payload: { ticket: t, category: { id: 7, name: 'Billing' }, sla: { target: 'first_response', due_at: '2026-01-12 09:00:00', policy_id: 4 } }
    }
    assert.equal(receivesTicketChange(event, { userId: t.user_id, scope: { tickets: { ownerOrPublic: t.user_id }, comments: { repliesFor: t.user_id } } }), false)
    assert.equal(receivesTicketChange(event, { userId: 99, scope: { tickets: { all: true }, comments: { all: true } } }), true)
  })
})
