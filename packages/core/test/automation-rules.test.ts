import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  applyRuleActions, automaticMailAllowed, automationFires, businessCalendar, conditionsHold, pickAssignee, ruleActions, ruleConditions,
  runTriggerPass, timeCondition, timeConditionCutoff, timeConditionHolds, ValidationError, MAX_TRIGGER_DEPTH,
  conditionsAskBusinessHours, ticketCalendarOf, twentyFourSevenCalendar, withinBusinessHours, type SlaPolicy,
  asciiRuns, dueFilterOf, FOLDS_TO_ASCII, type AssignmentCandidate, type RuleAction, type RuleFacts, type RuleTicket, type TicketInstants, type TriggerRule
} from '../src/index.js'

const ticket = (over: Partial<RuleTicket> = {}): RuleTicket => ({
  id: 7, status: 1, category_id: 2, assigned_agent_id: null, priority: 'normal', tags: [], fields: {}, title: 'Refund for order 42', private: false, ...over
})
const facts = (over: Partial<RuleFacts> = {}): RuleFacts => ({
  event: 'ticket.created', channel: 'mail', ticket: ticket(), previous: null, customer_email: 'ann@shop.example.com', comment_text: null, within_business_hours: true, ...over
})
const trigger = (id: number, conditions: unknown, actions: unknown, events: TriggerRule['events'] = ['ticket.created', 'ticket.updated']): TriggerRule => ({
  id, name: `trigger ${id}`, events, conditions: ruleConditions(conditions), actions: ruleActions(actions)
})

function validationKeys (fn: () => unknown): string[] {
  try { fn() } catch (error) {
    assert.ok(error instanceof ValidationError, String(error))
    return Object.keys(error.errors)
  }
  assert.fail('expected a ValidationError')
}

describe('rule conditions', () => {
  it('validates each condition and names the part that is wrong', () => {
    assert.deepEqual(validationKeys(() => ruleConditions({ all: [{ field: 'status', operator: 'is', value: 'x' }, { field: 'nope', operator: 'is', value: 1 }], any: [{ field: 'tags', operator: 'has', value: ['a'] }] })),
      ['conditions.all.0.value', 'conditions.all.1.field', 'conditions.any.0.operator'])
    assert.deepEqual(validationKeys(() => ruleConditions([])), ['conditions'])
    assert.deepEqual(validationKeys(() => ruleConditions({ all: Array.from({ length: 51 }, () => ({ field: 'private', operator: 'is', value: true })) })), ['conditions.all'])
    const normal = ruleConditions({ all: [{ field: 'tags', operator: 'includes_any', value: ['Refund', 'refund '] }, { field: 'customer_email_domain', operator: 'is', value: '@Shop.Example.com' }] })
    assert.deepEqual(normal.all.map((c) => c.value), [['refund'], 'shop.example.com'])
    assert.deepEqual(normal.any, [])
  })

  it('evaluates fields, tags, priorities, text, channel, domain, business hours and changes', () => {
    const holds = (condition: unknown, f: RuleFacts = facts()) => conditionsHold(ruleConditions({ all: [condition] }), f)
    assert.ok(holds({ field: 'subject', operator: 'contains_word', value: 'refund' }))
    assert.ok(!holds({ field: 'subject', operator: 'contains_word', value: 'fund' }), 'a word, not a substring')
    assert.ok(holds({ field: 'subject', operator: 'contains', value: 'FUND' }))
    assert.ok(holds({ field: 'customer_email_domain', operator: 'is', value: 'example.com' }), 'a subdomain counts')
    assert.ok(!holds({ field: 'customer_email_domain', operator: 'is', value: 'ample.com' }))
    assert.ok(holds({ field: 'channel', operator: 'in', value: ['mail', 'api'] }))
    assert.ok(holds({ field: 'priority', operator: 'below', value: 'high' }))
    assert.ok(!holds({ field: 'priority', operator: 'above', value: 'normal' }))
    assert.ok(holds({ field: 'assigned_agent_id', operator: 'is', value: null }))
    assert.ok(holds({ field: 'tags', operator: 'includes_none', value: ['vip'] }))
    assert.ok(holds({ field: 'field:3', operator: 'blank', value: null }))
    assert.ok(holds({ field: 'field:3', operator: 'is', value: 'Gold' }, facts({ ticket: ticket({ fields: { 3: 'gold' } }) })))
    assert.ok(!holds({ field: 'within_business_hours', operator: 'is', value: true }, facts({ within_business_hours: false })))
    const closed = facts({ event: 'ticket.updated', previous: ticket(), ticket: ticket({ status: 3 }) })
    assert.ok(holds({ field: 'changed:status', operator: 'to', value: 3 }, closed))
    assert.ok(holds({ field: 'changed:status', operator: 'from', value: 1 }, closed))
    assert.ok(!holds({ field: 'changed:status', operator: 'to', value: 2 }, closed))
    assert.ok(!holds({ field: 'changed', operator: 'is', value: 'priority' }, closed))
    assert.ok(holds({ field: 'changed', operator: 'is', value: 'priority' }), 'on creation every field counts as changed')
  })

  it('needs every `all` and one `any`', () => {
    const conditions = ruleConditions({
      all: [{ field: 'status', operator: 'is', value: 1 }],
      any: [{ field: 'tags', operator: 'includes_any', value: ['vip'] }, { field: 'priority', operator: 'is', value: 'urgent' }]
    })
    assert.ok(!conditionsHold(conditions, facts()))
    assert.ok(conditionsHold(conditions, facts({ ticket: ticket({ priority: 'urgent' }) })))
  })
})

