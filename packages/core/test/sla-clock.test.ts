import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  businessCalendar, slaClock, slaDueTimes, TicketStatus, warningInstant, type SlaClockInput, type SlaEvent, type SlaPolicyTerms, type SlaTimeline
} from '../src/index.js'

const { Open, Pending, Closed } = TicketStatus
const split = [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }]
/** Berlin office hours, Monday to Friday 09:00-12:00 and 13:00-17:00 (UTC+1 in January). */
const berlin = businessCalendar({ time_zone: 'Europe/Berlin', hours: { mon: split, tue: split, wed: split, thu: split, fri: split } })
const always = businessCalendar({ time_zone: 'Europe/Berlin', twenty_four_seven: true })

const policies: Record<string, SlaPolicyTerms> = {
  standard: { calendar: berlin, targets: { first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 480 } },
  urgent: { calendar: berlin, targets: { first_response_minutes: 30, next_response_minutes: 60, resolution_minutes: 240 } },
  vip: { calendar: always, targets: { first_response_minutes: 60, resolution_minutes: 240 } }
}

/** Local Berlin wall time in January 2026 (UTC+1) as the stored UTC string: `berlinTime(12, '09:30')` is Monday 12th. */
function berlinTime (day: number, time: string, month = 1): string {
  const local = Date.UTC(2026, month - 1, day, Number(time.slice(0, 2)), Number(time.slice(3, 5)))
  return new Date(local - 3_600_000).toISOString().slice(0, 19).replace('T', ' ')
}
const now = (day: number, time: string): Date => new Date(berlinTime(day, time).replace(' ', 'T') + 'Z')

/** A ticket opened Monday 2026-01-12 at 09:00 under the standard policy. */
function clockAt (day: number, time: string, events: SlaEvent[], extra: Partial<SlaTimeline> = {}, input: Partial<SlaClockInput> = {}) {
  return slaClock({
    timeline: { created_at: berlinTime(12, '09:00'), status: Open, policy: 'standard', events, ...extra },
    policies,
    now: now(day, time),
    ...input
  })
}

