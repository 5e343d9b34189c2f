import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createHelpdesk, type Clock } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { notificationTypes } from './notification-fixtures.js'
import { desk, postComment, postTicket, type Desk } from './ticket-fixtures.js'

/** A clock set by hand to UTC times `YYYY-MM-DD HH:MM`. */
function settableClock (start: string): Clock & { set: (utc: string) => void } {
  let time = Date.parse(`${start.replace(' ', 'T')}:00Z`)
  return { now: () => new Date(time), set: (utc) => { time = Date.parse(`${utc.replace(' ', 'T')}:00Z`) } }
}

/** Berlin office hours with a split shift (docs/sla.md's worked examples). */
const OFFICE = {
  name: 'Berlin office',
  time_zone: 'Europe/Berlin',
  hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }]])),
  holidays: [{ date: '2026-04-03', name: 'Good Friday' }, '2026-04-06']
}

async function api (h: TestApp, token: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return await h.inject({ method, url: `/api/v1${url}`, token, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) })
}

/** The office calendar, *standard* for billing (60/120/480) on it and *urgent* for sales (30/60/240) around the clock. */
async function policies (h: TestApp, d: Desk): Promise<{ office: number, standard: number, urgent: number }> {
  const office = expectStatus(await api(h, d.admin.token, 'POST', '/sla/calendars', OFFICE), 201).data.id as number
  const standard = expectStatus(await api(h, d.admin.token, 'POST', '/sla/policies', {
    name: 'Standard', conditions: { category_ids: [d.billing] }, first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 480, calendar_id: office
  }), 201).data.id as number
  const urgent = expectStatus(await api(h, d.admin.token, 'POST', '/sla/policies', {
    name: 'Urgent', conditions: { category_ids: [d.sales] }, first_response_minutes: 30, next_response_minutes: 60, resolution_minutes: 240, calendar_id: 1
  }), 201).data.id as number
  return { office, standard, urgent }
}

async function dueOf (h: TestApp, d: Desk, id: number): Promise<Record<string, string | null>> {
  const t = expectStatus(await api(h, d.admin.token, 'GET', `/tickets/${id}`), 200).data
  return { first: t.first_response_due_at, next: t.next_response_due_at, resolution: t.resolution_due_at, scan: t.sla_next_due_at }
}

async function slaOf (h: TestApp, d: Desk, id: number) {
  return expectStatus(await api(h, d.admin.token, 'GET', `/tickets/${id}/sla`), 200).data
}