describe('rule actions', () => {
  it('validates, and applies field actions in order; effects are left for the caller', () => {
    assert.deepEqual(validationKeys(() => ruleActions([{ type: 'set_status', value: 9 }, { type: 'add_tags', value: ['<b>'] }, { type: 'boom' }])),
      ['actions.0.value', 'actions.1.value', 'actions.2.type'])
    assert.deepEqual(validationKeys(() => ruleActions([])), ['actions'])
    const actions = ruleActions([
      { type: 'add_tags', value: ['Refund', 'billing'] }, { type: 'set_priority', value: 'high' }, { type: 'remove_tags', value: ['billing'] },
      { type: 'add_note', body: 'Refund asked.' }, { type: 'set_status', value: 1 }, { type: 'assign_by', strategy: 'round_robin' }
    ])
    const applied = applyRuleActions(ticket(), actions)
    assert.deepEqual(applied.ticket.tags, ['refund'])
    assert.deepEqual(applied.changes, [{ field: 'priority', from: 'normal', to: 'high' }, { field: 'tags', from: [], to: ['refund'] }], 'setting what is there is no change')
    assert.deepEqual(applied.effects.map((e) => e.type), ['add_note', 'assign_by'])
  })
})

describe('trigger passes', () => {
  it('two triggers undoing each other fire once each, never again on their own change (Zammad #2035)', () => {
    const a = trigger(1, { all: [{ field: 'priority', operator: 'is', value: 'normal' }] }, [{ type: 'set_priority', value: 'high' }])
    const b = trigger(2, { all: [{ field: 'priority', operator: 'is', value: 'high' }] }, [{ type: 'set_priority', value: 'normal' }])
    const result = runTriggerPass([a, b], facts())
    assert.deepEqual(result.fired.map((f) => [f.trigger.id, f.depth]), [[1, 0], [2, 0]], 'b sees a\'s change in the same round')
    assert.equal(result.ticket.priority, 'normal')
    assert.equal(result.cut, false)
  })

  it('a chain longer than the depth limit is cut and says so', () => {
    // Each trigger reacts to the tag the one before added.
    const chain = [0, 1, 2, 3, 4].map((n) => trigger(10 + n,
      { all: [n === 0 ? { field: 'status', operator: 'is', value: 1 } : { field: 'tags', operator: 'includes_any', value: [`step${n - 1}`] }] },
      [{ type: 'add_tags', value: [`step${n}`] }], n === 0 ? ['ticket.created'] : ['ticket.updated']))
    const result = runTriggerPass(chain.slice().reverse(), facts())
    assert.deepEqual(result.fired.map((f) => [f.trigger.id, f.depth]), [[10, 0], [11, 1], [12, 2]])
    assert.equal(result.cut, true)
    assert.deepEqual(result.ticket.tags, ['step0', 'step1', 'step2'])
  })

  it('changes by triggers are seen through the automation door, and the first round through the real one', () => {
    const onMail = trigger(1, { all: [{ field: 'channel', operator: 'is', value: 'mail' }] }, [{ type: 'add_tags', value: ['from-mail'] }])
    const onAutomation = trigger(2, { all: [{ field: 'channel', operator: 'is', value: 'automation' }, { field: 'changed', operator: 'is', value: 'tags' }] }, [{ type: 'set_priority', value: 'low' }], ['ticket.updated'])
    const result = runTriggerPass([onAutomation, onMail], facts())
    assert.deepEqual(result.fired.map((f) => [f.trigger.id, f.depth]), [[1, 0], [2, 1]])
  })

  it('never answers auto-submitted mail (RFC 3834), and keeps the trigger\'s other actions', () => {
    const ack = trigger(1, { all: [] }, [{ type: 'reply', body: 'We got it.' }, { type: 'add_tags', value: ['acked'] }])
    const result = runTriggerPass([ack], { ...facts(), auto_submitted: true })
    assert.deepEqual(result.fired[0]?.effects, [])
    assert.equal(result.suppressed.length, 1)
    assert.deepEqual(result.ticket.tags, ['acked'])
    assert.deepEqual(runTriggerPass([ack], facts()).fired[0]?.effects.map((e) => e.type), ['reply'])
  })

  it('properties: it ends, no trigger fires twice, depths stay under the limit, the ticket is the fired actions applied in order', () => {
    const condition = fc.oneof(
      fc.record({ field: fc.constant('priority'), operator: fc.constantFrom('is', 'is_not', 'above', 'below'), value: fc.constantFrom('low', 'normal', 'high', 'urgent') }),
      fc.record({ field: fc.constant('tags'), operator: fc.constantFrom('includes_any', 'includes_none'), value: fc.subarray(['a', 'b', 'c'], { minLength: 1 }) }),
      fc.record({ field: fc.constant('status'), operator: fc.constantFrom('is', 'is_not'), value: fc.constantFrom(1, 2, 3) })
    )
    const action = fc.oneof(
      fc.record({ type: fc.constant('set_priority'), value: fc.constantFrom('low', 'normal', 'high', 'urgent') }),
      fc.record({ type: fc.constantFrom('add_tags', 'remove_tags'), value: fc.subarray(['a', 'b', 'c'], { minLength: 1 }) }),
      fc.record({ type: fc.constant('set_status'), value: fc.constantFrom(1, 2, 3) })
    )
    const rule = fc.record({
      conditions: fc.array(condition, { maxLength: 3 }),
      actions: fc.array(action, { minLength: 1, maxLength: 3 }),
      events: fc.subarray(['ticket.created', 'ticket.updated'] as const, { minLength: 1 })
    })
    fc.assert(fc.property(fc.array(rule, { maxLength: 12 }), fc.integer({ min: 1, max: 5 }), (rules, depth) => {
      const triggers = rules.map((r, i) => trigger(i + 1, { all: r.conditions }, r.actions, [...r.events]))
      const result = runTriggerPass(triggers, facts(), depth)
      const ids = result.fired.map((f) => f.trigger.id)
      assert.equal(new Set(ids).size, ids.length)
      assert.ok(result.fired.every((f) => f.depth < depth))
      let state = facts().ticket
      for (const f of result.fired) state = applyRuleActions(state, f.trigger.actions).ticket
      assert.deepEqual(result.ticket, state)
    }), { numRuns: 300 })
  })
})