describe('SLA clock: first response and resolution', () => {
  it('runs from creation in business time', () => {
    const clock = clockAt(12, '09:30', [])
    assert.deepEqual(clock.first_response, {
      target_minutes: 60,
      state: 'running',
      due_at: berlinTime(12, '10:00'),
      met_at: null,
      breached: false,
      elapsed_minutes: 30,
      remaining_minutes: 30,
      overdue_minutes: 0
    })
    // 480 business minutes: 7 hours on Monday, the 8th on Tuesday 09:00-10:00.
    assert.equal(clock.resolution?.due_at, berlinTime(13, '10:00'))
    assert.equal(clock.next_response?.state, 'idle')
    assert.equal(clock.paused_minutes, 0)
    assert.deepEqual(slaDueTimes(clock), {
      first_response_due_at: berlinTime(12, '10:00'),
      next_response_due_at: null,
      resolution_due_at: berlinTime(13, '10:00')
    })
  })

  it('is met by the first staff reply, on time or late', () => {
    const onTime = clockAt(12, '15:00', [{ type: 'staff_reply', at: berlinTime(12, '09:45') }]).first_response!
    assert.equal(onTime.state, 'met')
    assert.equal(onTime.met_at, berlinTime(12, '09:45'))
    assert.equal(onTime.due_at, null)
    assert.equal(onTime.breached, false)
    // Replied at 13:20: 09:00-12:00 and 13:00-13:20 is 200 business minutes, 140 over the target.
    const late = clockAt(12, '15:00', [{ type: 'staff_reply', at: berlinTime(12, '13:20') }]).first_response!
    assert.deepEqual([late.state, late.breached, late.elapsed_minutes, late.overdue_minutes], ['met', true, 200, 140])
  })

  it('reports a breach while still running, with the past due time', () => {
    const clock = clockAt(12, '11:15', []).first_response!
    assert.deepEqual([clock.state, clock.due_at, clock.breached, clock.overdue_minutes, clock.remaining_minutes],
      ['running', berlinTime(12, '10:00'), true, 75, 0])
  })

  it('stands still while the ticket is Pending and outside business hours; pause accrues in business time', () => {
    const events: SlaEvent[] = [
      { type: 'staff_reply', at: berlinTime(12, '09:10') },
      { type: 'status', at: berlinTime(12, '09:10'), status: Pending },
      { type: 'customer_reply', at: berlinTime(13, '10:00') },
      { type: 'status', at: berlinTime(13, '10:00'), status: Open }
    ]
    // Pending from Monday 09:10 to Tuesday 10:00: 470 business minutes (Monday 09:10-17:00 less lunch, Tuesday 09:00-10:00).
    const paused = clockAt(12, '16:00', events.slice(0, 2))
    assert.equal(paused.paused_minutes, 350) // Monday 09:10-12:00 and 13:00-16:00
    assert.deepEqual([paused.resolution!.state, paused.resolution!.due_at, paused.resolution!.remaining_minutes], ['paused', null, 470])
    const resumed = clockAt(13, '10:00', events)
    assert.equal(resumed.paused_minutes, 470)
    // Resolution used 10 minutes before the pause: 470 left from Tuesday 10:00 -> Tuesday 17:00 (360) + Wednesday 09:00-10:50.
    assert.equal(resumed.resolution!.due_at, berlinTime(14, '10:50'))
    assert.equal(resumed.resolution!.elapsed_minutes, 10)
  })

  it('stops the resolution clock when closed and resumes it, with the time used, on reopening', () => {
    const events: SlaEvent[] = [
      { type: 'staff_reply', at: berlinTime(12, '10:00') },
      { type: 'status', at: berlinTime(12, '11:00'), status: Closed },
      { type: 'customer_reply', at: berlinTime(14, '09:00') },
      { type: 'status', at: berlinTime(14, '09:00'), status: Open }
    ]
    const closed = clockAt(13, '12:00', events.slice(0, 2)).resolution!
    assert.deepEqual([closed.state, closed.met_at, closed.elapsed_minutes, closed.breached, closed.due_at],
      ['met', berlinTime(12, '11:00'), 120, false, null])
    // Reopened Wednesday 09:00: 120 used, the closed time does not count, 360 left -> Wednesday 16:00.
    const reopened = clockAt(14, '09:30', events)
    assert.deepEqual([reopened.resolution!.state, reopened.resolution!.due_at, reopened.resolution!.elapsed_minutes],
      ['running', berlinTime(14, '16:00'), 150])
    // The reply reopening it starts a wait for an agent.
    assert.deepEqual([reopened.next_response!.state, reopened.next_response!.due_at], ['running', berlinTime(14, '11:00')])
    assert.equal(reopened.first_response!.state, 'met')
  })

  it('stops the first response when the ticket is closed unanswered, and resumes it if reopened', () => {
    const events: SlaEvent[] = [{ type: 'status', at: berlinTime(12, '09:20'), status: Closed }]
    assert.deepEqual([clockAt(12, '15:00', events).first_response!.state, clockAt(12, '15:00', events).first_response!.due_at], ['stopped', null])
    const reopened = clockAt(12, '15:00', [...events, { type: 'status', at: berlinTime(12, '14:00'), status: Open }]).first_response!
    // 20 minutes used before closing, 40 left from 14:00.
    assert.deepEqual([reopened.state, reopened.due_at, reopened.breached], ['running', berlinTime(12, '14:40'), true])
  })
})

