import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { businessCalendar, evaluateTicketSla, importedTicketSla, TicketStatus, type SlaConfig, type SlaPolicy, type SlaTicket } from '../src/index.js'

const always = businessCalendar({ time_zone: 'UTC', twenty_four_seven: true })
const policy: SlaPolicy = {
  id: 1, name: 'Default', position: 1, is_default: true, conditions: {}, first_response_minutes: 60, next_response_minutes: 30, resolution_minutes: 600,
  calendar_id: 1, warning_minutes: 15, warnings_follow_calendar: true, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00'
}
const config: SlaConfig = { policies: [policy], calendars: new Map([[1, always]]), paused_statuses: [TicketStatus.Pending], needs_email: false }
const now = new Date('2026-01-12T12:00:00Z')

function ticket (patch: Partial<SlaTicket> = {}): SlaTicket {
  return { id: 7, created_at: '2026-01-12 10:00:00', updated_at: '2026-01-12 10:00:00', status: TicketStatus.Open, category_id: 1, user_id: 2, additional: { fields: {} }, ...patch }
}

describe('importedTicketSla', () => {
  it('starts the clocks at the imported creation, takes the replies at their times and the status from the last activity', () => {
    const pending = importedTicketSla(config, null, ticket({ status: TicketStatus.Pending }), undefined, {
      replies: [{ at: '2026-01-12 10:30:00', staff: false }, { at: '2026-01-12 10:20:00', staff: true }], last_activity_at: '2026-01-12 11:00:00'
    }, now)
    assert.deepEqual(pending.state.timeline.events, [
      { type: 'staff_reply', at: '2026-01-12 10:20:00' }, { type: 'customer_reply', at: '2026-01-12 10:30:00' },
      { type: 'status', at: '2026-01-12 11:00:00', status: TicketStatus.Pending }
    ])
    assert.equal(pending.state.timeline.imported_at, '2026-01-12 12:00:00')
    assert.deepEqual([pending.state.targets.first_response?.state, pending.state.targets.first_response?.met_at], ['met', '2026-01-12 10:20:00'])
    // The next-response wait (from 10:30) and the resolution stand still since the pause at 11:00.
    assert.deepEqual([pending.state.targets.next_response?.state, pending.state.targets.resolution?.state], ['paused', 'paused'])
    assert.equal(pending.state.paused_minutes, 60)
    assert.deepEqual(pending.due, { first_response_due_at: null, next_response_due_at: null, resolution_due_at: null, sla_next_due_at: null })
  })

  it('records a past due time as announced, keeps future ones for the escalation, and keeps history quiet at later evaluations', () => {
    const open = importedTicketSla(config, null, ticket(), undefined, { replies: [], last_activity_at: null }, now)
    // First response due 11:00 (past: history), resolution 20:00 (future: scanned).
    assert.deepEqual(open.due, { first_response_due_at: '2026-01-12 11:00:00', next_response_due_at: null, resolution_due_at: '2026-01-12 20:00:00', sla_next_due_at: '2026-01-12 20:00:00' })
    assert.deepEqual(open.state.announced, { first_response: { due_at: '2026-01-12 11:00:00', warning: true, breach: true, imported: true } })
    assert.equal(open.state.targets.first_response?.breached, true)

    // A later evaluation (a shorter target after a policy change) moves it to another past instant: still history.
    const shorter: SlaConfig = { ...config, policies: [{ ...policy, first_response_minutes: 30 }] }
    const later = evaluateTicketSla(shorter, open.state, ticket(), undefined, null, new Date('2026-01-12T13:00:00Z'))
    assert.equal(later.due.first_response_due_at, '2026-01-12 10:30:00')
    assert.equal(later.state.announced.first_response?.imported, true)
    assert.equal(later.due.sla_next_due_at, '2026-01-12 20:00:00')

    // A live customer reply after the import starts a wait that is announced as usual.
    const met = importedTicketSla(config, open.state, ticket(), undefined, { replies: [{ at: '2026-01-12 11:30:00', staff: true }], last_activity_at: '2026-01-12 11:30:00' }, now)
    assert.deepEqual([met.state.targets.first_response?.state, met.state.targets.first_response?.overdue_minutes], ['met', 30])
    const wait = evaluateTicketSla(config, met.state, ticket(), undefined, { reply: 'customer' }, new Date('2026-01-12T14:00:00Z'))
    assert.equal(wait.due.next_response_due_at, '2026-01-12 14:30:00')
    assert.equal(wait.due.sla_next_due_at, '2026-01-12 14:30:00')
  })

  it('runs no clock for a closed ticket but keeps its verdicts', () => {
    const closed = importedTicketSla(config, null, ticket({ status: TicketStatus.Closed, updated_at: '2026-01-12 10:45:00' }), undefined, {
      replies: [{ at: '2026-01-12 10:10:00', staff: true }], last_activity_at: '2026-01-12 10:10:00'
    }, now)
    assert.deepEqual(closed.due, { first_response_due_at: null, next_response_due_at: null, resolution_due_at: null, sla_next_due_at: null })
    assert.deepEqual([closed.state.targets.resolution?.state, closed.state.targets.resolution?.met_at, closed.state.targets.resolution?.breached], ['met', '2026-01-12 10:45:00', false])
    assert.deepEqual(closed.state.announced, {})
  })
})