describe('assignment strategies', () => {
  const agents = (): AssignmentCandidate[] => [
    { id: 3, available: true, open_tickets: 5, last_assigned_at: null },
    { id: 1, available: true, open_tickets: 2, last_assigned_at: null },
    { id: 2, available: false, open_tickets: 0, last_assigned_at: null },
    { id: 4, available: true, open_tickets: 2, last_assigned_at: '2026-01-01T00:00:00Z' }
  ]

  it('round-robin takes turns among available agents, the turn kept in their rows', () => {
    const pool = agents()
    const picks: number[] = []
    for (let n = 0; n < 6; n++) {
      const id = pickAssignee('round_robin', pool) as number
      picks.push(id)
      const agent = pool.find((a) => a.id === id) as AssignmentCandidate
      agent.last_assigned_at = new Date(Date.UTC(2026, 5, 1, 0, n)).toISOString()
    }
    assert.deepEqual(picks, [1, 3, 4, 1, 3, 4], 'never-assigned first by id, then the oldest turn; the away agent never')
  })

  it('least-open takes the fewest open tickets, then the oldest turn; nobody available is null', () => {
    assert.equal(pickAssignee('least_open', agents()), 1)
    assert.equal(pickAssignee('least_open', agents().map((a) => ({ ...a, available: false }))), null)
  })
})