describe('SLA clock: next response (the reported failures of other help desks)', () => {
  const answered: SlaEvent[] = [{ type: 'staff_reply', at: berlinTime(12, '09:30') }]

  it('starts a wait at a customer reply after a staff reply and ends it at the next staff reply (Zammad #3140)', () => {
    const waiting = clockAt(12, '11:00', [...answered, { type: 'customer_reply', at: berlinTime(12, '10:30') }]).next_response!
    // 120 minutes from 10:30: 10:30-12:00 (90), lunch, 13:00-13:30.
    assert.deepEqual([waiting.state, waiting.due_at, waiting.cycles], ['running', berlinTime(12, '13:30'), 1])
    const events: SlaEvent[] = [
      ...answered,
      { type: 'customer_reply', at: berlinTime(12, '10:30') },
      { type: 'staff_reply', at: berlinTime(12, '10:45') }
    ]
    // After the agent's answer nothing is due, however late it gets.
    for (const [day, time] of [[12, '10:46'], [12, '16:00'], [20, '12:00']] as const) {
      const clock = clockAt(day, time, events).next_response!
      assert.deepEqual([clock.state, clock.due_at, clock.met_at, clock.breached], ['met', null, berlinTime(12, '10:45'), false])
      assert.equal(slaDueTimes(clockAt(day, time, events)).next_response_due_at, null)
    }
  })

  it('counts a wait from the first unanswered customer reply; more replies do not restart it', () => {
    const clock = clockAt(12, '11:00', [
      ...answered,
      { type: 'customer_reply', at: berlinTime(12, '10:00') },
      { type: 'customer_reply', at: berlinTime(12, '10:50') }
    ]).next_response!
    // 120 minutes from 10:00: due at 12:00, the end of the morning shift (not 13:00).
    assert.deepEqual([clock.due_at, clock.cycles, clock.elapsed_minutes], [berlinTime(12, '12:00'), 1, 60])
  })

  it('never lets the next-response target override the first response (Zammad #5177)', () => {
    const plain = clockAt(12, '09:40', [])
    const followedUp = clockAt(12, '09:40', [{ type: 'customer_reply', at: berlinTime(12, '09:20') }])
    assert.deepEqual(followedUp.first_response, plain.first_response)
    assert.equal(followedUp.first_response!.due_at, berlinTime(12, '10:00'))
    assert.deepEqual([followedUp.next_response!.state, followedUp.next_response!.due_at, followedUp.next_response!.cycles], ['idle', null, 0])
    // Even with a next-response target shorter than the first response.
    const short = { ...policies, standard: { calendar: berlin, targets: { first_response_minutes: 60, next_response_minutes: 5 } } }
    const clock = clockAt(12, '09:40', [{ type: 'customer_reply', at: berlinTime(12, '09:20') }], {}, { policies: short })
    assert.deepEqual(slaDueTimes(clock), { first_response_due_at: berlinTime(12, '10:00'), next_response_due_at: null, resolution_due_at: null })
  })

  it('stops the next-response timer when the ticket is resolved (Chatwoot #10178)', () => {
    const events: SlaEvent[] = [
      ...answered,
      { type: 'customer_reply', at: berlinTime(12, '10:00') },
      { type: 'status', at: berlinTime(12, '10:30'), status: Closed }
    ]
    for (const [day, time] of [[12, '10:31'], [13, '16:00']] as const) {
      const clock = clockAt(day, time, events)
      assert.deepEqual([clock.next_response!.state, clock.next_response!.due_at, clock.next_response!.breached], ['stopped', null, false])
      assert.equal(clock.resolution!.state, 'met')
    }
    // Reopened by the agent without a customer reply: nobody awaits an answer.
    const reopened = clockAt(13, '16:00', [...events, { type: 'status', at: berlinTime(13, '09:00'), status: Open }])
    assert.deepEqual([reopened.next_response!.state, reopened.next_response!.due_at], ['stopped', null])
    assert.equal(reopened.resolution!.state, 'running')
  })

  it('counts the waits that went past the target', () => {
    const clock = clockAt(13, '12:00', [
      ...answered,
      { type: 'customer_reply', at: berlinTime(12, '10:00') },
      { type: 'staff_reply', at: berlinTime(12, '15:00') }, // 300 business minutes later: breached
      { type: 'customer_reply', at: berlinTime(13, '09:00') },
      { type: 'staff_reply', at: berlinTime(13, '09:30') }
    ]).next_response!
    assert.deepEqual([clock.cycles, clock.breached_cycles, clock.state, clock.breached], [2, 1, 'met', false])
  })
})