eachDialect((dialect) => {
  describe(`SLA policies (${dialect})`, () => {
    it('lets administrators manage calendars and ordered policies, with the list conventions, and nobody else', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      // Built in: a 24/7 calendar and the default policy (no targets until set).
      const calendars = expectStatus(await api(h, d.admin.token, 'GET', '/sla/calendars?include=policies-count'), 200)
      assert.deepEqual(calendars.data.map((c: any) => [c.id, c.name, c.twenty_four_seven, c.built_in, c.policies_count]), [[1, '24/7', true, true, 1]])
      assert.equal(calendars.meta.total, 1)
      expectError(await api(h, d.agent.token, 'GET', '/sla/calendars'), 403)
      expectError(await api(h, d.alice.token, 'GET', '/sla/policies'), 403)
      expectError(await api(h, d.admin.token, 'PATCH', '/sla/calendars/1', { name: 'Mine' }), 403)
      expectError(await api(h, d.admin.token, 'DELETE', '/sla/calendars/1'), 403)

      expectValidation(await api(h, d.admin.token, 'POST', '/sla/calendars', { name: 'Bad', time_zone: 'Mars/Olympus', twenty_four_seven: true }), 'time_zone')
      expectValidation(await api(h, d.admin.token, 'POST', '/sla/calendars', {
        name: 'Overlap', time_zone: 'UTC', hours: { wed: [{ start: '09:00', end: '12:00' }, { start: '11:00', end: '13:00' }] }
      }), 'hours.wed.1')
      const { office, standard, urgent } = await policies(h, d)
      const created = expectStatus(await api(h, d.admin.token, 'GET', `/sla/calendars/${office}`), 200).data
      assert.equal(created.time_zone, 'Europe/Berlin')
      assert.deepEqual(created.holidays, [{ date: '2026-04-03', name: 'Good Friday' }, { date: '2026-04-06', name: null }])
      assert.equal(created.hours.mon.length, 2)
      assert.deepEqual(created.hours.sat, [])

      expectValidation(await api(h, d.admin.token, 'POST', '/sla/policies', { name: 'X', calendar_id: 999 }), 'calendar_id')
      expectValidation(await api(h, d.admin.token, 'POST', '/sla/policies', { name: 'X', calendar_id: 1, conditions: { colour: ['red'] } }), 'conditions.colour')
      expectValidation(await api(h, d.admin.token, 'PATCH', '/sla/policies/1', { conditions: { category_ids: [d.billing] } }), 'conditions')
      expectError(await api(h, d.admin.token, 'DELETE', '/sla/policies/1'), 403)
      expectValidation(await api(h, d.admin.token, 'DELETE', `/sla/calendars/${office}`), 'calendar')

      // Matching order: by position, the default policy last; reorder names every other policy.
      const list = expectStatus(await api(h, d.admin.token, 'GET', '/sla/policies?include=calendar'), 200)
      assert.deepEqual(list.data.map((p: any) => [p.id, p.position, p.is_default]), [[standard, 1, false], [urgent, 2, false], [1, 1, true]])
      assert.equal(list.data[0].calendar.id, office)
      expectValidation(await api(h, d.admin.token, 'POST', '/sla/policies/order', { order: [urgent] }), 'order')
      const reordered = expectStatus(await api(h, d.admin.token, 'POST', '/sla/policies/order', { order: [urgent, standard] }), 200).data
      assert.deepEqual(reordered.map((p: any) => p.id), [urgent, standard, 1])
      const named = expectStatus(await api(h, d.admin.token, 'GET', '/sla/policies?filter[name]=urg&per_page=1'), 200)
      assert.deepEqual([named.data.map((p: any) => p.id), named.meta.total], [[urgent], 1])

      // Holidays from iCal: a yearly rule expanded over the years asked for.
      const ical = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', 'UID:x1', 'DTSTART;VALUE=DATE:20261003',
        'RRULE:FREQ=YEARLY', 'SUMMARY:Tag der Deutschen Einheit', 'END:VEVENT', 'END:VCALENDAR'].join('\r\n')
      const imported = expectStatus(await api(h, d.admin.token, 'POST', `/sla/calendars/${office}/holidays/ical`, { ical, from_year: 2026, to_year: 2027 }), 200).data
      assert.deepEqual(imported.holidays.map((x: any) => x.date), ['2026-04-03', '2026-04-06', '2026-10-03', '2027-10-03'])
      expectValidation(await api(h, d.admin.token, 'POST', `/sla/calendars/${office}/holidays/ical`, { ical: 'not a calendar' }), 'ical')
      expectError(await api(h, d.agent.token, 'POST', `/sla/calendars/${office}/holidays/ical`, { ical }), 403)

      // Extra paused statuses are a setting (Pending always pauses).
      const settings = expectStatus(await api(h, d.admin.token, 'PATCH', '/settings', { 'sla.paused_statuses': [7, 2, 7] }), 200).data
      assert.deepEqual(settings['sla.paused_statuses'], [7])
      expectValidation(await api(h, d.admin.token, 'PATCH', '/settings', { 'sla.paused_statuses': [3] }), 'sla.paused_statuses')

      // Every change asked for a background recalculation (not done in the request): two new policies, the reorder, the import, the setting.
      const jobs = await h.store.jobs.list({ include: [], sort: [{ field: 'id', desc: true }], partial: {}, exact: { type: ['sla.recalculate'] }, page: 1, perPage: 50 })
      assert.equal(jobs.total, 5)
      expectStatus(await api(h, d.admin.token, 'DELETE', `/sla/policies/${urgent}`), 200)
      expectError(await api(h, d.admin.token, 'GET', `/sla/policies/${urgent}`), 404)
    })

    it('keeps due times in the transaction of each change: replies, pauses, close, reopen, a category move (Zammad #3140, #5177; Chatwoot #10178; GLPI #15605)', async (t) => {
      // Monday 2026-01-12 09:00 CET.
      const clock = settableClock('2026-01-12 08:00')
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      await policies(h, d)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const id = ticket.id as number
      // The response of the creation carries them for staff only; customers never see them.
      assert.equal(ticket.first_response_due_at, undefined)
      assert.deepEqual(await dueOf(h, d, id), {
        first: '2026-01-12 09:00:00', next: null, resolution: '2026-01-13 09:00:00', scan: '2026-01-12 09:00:00'
      })

      // A customer reply before any staff reply starts no next-response wait (Zammad #5177).
      clock.set('2026-01-12 08:20')
      await postComment(h, d.alice.token, id, { body: 'Any news?' })
      assert.deepEqual(await dueOf(h, d, id), { first: '2026-01-12 09:00:00', next: null, resolution: '2026-01-13 09:00:00', scan: '2026-01-12 09:00:00' })

      // A staff reply meets the first response and makes the ticket Pending: the clocks pause.
      clock.set('2026-01-12 08:40')
      await postComment(h, d.agent.token, id, { body: 'Looking.' })
      assert.deepEqual(await dueOf(h, d, id), { first: null, next: null, resolution: null, scan: null })
      const met = await slaOf(h, d, id)
      assert.deepEqual([met.targets.first_response.state, met.targets.first_response.breached, met.targets.resolution.state], ['met', false, 'paused'])

      // Tuesday 10:00 CET the customer answers: a next-response wait (due 12:00) and resolution resumes (40 used).
      clock.set('2026-01-13 09:00')
      await postComment(h, d.alice.token, id, { body: 'Still broken.' })
      assert.deepEqual(await dueOf(h, d, id), { first: null, next: '2026-01-13 11:00:00', resolution: '2026-01-14 09:20:00', scan: '2026-01-13 11:00:00' })
      assert.equal((await slaOf(h, d, id)).paused_minutes, 440)

      // The agent answers at 10:30: nothing is due for the next response any more (Zammad #3140).
      clock.set('2026-01-13 09:30')
      await postComment(h, d.agent.token, id, { body: 'Try again now.' })
      assert.deepEqual(await dueOf(h, d, id), { first: null, next: null, resolution: null, scan: null })

      // Another wait at 11:00, then the agent closes the ticket at 11:10: the wait stops with it (Chatwoot #10178).
      clock.set('2026-01-13 10:00')
      await postComment(h, d.alice.token, id, { body: 'No luck.' })
      assert.equal((await dueOf(h, d, id)).next, '2026-01-13 13:00:00')
      clock.set('2026-01-13 10:10')
      expectStatus(await api(h, d.agent.token, 'PATCH', `/tickets/${id}`, { status: 3 }), 200)
      assert.deepEqual(await dueOf(h, d, id), { first: null, next: null, resolution: null, scan: null })
      const closed = await slaOf(h, d, id)
      assert.deepEqual([closed.targets.next_response.state, closed.targets.resolution.state], ['stopped', 'met'])

      // Reopened by the customer on Wednesday 09:00 CET: resolution resumes with the 80 minutes used; a new wait starts.
      clock.set('2026-01-14 08:00')
      await postComment(h, d.alice.token, id, { body: 'It broke again.' })
      assert.deepEqual(await dueOf(h, d, id), { first: null, next: '2026-01-14 10:00:00', resolution: '2026-01-14 15:40:00', scan: '2026-01-14 10:00:00' })

      // Moved to sales at 09:30 CET: the urgent policy (24/7) judges from now on, with the time used and paused kept.
      clock.set('2026-01-14 08:30')
      const moved = expectStatus(await api(h, d.admin.token, 'PATCH', `/tickets/${id}`, { category: d.sales }), 200).data
      assert.deepEqual([moved.next_response_due_at, moved.resolution_due_at], ['2026-01-14 09:00:00', '2026-01-14 10:40:00'])
      const urgent = await slaOf(h, d, id)
      assert.equal(urgent.paused_minutes, 470)
      assert.equal(urgent.targets.first_response.state, 'met')

      // Lists carry them, filter on them (`[lt]`, `[gte]`) and sort by them.
      const other = (await postTicket(h, d.bob.token, { category: d.billing })).id as number
      const list = expectStatus(await api(h, d.admin.token, 'GET', '/tickets?sort=resolution_due_at&filter[resolution_due_at][lt]=2026-01-14 12:00:00'), 200)
      assert.deepEqual(list.data.map((x: any) => [x.id, x.resolution_due_at]), [[id, '2026-01-14 10:40:00']])
      const later = expectStatus(await api(h, d.admin.token, 'GET', '/tickets?filter[resolution_due_at][gte]=2026-01-14 12:00:00'), 200)
      assert.deepEqual(later.data.map((x: any) => x.id), [other])
      const sorted = expectStatus(await api(h, d.admin.token, 'GET', '/tickets?sort=-sla_next_due_at&filter[status]=1'), 200)
      assert.deepEqual(new Set(sorted.data.map((x: any) => x.id)), new Set([id, other]))
      expectValidation(await api(h, d.admin.token, 'GET', '/tickets?filter[resolution_due_at][lt]=tomorrow'), 'filter.resolution_due_at[lt]')
      const forCustomer = expectStatus(await api(h, d.alice.token, 'GET', '/tickets'), 200).data[0]
      assert.equal(forCustomer.resolution_due_at, undefined)
      expectError(await api(h, d.alice.token, 'GET', `/tickets/${id}/sla`), 403)
    })

    it('measures business hours across a daylight-saving change and a holiday, and recalculates open tickets after a change (in the background)', async (t) => {
      // Friday 2026-03-27 15:30 CET: resolution runs out on Monday 16:30 CEST (after the spring change).
      const clock = settableClock('2026-03-27 14:30')
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const { standard, office } = await policies(h, d)
      const id = (await postTicket(h, d.alice.token, { category: d.billing })).id as number
      assert.deepEqual(await dueOf(h, d, id), { first: '2026-03-27 15:30:00', next: null, resolution: '2026-03-30 14:30:00', scan: '2026-03-27 15:30:00' })

      // Thursday 2026-04-02 15:30 CEST: Good Friday, the weekend and Easter Monday are skipped.
      clock.set('2026-04-02 13:30')
      const easter = (await postTicket(h, d.alice.token, { category: d.billing })).id as number
      assert.equal((await dueOf(h, d, easter)).resolution, '2026-04-07 14:30:00')

      // Autumn: Friday 2026-10-23 15:30 CEST, the clocks go back on Sunday; due Monday 16:30 CET.
      clock.set('2026-10-23 13:30')
      const autumn = (await postTicket(h, d.alice.token, { category: d.billing })).id as number
      assert.equal((await dueOf(h, d, autumn)).resolution, '2026-10-26 15:30:00')

      // A policy change is recalculated by a job, not in the request: the due time moves only once it ran.
      clock.set('2026-10-23 14:00')
      expectStatus(await api(h, d.admin.token, 'PATCH', `/sla/policies/${standard}`, { resolution_minutes: 60, calendar_id: 1 }), 200)
      assert.equal((await dueOf(h, d, autumn)).resolution, '2026-10-26 15:30:00')
      clock.set('2026-10-23 14:01')
      assert.equal(await h.helpdesk.sla.recalculateBatch(0), null)
      // A policy's new terms judge its tickets from their creation: 60 minutes around the clock from 15:30 CEST.
      assert.equal((await dueOf(h, d, autumn)).resolution, '2026-10-23 14:30:00')
      // The calendar change too: recalculation is asked for.
      expectStatus(await api(h, d.admin.token, 'PATCH', `/sla/calendars/${office}`, { holidays: [] }), 200)
    })

    it('warns and records breaches once per ticket and target, following the calendar (Zammad #4432), to the category\'s agents', async (t) => {
      // Friday 2026-01-16 16:10 CET: 50 minutes today, 10 on Monday: the first response is due Monday 09:10 CET.
      const clock = settableClock('2026-01-16 15:10')
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const { urgent } = await policies(h, d)
      const id = (await postTicket(h, d.alice.token, { category: d.billing })).id as number
      assert.equal((await dueOf(h, d, id)).first, '2026-01-19 08:10:00')
      // Other open tickets, due in a week.
      expectStatus(await api(h, d.admin.token, 'PATCH', `/sla/policies/${urgent}`, { first_response_minutes: null, next_response_minutes: null, resolution_minutes: 10_000 }), 200)
      const other = createHelpdesk({ store: h.store, clock })

      // Nothing due: the scan is one indexed read (and the configuration, when not cached), whatever the number of open tickets.
      for (let i = 0; i < 20; i++) await postTicket(h, d.bob.token, { category: d.sales })
      assert.equal(expectStatus(await api(h, d.admin.token, 'GET', '/tickets?filter[sla_next_due_at][gte]=2026-01-20 00:00:00&per_page=1'), 200).meta.total, 20)
      const idle = await h.countQueries(async () => await h.helpdesk.sla.escalate())
      assert.equal(idle.result, 0)
      assert.ok(idle.queries <= 4, `${idle.queries} queries`)
      for (const at of ['2026-01-16 15:55', '2026-01-17 00:00', '2026-01-18 12:00', '2026-01-19 07:45']) {
        clock.set(at)
        // At 08:45 CET the naive warning (08:40) has passed, but it waits for the office to open.
        assert.equal(await h.helpdesk.sla.escalate(), 0, `no warning at ${at} UTC`)
      }
      clock.set('2026-01-19 08:00')
      assert.equal(await h.helpdesk.sla.escalate(), 1)
      assert.equal(await h.helpdesk.sla.escalate(), 0)
      assert.equal(await other.sla.escalate(), 0)
      clock.set('2026-01-19 08:10')
      assert.equal(await other.sla.escalate(), 1)
      assert.equal(await h.helpdesk.sla.escalate(), 0)
      // A breached target leaves the scan: the next one is resolution, due Tuesday 09:10 CET.
      assert.deepEqual(await dueOf(h, d, id), { first: '2026-01-19 08:10:00', next: null, resolution: '2026-01-20 08:10:00', scan: '2026-01-20 08:10:00' })
      assert.deepEqual((await notificationTypes(h, d.agent.token)).filter((x) => x.startsWith('Tickets.Sla')).sort(), ['Tickets.SlaBreached', 'Tickets.SlaWarning'])
      const logged = await h.store.eventLog.after(0, 100)
      assert.deepEqual(logged.filter((e) => e.type.startsWith('Tickets.Sla')).map((e) => [e.type, (e.payload.sla as any).target]),
        [['Tickets.SlaWarning', 'first_response'], ['Tickets.SlaBreached', 'first_response']])

      // The breach is recorded: by how much, once answered.
      clock.set('2026-01-19 08:40')
      await postComment(h, d.agent.token, id, { body: 'Sorry for the wait.' })
      const sla = await slaOf(h, d, id)
      assert.deepEqual([sla.targets.first_response.state, sla.targets.first_response.breached, sla.targets.first_response.overdue_minutes], ['met', true, 30])

      // Warnings that do not follow the calendar come at the naive time.
      clock.set('2026-01-16 15:10')
      const policy = (await h.store.sla.allPolicies()).find((p) => p.name === 'Standard')!
      await h.store.sla.updatePolicy(policy.id, { warnings_follow_calendar: false })
      const night = createHelpdesk({ store: h.store, clock })
      const second = (await postTicket(h, d.bob.token, { category: d.billing })).id as number
      clock.set('2026-01-19 07:45')
      assert.equal(await night.sla.escalate(), 1)
      assert.ok(second > id)
    })

    it('raises warnings and breaches into triggers: a trigger on sla.breached tags and assigns, once, and its change runs the next round', async (t) => {
      const clock = settableClock('2026-01-16 15:10')
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      await policies(h, d)
      const trigger = async (payload: Record<string, unknown>) => expectStatus(await api(h, d.admin.token, 'POST', '/triggers', payload), 201).data
      await trigger({ name: 'On warning', events: ['sla.warning'], actions: [{ type: 'add_tags', value: ['warned'] }] })
      await trigger({ name: 'On breach', events: ['sla.breached'], conditions: { all: [{ field: 'channel', operator: 'is', value: 'system' }] }, actions: [{ type: 'add_tags', value: ['breached'] }, { type: 'assign', value: d.agent.user.id }] })
      await trigger({ name: 'Escalate', events: ['ticket.updated'], conditions: { all: [{ field: 'tags', operator: 'includes_any', value: ['breached'] }] }, actions: [{ type: 'set_priority', value: 'urgent' }] })
      const id = (await postTicket(h, d.alice.token, { category: d.billing })).id as number
      const ticket = async () => expectStatus(await api(h, d.admin.token, 'GET', `/tickets/${id}?include=tags`), 200).data
      const tags = async () => (await ticket()).tags.map((tag: { name: string }) => tag.name).sort()
      assert.deepEqual(await tags(), [])

      clock.set('2026-01-19 08:00')
      assert.equal(await h.helpdesk.sla.escalate(), 1)
      assert.deepEqual(await tags(), ['warned'])
      assert.equal((await ticket()).assigned_agent_id, null)

      clock.set('2026-01-19 08:10')
      const other = createHelpdesk({ store: h.store, clock })
      assert.equal(await other.sla.escalate(), 1)
      assert.deepEqual(await tags(), ['breached', 'warned'])
      const after = await ticket()
      assert.equal(after.assigned_agent_id, d.agent.user.id)
      assert.equal(after.priority, 'urgent', 'the breach trigger\'s change is a ticket.updated for the others, in the same pass')
      // Announced once: neither instance runs the triggers again.
      assert.equal(await h.helpdesk.sla.escalate(), 0)
      assert.equal(await other.sla.escalate(), 0)
      const history = expectStatus(await api(h, d.admin.token, 'GET', `/tickets/${id}/history?per_page=100`), 200).data as any[]
      const by = (name: string) => history.filter((entry) => entry.actor.name === `trigger:${name}`).map((entry) => entry.field).sort()
      assert.deepEqual(by('On warning'), ['tags'])
      assert.deepEqual(by('On breach'), ['assignee', 'tags'])
      assert.deepEqual(by('Escalate'), ['priority'])
      // The trigger's assignment did not undo the escalation's bookkeeping: the next target is still scanned.
      assert.equal((await dueOf(h, d, id)).scan, '2026-01-20 08:10:00')
    })

    it('evaluates within_business_hours on the ticket\'s SLA calendar: its policy\'s, 24/7 for a policy around the clock', async (t) => {
      // Friday 2026-01-16 10:00 UTC is 11:00 in Berlin: office hours.
      const clock = settableClock('2026-01-16 10:00')
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      await policies(h, d)
      for (const [name, value] of [['in-hours', true], ['after-hours', false]] as const) {
        expectStatus(await api(h, d.admin.token, 'POST', '/triggers', {
          name, events: ['ticket.created'], conditions: { all: [{ field: 'within_business_hours', operator: 'is', value }] }, actions: [{ type: 'add_tags', value: [name] }]
        }), 201)
      }
      const tagsOf = async (category: number) => {
        const id = (await postTicket(h, d.alice.token, { category })).id as number
        const ticket = expectStatus(await api(h, d.admin.token, 'GET', `/tickets/${id}?include=tags`), 200).data
        return ticket.tags.map((tag: { name: string }) => tag.name)
      }
      assert.deepEqual(await tagsOf(d.billing), ['in-hours'])
      clock.set('2026-01-16 11:30') // 12:30 in Berlin: the lunch break
      assert.deepEqual(await tagsOf(d.billing), ['after-hours'])
      clock.set('2026-01-17 10:00') // Saturday
      assert.deepEqual(await tagsOf(d.billing), ['after-hours'])
      assert.deepEqual(await tagsOf(d.sales), ['in-hours'], 'sales\' policy runs on the 24/7 calendar')
      clock.set('2026-01-19 16:30') // Monday 17:30 in Berlin: closed
      assert.deepEqual(await tagsOf(d.billing), ['after-hours'])
      clock.set('2026-01-19 15:59') // 16:59: open
      assert.deepEqual(await tagsOf(d.billing), ['in-hours'])
    })
  })
})