describe('automatic mail cap', () => {
  it('allows 30 automatic mails per recipient in the window, then stops a robot loop', () => {
    assert.ok(automaticMailAllowed(29))
    assert.ok(!automaticMailAllowed(30))
  })
})

describe('time-based automations', () => {
  const berlin = businessCalendar({ time_zone: 'Europe/Berlin', hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start: '09:00', end: '17:00' }]])) })
  const instants = (over: Partial<TicketInstants> = {}): TicketInstants => ({ created: '2026-03-02T08:00:00Z', updated: '2026-03-02T08:00:00Z', status_changed: '2026-03-02T08:00:00Z', assigned: null, due: null, ...over })

  it('validates the time condition', () => {
    assert.deepEqual(validationKeys(() => timeCondition({ anchor: 'born', hours: 1 })), ['time_condition.anchor'])
    assert.deepEqual(validationKeys(() => timeCondition({ anchor: 'created', hours: -1 })), ['time_condition.hours'])
    assert.deepEqual(timeCondition({ anchor: 'status_changed', hours: 168 }), { anchor: 'status_changed', hours: 168, business: false })
  })

  it('pending for 7 days fires at the first run after the mark, never before (FreeScout #3246, #4058), and once', () => {
    const pending7 = timeCondition({ anchor: 'status_changed', hours: 168 })
    const t = instants()
    assert.ok(!automationFires(pending7, t, new Date('2026-03-09T07:59:59Z'), null, null))
    assert.ok(automationFires(pending7, t, new Date('2026-03-09T08:00:00Z'), null, null), 'exactly at the mark')
    // The run's query selects anchors at or before the cutoff: the ticket is in it at the mark.
    assert.ok(Date.parse(t.status_changed as string) <= timeConditionCutoff(pending7, new Date('2026-03-09T08:00:00Z')).getTime())
    const mark = { anchor_at: t.status_changed as string }
    assert.ok(!automationFires(pending7, t, new Date('2026-03-20T00:00:00Z'), null, mark), 'fired once on this anchor')
    // The ticket left Pending and came back: re-armed.
    const again = instants({ status_changed: '2026-03-12T10:00:00Z' })
    assert.ok(!automationFires(pending7, again, new Date('2026-03-19T09:59:00Z'), null, mark))
    assert.ok(automationFires(pending7, again, new Date('2026-03-19T10:00:00Z'), null, mark))
  })

  it('an hour of business time: Friday 16:30 open and unassigned is due Monday 09:30 Berlin, not at 17:30', () => {
    const hour = timeCondition({ anchor: 'created', hours: 1, business: true })
    const friday = instants({ created: '2026-03-06T15:30:00Z' }) // 16:30 in Berlin
    assert.ok(!timeConditionHolds(hour, friday, new Date('2026-03-06T16:30:00Z'), berlin))
    assert.ok(!timeConditionHolds(hour, friday, new Date('2026-03-09T08:29:00Z'), berlin))
    assert.ok(timeConditionHolds(hour, friday, new Date('2026-03-09T08:30:00Z'), berlin))
    // The cutoff selects it already (a superset narrowed by the business-time check).
    assert.ok(Date.parse(friday.created as string) <= timeConditionCutoff(hour, new Date('2026-03-09T08:30:00Z')).getTime())
  })

  it('a due time that has passed; a ticket without the anchor never fires', () => {
    const due = timeCondition({ anchor: 'due', hours: 0 })
    assert.ok(automationFires(due, instants({ due: '2026-03-02T10:00:00Z' }), new Date('2026-03-02T10:00:00Z'), null, null))
    assert.ok(!automationFires(due, instants({ due: '2026-03-02T10:00:01Z' }), new Date('2026-03-02T10:00:00Z'), null, null))
    assert.ok(!automationFires(due, instants(), new Date('2026-03-02T10:00:00Z'), null, null))
  })

  it('property: business-time conditions never hold before the calendar-time cutoff would select the ticket', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 60 * 24 * 30 }), (hours, minutesLater) => {
      const condition = timeCondition({ anchor: 'created', hours, business: true })
      const t = instants()
      const now = new Date(Date.parse(t.created as string) + minutesLater * 60_000)
      if (timeConditionHolds(condition, t, now, berlin)) assert.ok(Date.parse(t.created as string) <= timeConditionCutoff(condition, now).getTime())
    }), { numRuns: 300 })
  })
})