describe('SLA clock: policy changes (GLPI #15605)', () => {
  it('keeps the elapsed and paused time when the category changes to a stricter policy', () => {
    const events: SlaEvent[] = [
      { type: 'status', at: berlinTime(12, '09:30'), status: Pending },
      { type: 'status', at: berlinTime(12, '11:30'), status: Open },
      { type: 'policy', at: berlinTime(12, '13:30'), policy: 'urgent' }
    ]
    const clock = clockAt(12, '13:30', events)
    assert.equal(clock.policy, 'urgent')
    assert.equal(clock.paused_minutes, 120)
    // Used: 09:00-09:30, 11:30-12:00, 13:00-13:30 = 90 of urgent's 240; 150 left -> 16:00. Forgetting the pause would say 14:00.
    assert.deepEqual([clock.resolution!.elapsed_minutes, clock.resolution!.due_at], [90, berlinTime(12, '16:00')])
    // The same answer later, whatever was evaluated in between: nothing is carried but the timeline.
    assert.deepEqual(clockAt(12, '14:00', events).resolution!.due_at, berlinTime(12, '16:00'))
    assert.equal(clockAt(12, '14:00', events).paused_minutes, 120)
  })

  it('measures each period with the calendar of the policy then in force', () => {
    // Created Friday 20:00 on office hours, moved Saturday 10:00 to a 24/7 policy with 4 hours to resolve:
    // the night counted nothing under office hours, so it is due Saturday 14:00, not already breached.
    const clock = slaClock({
      timeline: { created_at: berlinTime(16, '20:00'), status: Open, policy: 'standard', events: [{ type: 'policy', at: berlinTime(17, '10:00'), policy: 'vip' }] },
      policies,
      now: now(17, '11:00')
    })
    assert.deepEqual([clock.resolution!.due_at, clock.resolution!.elapsed_minutes, clock.resolution!.breached], [berlinTime(17, '14:00'), 60, false])
    assert.equal(clock.next_response, null) // the vip policy has no next-response target
  })

  it('keeps the verdict of a target met before the change; a running one is judged by the new policy', () => {
    const events: SlaEvent[] = [
      { type: 'staff_reply', at: berlinTime(12, '09:40') }, // 40 minutes: on time for standard (60), late for urgent (30)
      { type: 'customer_reply', at: berlinTime(12, '10:00') },
      { type: 'policy', at: berlinTime(12, '10:30'), policy: 'urgent' }
    ]
    const clock = clockAt(12, '11:30', events)
    assert.deepEqual([clock.first_response!.target_minutes, clock.first_response!.breached], [60, false])
    // The wait that began at 10:00 is still running: urgent's 60 minutes apply, due 11:00, breached by now.
    assert.deepEqual([clock.next_response!.target_minutes, clock.next_response!.due_at, clock.next_response!.breached], [60, berlinTime(12, '11:00'), true])
  })

  it('refuses a timeline naming a policy it was not given', () => {
    assert.throws(() => clockAt(12, '10:00', [{ type: 'policy', at: berlinTime(12, '09:30'), policy: 'gone' }]), RangeError)
  })
})

describe('SLA clock: timeline handling', () => {
  it('crosses a daylight-saving change in Europe/Berlin', () => {
    // Created Friday 2026-03-27 16:00 CET (15:00 UTC): resolution 480 = 1h Friday + Monday 09:00-12:00, 13:00-17:00 CEST.
    const clock = slaClock({ timeline: { created_at: '2026-03-27 15:00:00', status: Open, policy: 'standard', events: [] }, policies, now: new Date('2026-03-28T12:00:00Z') })
    assert.equal(clock.resolution!.due_at, '2026-03-30 15:00:00')
    assert.equal(clock.first_response!.due_at, '2026-03-27 16:00:00')
  })

  it('replays the past: events after now are ignored', () => {
    const events: SlaEvent[] = [{ type: 'staff_reply', at: berlinTime(12, '11:00') }]
    assert.equal(clockAt(12, '09:30', events).first_response!.state, 'running')
    assert.equal(clockAt(12, '11:00', events).first_response!.state, 'met')
  })

  it('takes events in time order whatever the list order, and survives a JSON round trip', () => {
    const events: SlaEvent[] = [
      { type: 'status', at: berlinTime(12, '11:30'), status: Open },
      { type: 'status', at: berlinTime(12, '09:30'), status: Pending }
    ]
    const timeline: SlaTimeline = { created_at: berlinTime(12, '09:00'), status: Open, policy: 'standard', events }
    const direct = slaClock({ timeline, policies, now: now(12, '14:00') })
    assert.equal(direct.paused_minutes, 120)
    assert.deepEqual(slaClock({ timeline: JSON.parse(JSON.stringify(timeline)), policies, now: now(12, '14:00') }), direct)
  })

  it('honours the paused statuses the administrator marks', () => {
    const onHold = 7
    const events: SlaEvent[] = [{ type: 'status', at: berlinTime(12, '09:30'), status: onHold }]
    assert.equal(clockAt(12, '10:30', events).first_response!.state, 'running')
    const clock = clockAt(12, '10:30', events, {}, { paused_statuses: [Pending, onHold] })
    assert.deepEqual([clock.first_response!.state, clock.paused_minutes], ['paused', 60])
  })
})

