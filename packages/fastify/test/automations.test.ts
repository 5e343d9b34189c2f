import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { AUTOMATION_INTERVAL_MS } from '@helpdesk/core'
import { buildApp, eachDialect, manualClock } from './helpers.js'
import { expectStatus, expectValidation } from './http-assertions.js'
import { desk } from './ticket-fixtures.js'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

eachDialect((dialect) => {
  describe(`time-based automations on ${dialect}`, () => {
    it('closes a ticket pending for 7 days once: never early, at most one interval late, re-armed by a new pending spell (FreeScout #4058, #2518, #3246)', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const ticket = await h.helpdesk.tickets.create(d.alice.user, { category: d.billing, title: 'Help', body: 'Please' })
      await h.helpdesk.tickets.update(d.admin.user, ticket.id, { status: 2 })
      // Made after the ticket went pending: it still counts from the status change (#4058 never fired on older tickets).
      const automation = expectStatus(await h.inject({
        method: 'POST', url: '/api/v1/automations', token: d.admin.token,
        payload: { name: 'Close pending', time_condition: { anchor: 'status_changed', hours: 168 }, conditions: { all: [{ field: 'status', operator: 'is', value: 2 }] }, actions: [{ type: 'set_status', value: 3 }] }
      }), 201).data
      const other = await h.helpdesk.tickets.create(d.bob.user, { category: d.billing, title: 'Open one', body: 'Stay open' })

      // Runs every interval, as the job does.
      let firedAt: number | null = null
      const start = clock.now().getTime()
      while (clock.now().getTime() - start < 7 * DAY + 3 * AUTOMATION_INTERVAL_MS) {
        const run = await h.helpdesk.automations.run()
        const fired = run.fired.find((f) => f.automation_id === automation.id)?.ticket_ids ?? []
        if (fired.length > 0) {
          assert.deepEqual(fired, [ticket.id])
          assert.equal(firedAt, null, 'fires once')
          firedAt = clock.now().getTime()
        }
        clock.advance(AUTOMATION_INTERVAL_MS)
      }
      assert.notEqual(firedAt, null, 'it fired')
      const late = firedAt! - (start + 7 * DAY)
      assert.ok(late >= 0, `never early (${late} ms)`)
      assert.ok(late <= AUTOMATION_INTERVAL_MS, `at most one interval late (${late} ms)`)
      assert.equal((await h.store.tickets.findById(ticket.id))?.status, 3)
      assert.equal((await h.store.tickets.findById(other.id))?.status, 1, 'an open ticket is left alone')
      const history = await h.helpdesk.ticketHistory.list(d.admin.user, ticket.id, { include: [], sort: [], partial: {}, exact: {}, page: 1, perPage: 100 })
      const closed = history.items.find((entry) => entry.field === 'status' && entry.new_value === 3)
      assert.equal(closed?.door, 'automation')
      assert.equal(closed?.actor_name, 'automation:Close pending')

      // Pending again, by hand: a new anchor re-arms it, 7 days from then.
      await h.helpdesk.tickets.update(d.admin.user, ticket.id, { status: 1 })
      await h.helpdesk.tickets.update(d.admin.user, ticket.id, { status: 2 })
      clock.advance(7 * DAY - MINUTE)
      assert.deepEqual((await h.helpdesk.automations.run()).fired[0]?.ticket_ids, [])
      clock.advance(2 * MINUTE)
      assert.deepEqual((await h.helpdesk.automations.run()).fired[0]?.ticket_ids, [ticket.id])
      assert.deepEqual((await h.helpdesk.automations.run()).fired[0]?.ticket_ids, [], 'once per anchor')
    })

    it('reads the candidates\' business-hours calendars a page at a time: a run costs the same statements for 10 tickets as for 40', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      // Business time from creation, and a condition on business hours that never holds (the default calendar is 24/7): every
      // candidate is judged, none fires.
      expectStatus(await h.inject({
        method: 'POST', url: '/api/v1/automations', token: d.admin.token,
        payload: { name: 'Off hours', time_condition: { anchor: 'created', hours: 1, business: true }, conditions: { all: [{ field: 'within_business_hours', operator: 'is', value: false }] }, actions: [{ type: 'add_tags', value: ['late'] }] }
      }), 201)
      const statements = async (tickets: number): Promise<number> => {
        for (let i = 0; i < tickets; i++) await h.helpdesk.tickets.create(d.alice.user, { category: d.billing, title: `T${i}`, body: 'Body' })
        clock.advance(2 * DAY)
        const { result, queries } = await h.countQueries(async () => await h.helpdesk.automations.run())
        assert.deepEqual(result.fired.flatMap((f) => f.ticket_ids), [], 'nothing fires')
        return queries
      }
      const few = await statements(10)
      const many = await statements(30)
      assert.equal(many, few, `statements for 10 candidates (${few}) and for 40 (${many})`)
    })

    it('fires once per anchor even when its action leaves the anchor alone, and is refused with a bad time condition', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/automations', token: d.admin.token, payload: { name: 'Bad', time_condition: { anchor: 'created', hours: -1 }, actions: [{ type: 'set_status', value: 3 }] } }), 'time_condition.hours')
      const ticket = await h.helpdesk.tickets.create(d.alice.user, { category: d.billing, title: 'Help', body: 'Please' })
      await h.helpdesk.automations.create(d.admin.user, { name: 'Stale', time_condition: { anchor: 'created', hours: 1 }, actions: [{ type: 'add_tags', value: ['stale'] }] })
      clock.advance(61 * MINUTE)
      assert.deepEqual((await h.helpdesk.automations.run()).fired[0]?.ticket_ids, [ticket.id])
      clock.advance(AUTOMATION_INTERVAL_MS)
      assert.deepEqual((await h.helpdesk.automations.run()).fired[0]?.ticket_ids, [], 'the creation time never moves: it never fires again')
      assert.deepEqual(((await h.store.tickets.tagsOf([ticket.id])).get(ticket.id) ?? []).map((tag) => tag.name), ['stale'])
    })

    it('pages through its whole range: tickets its conditions leave out never hide newer ones; statuses and priorities filtered in SQL; business hours on the ticket\'s calendar', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const ids: number[] = []
      for (let i = 0; i < 7; i++) {
        ids.push((await h.helpdesk.tickets.create(d.alice.user, { category: d.billing, title: `T${i}`, body: 'Please' })).id)
        clock.advance(MINUTE)
      }
      // The five oldest are not VIP: with pages of two, the run still reaches the two newest.
      for (const id of ids.slice(5)) await h.helpdesk.tickets.update(d.admin.user, id, { tags: ['vip'] })
      await h.helpdesk.tickets.update(d.admin.user, ids[6]!, { priority: 'urgent' })
      const vip = await h.helpdesk.automations.create(d.admin.user, {
        name: 'VIP', time_condition: { anchor: 'created', hours: 1 }, conditions: { all: [{ field: 'tags', operator: 'includes_any', value: ['vip'] }] }, actions: [{ type: 'add_tags', value: ['seen'] }]
      })
      const urgent = await h.helpdesk.automations.create(d.admin.user, {
        name: 'Urgent', time_condition: { anchor: 'created', hours: 1 }, conditions: { all: [{ field: 'priority', operator: 'in', value: ['urgent', 'high'] }] }, actions: [{ type: 'add_tags', value: ['hot'] }]
      })
      const plain = await h.helpdesk.automations.create(d.admin.user, {
        name: 'Plain', time_condition: { anchor: 'created', hours: 1 }, conditions: { all: [{ field: 'tags', operator: 'includes_none', value: ['VIP'] }, { field: 'tags', operator: 'includes_none', value: ['gold'] }] }, actions: [{ type: 'add_tags', value: ['plain'] }]
      })
      clock.advance(2 * 60 * MINUTE)
      const reads = await h.countQueries(async () => await h.helpdesk.automations.run({ pageSize: 2 }))
      const fired = (id: number) => reads.result.fired.find((f) => f.automation_id === id)?.ticket_ids
      assert.deepEqual(fired(vip.id), [ids[5], ids[6]])
      assert.deepEqual(fired(urgent.id), [ids[6]])
      assert.deepEqual(fired(plain.id), ids.slice(0, 5))
      assert.deepEqual((await h.helpdesk.automations.run({ pageSize: 2 })).fired.map((f) => f.ticket_ids), [[], [], []], 'once')
      // Within business hours, on the ticket's calendar: none on a calendar closed all week.
      const closed = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/sla/calendars', token: d.admin.token, payload: { name: 'Never', time_zone: 'UTC', hours: { mon: [{ start: '09:00', end: '09:01' }] } } }), 201).data
      const [policy] = (await h.store.sla.allPolicies()).filter((p) => p.is_default)
      await h.store.sla.updatePolicy(policy!.id, { calendar_id: closed.id })
      const hours = await h.helpdesk.automations.create(d.admin.user, {
        name: 'Hours', time_condition: { anchor: 'created', hours: 1 }, conditions: { all: [{ field: 'within_business_hours', operator: 'is', value: true }] }, actions: [{ type: 'add_tags', value: ['in-hours'] }]
      })
      const outside = (await h.helpdesk.automations.run()).fired.find((f) => f.automation_id === hours.id)?.ticket_ids
      assert.ok(clock.now().getUTCDay() !== 1 || clock.now().getUTCHours() !== 9, 'the clock is not in that one minute')
      assert.deepEqual(outside, [], 'outside the default policy\'s calendar')
      await h.store.sla.updatePolicy(policy!.id, { calendar_id: 1 })
      const inside = (await h.helpdesk.automations.run()).fired.find((f) => f.automation_id === hours.id)?.ticket_ids
      assert.deepEqual(inside, ids, 'around the clock')
    })
  })
})