// The action list type stays the one the rules store.
const _typed: RuleAction[] = ruleActions([{ type: 'webhook', webhook_id: 1 }])
void _typed
void MAX_TRIGGER_DEPTH

describe('within_business_hours: the calendar of the ticket\'s SLA policy', () => {
  const office = businessCalendar({ time_zone: 'Europe/Berlin', hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }]])) })
  const around = twentyFourSevenCalendar()
  const policy = (id: number, calendarId: number, isDefault = false) => ({ id, calendar_id: calendarId, is_default: isDefault }) as SlaPolicy
  const calendars = new Map([[1, around], [2, office]])
  const calendarOf = (id: number) => calendars.get(id)
  const policies = [policy(10, 2), policy(11, 1, true)]

  it('takes the ticket\'s policy\'s calendar, else the default policy\'s, else none (24/7)', () => {
    assert.equal(ticketCalendarOf(policies, 10, calendarOf), office)
    assert.equal(ticketCalendarOf(policies, null, calendarOf), around, 'no state yet: the default policy')
    assert.equal(ticketCalendarOf(policies, 99, calendarOf), around, 'a deleted policy: the default one')
    assert.equal(ticketCalendarOf([policy(10, 2), policy(11, 2, true)], 99, calendarOf), office, 'the default policy on the office calendar')
    assert.equal(ticketCalendarOf([], 10, calendarOf), null, 'no policies at all')
    assert.equal(ticketCalendarOf([policy(10, 7)], 10, calendarOf), null, 'a calendar that is gone')
  })

  it('is true inside the hours and false outside them, with a fixed clock; always true without a calendar', () => {
    const at = (iso: string) => new Date(iso)
    assert.equal(withinBusinessHours(office, at('2026-01-16T10:00:00Z')), true, 'Friday 11:00 in Berlin')
    assert.equal(withinBusinessHours(office, at('2026-01-16T11:30:00Z')), false, 'the lunch break')
    assert.equal(withinBusinessHours(office, at('2026-01-16T12:00:00Z')), true, '13:00: the afternoon starts')
    assert.equal(withinBusinessHours(office, at('2026-01-16T16:00:00Z')), false, '17:00: closed (ends excluded)')
    assert.equal(withinBusinessHours(office, at('2026-01-17T10:00:00Z')), false, 'Saturday')
    assert.equal(withinBusinessHours(office, at('2026-07-17T07:30:00Z')), true, 'summer time: 09:30 CEST')
    assert.equal(withinBusinessHours(around, at('2026-01-17T03:00:00Z')), true)
    assert.equal(withinBusinessHours(null, at('2026-01-17T03:00:00Z')), true)
  })

  it('is read only when a condition asks', () => {
    assert.equal(conditionsAskBusinessHours(ruleConditions({ all: [{ field: 'priority', operator: 'is', value: 'high' }] })), false)
    assert.equal(conditionsAskBusinessHours(ruleConditions({ any: [{ field: 'within_business_hours', operator: 'is', value: false }] })), true)
  })
})

describe('the due query\'s case folding', () => {
  it('lists every character whose JavaScript lowercase holds ASCII (the store replaces them before folding ASCII)', () => {
    const found: Array<[string, string]> = []
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const char = String.fromCodePoint(code)
      if (/[\u0000-\u007f]/.test(char.toLowerCase())) found.push([char, char.toLowerCase()])
    }
    assert.deepEqual(found, FOLDS_TO_ASCII.map(([from, to]) => [from, to]))
  })

  it('narrows on the ASCII runs of a value: each is in every text whose lowercase holds the value', () => {
    assert.deepEqual(asciiRuns('Café Crème'), ['caf', ' cr', 'me'])
    assert.deepEqual(asciiRuns('İstanbul'), ['i', 'stanbul'])
    assert.deepEqual(asciiRuns('ÄÖÜ'), [])
    const filter = dueFilterOf(ruleConditions({ all: [
      { field: 'subject', operator: 'is', value: '  Refund ' }, { field: 'subject', operator: 'is_not', value: 'x' }, { field: 'subject', operator: 'not_contains', value: 'Ü' },
      { field: 'field:3', operator: 'blank', value: null }, { field: 'customer_email_domain', operator: 'not_in', value: ['a.com'] }
    ] }))
    assert.deepEqual(filter.texts, [{ of: 'subject', test: 'contains', values: ['refund'] }, { of: 'email', test: 'not_domain', values: ['a.com'] }])
  })
})