// ---------------------------------------------------------------------------------------------
// Property: pausing and resuming at the same instant changes nothing.

const minuteOfWeek = fc.integer({ min: 0, max: 7 * 24 * 60 - 1 })
const eventArbitrary: fc.Arbitrary<SlaEvent> = fc.tuple(minuteOfWeek, fc.constantFrom('status', 'staff_reply', 'customer_reply', 'policy'), fc.constantFrom(Open, Pending, Closed), fc.constantFrom('standard', 'urgent', 'vip'))
  .map(([minute, type, status, policy]) => {
    const at = new Date(Date.UTC(2026, 0, 12, 8) + minute * 60_000).toISOString().slice(0, 19).replace('T', ' ')
    if (type === 'status') return { type, at, status }
    if (type === 'policy') return { type, at, policy }
    return { type, at } as SlaEvent
  })

describe('SLA clock: properties', () => {
  it('pausing and resuming for zero time changes nothing', () => {
    fc.assert(fc.property(fc.array(eventArbitrary, { maxLength: 12 }), minuteOfWeek, minuteOfWeek, (events, pauseMinute, nowMinute) => {
      const timeline: SlaTimeline = { created_at: '2026-01-12 08:00:00', status: Open, policy: 'standard', events }
      const at = new Date(Date.UTC(2026, 0, 12, 8) + pauseMinute * 60_000).toISOString().slice(0, 19).replace('T', ' ')
      const nowDate = new Date(Date.UTC(2026, 0, 12, 8) + nowMinute * 60_000)
      // The status in force at `at`, after every event of that instant: pause only a running ticket.
      const before = slaClock({ timeline, policies, now: new Date(at.replace(' ', 'T') + 'Z') })
      fc.pre(before.status === Open)
      const paused: SlaTimeline = {
        ...timeline,
        events: [...events, { type: 'status', at, status: Pending }, { type: 'status', at, status: Open }]
      }
      assert.deepEqual(slaClock({ timeline: paused, policies, now: nowDate }), slaClock({ timeline, policies, now: nowDate }))
    }), { numRuns: 300 })
  })

  it('never shows a next-response due time while no customer reply awaits, nor after closing', () => {
    fc.assert(fc.property(fc.array(eventArbitrary, { maxLength: 15 }), minuteOfWeek, (events, nowMinute) => {
      const clock = slaClock({
        timeline: { created_at: '2026-01-12 08:00:00', status: Open, policy: 'standard', events },
        policies,
        now: new Date(Date.UTC(2026, 0, 12, 8) + nowMinute * 60_000)
      })
      if (clock.status === Closed) {
        assert.deepEqual(slaDueTimes(clock), { first_response_due_at: null, next_response_due_at: null, resolution_due_at: null })
      }
      if (clock.next_response !== null && clock.next_response.due_at !== null) {
        assert.equal(clock.next_response.state, 'running')
        assert.notEqual(clock.first_response?.state, 'running')
      }
    }), { numRuns: 300 })
  })
})

describe('SLA clock: the worked examples of docs/sla.md', () => {
  const office = businessCalendar({
    time_zone: 'Europe/Berlin',
    hours: { mon: split, tue: split, wed: split, thu: split, fri: split },
    holidays: [{ date: '2026-04-03', name: 'Good Friday' }, { date: '2026-04-06', name: 'Easter Monday' }]
  })
  const terms: Record<string, SlaPolicyTerms> = {
    standard: { calendar: office, targets: { first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 480 } },
    urgent: { calendar: office, targets: { first_response_minutes: 30, next_response_minutes: 60, resolution_minutes: 240 } }
  }
  const at = (iso: string): Date => new Date(iso.replace(' ', 'T') + 'Z')

  it('1. across a weekend and the spring change, and across Easter', () => {
    const friday = slaClock({ timeline: { created_at: '2026-03-27 14:30:00', status: Open, policy: 'standard', events: [] }, policies: terms, now: at('2026-03-27 14:45:00') })
    assert.equal(friday.first_response!.due_at, '2026-03-27 15:30:00')
    assert.deepEqual([friday.resolution!.due_at, friday.resolution!.elapsed_minutes, friday.resolution!.remaining_minutes], ['2026-03-30 14:30:00', 15, 465])
    const easter = slaClock({ timeline: { created_at: '2026-04-02 13:30:00', status: Open, policy: 'standard', events: [] }, policies: terms, now: at('2026-04-02 13:30:00') })
    assert.equal(easter.resolution!.due_at, '2026-04-07 14:30:00')
    assert.equal(warningInstant(office, at('2026-04-07 07:30:00'), 60, false).toISOString(), '2026-04-07T06:30:00.000Z')
    assert.equal(warningInstant(office, at('2026-04-07 07:30:00'), 60, true).toISOString(), '2026-04-07T07:00:00.000Z')
  })

  it('2. a conversation with a pause and a change of policy', () => {
    const timeline: SlaTimeline = {
      created_at: '2026-01-12 08:00:00',
      status: Open,
      policy: 'standard',
      events: [
        { type: 'staff_reply', at: '2026-01-12 08:40:00' },
        { type: 'status', at: '2026-01-12 08:40:00', status: Pending },
        { type: 'customer_reply', at: '2026-01-13 09:00:00' },
        { type: 'status', at: '2026-01-13 09:00:00', status: Open },
        { type: 'policy', at: '2026-01-13 10:00:00', policy: 'urgent' },
        { type: 'staff_reply', at: '2026-01-13 10:30:00' },
        { type: 'status', at: '2026-01-13 13:00:00', status: Closed }
      ]
    }
    const clock = (now: string) => slaClock({ timeline, policies: terms, now: at(now) })
    const monday = clock('2026-01-12 15:00:00')
    assert.deepEqual([monday.first_response!.state, monday.first_response!.elapsed_minutes, monday.first_response!.breached], ['met', 40, false])
    assert.deepEqual([monday.resolution!.state, monday.resolution!.elapsed_minutes, monday.resolution!.remaining_minutes, monday.resolution!.due_at], ['paused', 40, 440, null])
    assert.equal(monday.paused_minutes, 320)
    const reply = clock('2026-01-13 09:00:00')
    assert.deepEqual([reply.paused_minutes, reply.next_response!.due_at], [440, '2026-01-13 11:00:00'])
    const half = clock('2026-01-13 09:30:00')
    assert.deepEqual([half.next_response!.elapsed_minutes, half.next_response!.remaining_minutes], [30, 90])
    assert.deepEqual([half.resolution!.elapsed_minutes, half.resolution!.due_at], [70, '2026-01-14 09:20:00'])
    const urgent = clock('2026-01-13 10:00:00')
    assert.deepEqual([urgent.next_response!.target_minutes, urgent.next_response!.elapsed_minutes, urgent.next_response!.due_at], [60, 60, '2026-01-13 10:00:00'])
    assert.deepEqual([urgent.resolution!.elapsed_minutes, urgent.resolution!.due_at], [100, '2026-01-13 13:20:00'])
    assert.deepEqual([urgent.first_response!.target_minutes, urgent.first_response!.breached], [60, false])
    const closed = clock('2026-01-13 14:00:00')
    assert.deepEqual([closed.next_response!.state, closed.next_response!.elapsed_minutes, closed.next_response!.overdue_minutes, closed.next_response!.breached_cycles], ['met', 90, 30, 1])
    assert.deepEqual([closed.resolution!.state, closed.resolution!.elapsed_minutes, closed.resolution!.breached], ['met', 220, false])
  })
})
