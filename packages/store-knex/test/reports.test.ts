import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ForbiddenError, rebuildReports, ValidationError, toCsv, updateReports, TICKET_FACT_COLUMNS, type ReportQuery } from '@helpdesk/core'
import { testDialects } from '../src/index.js'
import { migrationSource } from '../src/migrations/index.js'
import { importLines, reportDesk, type ReportDesk } from './reports-fixture.js'

/**
 * The hand-computed fixture of docs/reports.md (all times UTC):
 *
 * - A (Billing, Alice, assigned to Gus): created Mon 2026-03-02 09:00; Gus
 *   replies 09:30, replies and closes 10:00; Alice reopens 11:00; Gus closes
 *   12:00; Alice reopens 13:00; Gus closes 14:00. First response 1,800 s,
 *   resolution 18,000 s, 4 replies, reopened twice.
 * - B (imported with history, closed): created Sun 2026-03-01 08:00, agent
 *   replies 09:00 and 11:00 (the customer 10:00), last update 12:00. First
 *   response 3,600 s, resolution 14,400 s, 2 replies, channel `import`.
 * - C (Billing, Bob): created Tue 2026-03-03 09:00, Gus replies 10:00: paused in
 *   Pending, unresolved. First response 3,600 s, in the backlog.
 * - D (Sales, Alice, assigned to Sam): created Wed 2026-03-04 09:00, Sam
 *   replies and closes 09:20; Alice rates it bad. 1,200 s both.
 * - E (Billing, Bob, assigned to Gus): created Fri 2026-03-06 17:00, answered
 *   and closed across the weekend, Mon 2026-03-09 09:00; rated good.
 *   230,400 s both (64 hours of calendar time).
 */
async function buildFixture (d: ReportDesk): Promise<Record<string, number>> {
  const { helpdesk: h, clock } = d
  const reply = async (who: typeof d.agent, id: number, at: string, close = false): Promise<void> => {
    clock.set(at)
    await h.comments.create(who, id, { body: 'A reply.', type: 1, private: false, close })
  }
  clock.set('2026-03-02 09:00:00')
  const a = (await h.tickets.create(d.alice, { title: 'A', body: 'Help', category: d.billing })).id
  await h.tickets.assign(d.admin, a, d.agent.id)
  await reply(d.agent, a, '2026-03-02 09:30:00')
  await reply(d.agent, a, '2026-03-02 10:00:00', true)
  await reply(d.alice, a, '2026-03-02 11:00:00')
  await reply(d.agent, a, '2026-03-02 12:00:00', true)
  await reply(d.alice, a, '2026-03-02 13:00:00')
  await reply(d.agent, a, '2026-03-02 14:00:00', true)

  clock.set('2026-03-02 15:00:00')
  await importLines(d, [
    { type: 'category', id: 'old-cat', name: 'Legacy' },
    { type: 'agent', id: 'gus', first_name: d.agent.first_name, last_name: d.agent.last_name, email: d.agent.email },
    { type: 'customer', id: 'carl', first_name: 'Carl', last_name: 'Old', email: 'carl@reports.test' },
    {
      type: 'ticket', id: 'old-1', customer: 'carl', category: 'old-cat', agent: 'gus', title: 'B', body: 'Old', status: 'closed',
      created_at: '2026-03-01 08:00:00', updated_at: '2026-03-01 12:00:00',
      comments: [
        { body: 'Agent', agent: 'gus', created_at: '2026-03-01 09:00:00' },
        { body: 'Customer', customer: 'carl', created_at: '2026-03-01 10:00:00' },
        { body: 'Agent again', agent: 'gus', created_at: '2026-03-01 11:00:00' }
      ]
    }
  ])

  clock.set('2026-03-03 09:00:00')
  const c = (await h.tickets.create(d.bob, { title: 'C', body: 'Help', category: d.billing })).id
  await reply(d.agent, c, '2026-03-03 10:00:00')

  clock.set('2026-03-04 09:00:00')
  const dd = (await h.tickets.create(d.alice, { title: 'D', body: 'Help', category: d.sales })).id
  await h.tickets.assign(d.admin, dd, d.seller.id)
  await reply(d.seller, dd, '2026-03-04 09:20:00', true)
  clock.set('2026-03-04 10:00:00')
  await h.satisfaction.rate(d.alice, dd, { rating: 'bad', comment: 'Too short.' })

  clock.set('2026-03-06 17:00:00')
  const e = (await h.tickets.create(d.bob, { title: 'E', body: 'Help', category: d.billing })).id
  await h.tickets.assign(d.admin, e, d.agent.id)
  await reply(d.agent, e, '2026-03-09 09:00:00', true)
  clock.set('2026-03-09 10:00:00')
  await h.satisfaction.rate(d.bob, e, { rating: 'good' })
  return { a, c, d: dd, e }
}

const week: ReportQuery = { from: '2026-03-01', to: '2026-03-09' }

for (const dialect of testDialects()) {
  describe(`reports on ${dialect}`, () => {
    it('computes every metric of the hand-computed fixture exactly, live and rebuilt alike', async (t) => {
      const d = await reportDesk(t, dialect)
      const ids = await buildFixture(d)
      await updateReports(d.store, d.clock)
      const live = { facts: await d.store.reports.allFacts(), hourly: await d.store.reports.allHourly(), daily: await d.store.reports.allDaily(), histograms: await d.store.reports.allHistograms() }
      assert.equal(live.facts.length, 5)
      const r = d.helpdesk.reports
      const admin = d.admin

      const frt = await r.report(admin, 'first-response-time', week)
      assert.deepEqual(frt.rows, [{ tickets: 5, mean_s: 48120, median_s: 3600, p90_s: 230400 }])
      const res = await r.report(admin, 'resolution-time', week)
      assert.deepEqual(res.rows, [{ tickets: 4, mean_s: 66000, median_s: 14400, p90_s: 230400 }])
      assert.deepEqual((await r.report(admin, 'replies', week)).rows, [{ resolved: 4, replies: 8, mean_replies: 2 }])
      assert.deepEqual((await r.report(admin, 'reopen-rate', week)).rows, [{ resolved: 4, reopened: 1, reopens: 2, reopen_rate: 0.25 }])
      assert.deepEqual((await r.report(admin, 'satisfaction', week)).rows, [{ resolved: 4, good: 1, bad: 1, score: 0.5 }])
      assert.deepEqual((await r.report(admin, 'backlog', week)).rows, [{ age: '3-7d', tickets: 1 }])
      assert.deepEqual((await r.report(admin, 'volume', week)).rows, [
        { period: '2026-03-01', created: 1, resolved: 1 },
        { period: '2026-03-02', created: 1, resolved: 1 },
        { period: '2026-03-03', created: 1, resolved: 0 },
        { period: '2026-03-04', created: 1, resolved: 1 },
        { period: '2026-03-06', created: 1, resolved: 0 },
        { period: '2026-03-09', created: 0, resolved: 1 }
      ])
      // Tokyo (UTC+9): E was created on Saturday there; A resolved at 23:00 on the 2nd; B's day is still the 1st.
      assert.deepEqual((await r.report(admin, 'volume', { ...week, time_zone: 'Asia/Tokyo', to: '2026-03-10' })).rows, [
        { period: '2026-03-01', created: 1, resolved: 1 },
        { period: '2026-03-02', created: 1, resolved: 1 },
        { period: '2026-03-03', created: 1, resolved: 0 },
        { period: '2026-03-04', created: 1, resolved: 1 },
        { period: '2026-03-07', created: 1, resolved: 0 },
        { period: '2026-03-09', created: 0, resolved: 1 }
      ])
      // New York across its clock change (March 8): every ticket stays on its UTC date there.
      assert.deepEqual((await r.report(admin, 'volume', { ...week, time_zone: 'America/New_York' })).rows.map((row) => row.period), ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-06', '2026-03-09'])
      assert.deepEqual((await r.report(admin, 'volume', { ...week, interval: 'week' })).rows, [
        { period: '2026-02-23', created: 1, resolved: 1 },
        { period: '2026-03-02', created: 4, resolved: 2 },
        { period: '2026-03-09', created: 0, resolved: 1 }
      ])
      // By agent: Gus has A, B (imported to him), C, E; Sam has D.
      assert.deepEqual((await r.report(admin, 'resolution-time', { ...week, group_by: 'agent' })).rows, [
        { group: d.agent.id, tickets: 3, mean_s: 87600, median_s: 18000, p90_s: 230400 },
        { group: d.seller.id, tickets: 1, mean_s: 1200, median_s: 1200, p90_s: 1200 }
      ].sort((x, y) => x.group - y.group))
      assert.deepEqual((await r.report(admin, 'first-response-time', { ...week, group_by: 'channel' })).rows, [
        { group: 'api', tickets: 4, mean_s: 59250, median_s: 1800, p90_s: 230400 },
        { group: 'import', tickets: 1, mean_s: 3600, median_s: 3600, p90_s: 3600 }
      ])
      assert.deepEqual((await r.report(admin, 'satisfaction', { ...week, group_by: 'category' })).rows.map((row) => [row.group, row.score]), [
        [d.billing, 1], [d.sales, 0], [live.facts.find((f) => f.channel === 'import')?.category_id ?? -1, null]
      ].sort((x, y) => Number(x[0]) - Number(y[0])))
      // Totals in other zones read whole UTC days and the edge hours: Tokyo's week ending on the 8th ends at 15:00 UTC, before E was closed.
      assert.deepEqual((await r.report(admin, 'replies', { ...week, time_zone: 'Asia/Tokyo' })).rows, [{ resolved: 4, replies: 8, mean_replies: 2 }])
      assert.deepEqual((await r.report(admin, 'replies', { from: '2026-03-01', to: '2026-03-08', time_zone: 'Asia/Tokyo' })).rows, [{ resolved: 3, replies: 7, mean_replies: 2.3333 }])
      // New York's 1st starts at 05:00 UTC: B (resolved 12:00 UTC on the 1st) is in; its 2nd ends at 05:00 UTC on the 3rd: A is in.
      assert.deepEqual((await r.report(admin, 'reopen-rate', { from: '2026-03-01', to: '2026-03-02', time_zone: 'America/New_York' })).rows, [{ resolved: 2, reopened: 1, reopens: 2, reopen_rate: 0.5 }])
      assert.deepEqual((await r.report(admin, 'satisfaction', { from: '2026-03-04', to: '2026-03-04', time_zone: 'America/New_York' })).rows, [{ resolved: 1, good: 0, bad: 1, score: 0 }])
      // A week in the range ends before E was answered: its first response falls out, and so does its resolution.
      assert.deepEqual((await r.report(admin, 'resolution-time', { from: '2026-03-01', to: '2026-03-08' })).rows, [{ tickets: 3, mean_s: 11200, median_s: 14400, p90_s: 18000 }])

      const facts = await r.tickets(admin, week)
      const byId = new Map(facts.map((f) => [f.ticket_id, f]))
      assert.deepEqual(byId.get(ids.a as number), {
        ticket_id: ids.a, category_id: d.billing, agent_id: d.agent.id, channel: 'api', priority: 'normal', status: 3, created_at: '2026-03-02 09:00:00',
        first_response_at: '2026-03-02 09:30:00', resolved_at: '2026-03-02 14:00:00', first_response_s: 1800, resolution_s: 18000,
        replies: 4, reopens: 2, rating: null,
        // The default SLA policy (24/7, no targets) applies: business time is calendar time, no verdicts.
        first_response_bs: 1800, resolution_bs: 18000, sla_first_response: null, sla_next_response: null, sla_resolution: null
      })
      // The imported ticket gets SLA state in its import batch (the default 24/7 policy): business time is calendar time.
      assert.deepEqual(facts.filter((f) => f.channel === 'import').map((f) => [f.first_response_bs, f.resolution_bs]), [[3600, 14400]])
      assert.deepEqual([byId.get(ids.c as number)?.status, byId.get(ids.c as number)?.resolved_at, byId.get(ids.c as number)?.replies], [2, null, 1])
      const csv = toCsv(TICKET_FACT_COLUMNS, facts)
      assert.equal(csv.split('\r\n')[0], TICKET_FACT_COLUMNS.join(','))
      assert.equal(csv.split('\r\n').length, 5 + 2)

      // Agents: their categories only (Sam: Sales), or their own figures; a setting keeps reports to administrators.
      assert.deepEqual((await r.report(d.seller, 'resolution-time', week)).rows, [{ tickets: 1, mean_s: 1200, median_s: 1200, p90_s: 1200 }])
      assert.deepEqual((await r.report(d.agent, 'resolution-time', { ...week, agent: d.agent.id })).rows.map((row) => row.tickets), [3])
      await assert.rejects(r.report(d.alice, 'volume', week), ForbiddenError)
      await d.helpdesk.settings.update(d.admin, { 'reports.admins_only': true })
      await assert.rejects(r.report(d.seller, 'volume', week), ForbiddenError)
      assert.equal((await r.report(d.admin, 'volume', week)).rows.length, 6)

      // Applying the same events again changes nothing; a rebuild from scratch gives the same rollups.
      await d.store.reports.setCursor(0)
      await updateReports(d.store, d.clock)
      assert.deepEqual({ facts: await d.store.reports.allFacts(), hourly: await d.store.reports.allHourly(), daily: await d.store.reports.allDaily(), histograms: await d.store.reports.allHistograms() }, live)
      await rebuildReports(d.store)
      assert.deepEqual({ facts: await d.store.reports.allFacts(), hourly: await d.store.reports.allHourly(), daily: await d.store.reports.allDaily(), histograms: await d.store.reports.allHistograms() }, live)
    })

    it('groups and filters every metric by priority, and a priority change moves the ticket\'s counts', async (t) => {
      const d = await reportDesk(t, dialect)
      const ids = await buildFixture(d)
      await updateReports(d.store, d.clock)
      const r = d.helpdesk.reports
      const admin = d.admin
      const byPriority: ReportQuery = { ...week, group_by: 'priority' }
      // Every ticket is normal so far (the default; B was imported without one).
      assert.deepEqual((await r.report(admin, 'first-response-time', byPriority)).rows, [{ group: 'normal', tickets: 5, mean_s: 48120, median_s: 3600, p90_s: 230400 }])
      assert.deepEqual((await r.report(admin, 'satisfaction', byPriority)).rows, [{ group: 'normal', resolved: 4, good: 1, bad: 1, score: 0.5 }])

      // A becomes urgent, D and E high: their facts move (a priority change is a ticket event the job reads).
      d.clock.set('2026-03-09 11:00:00')
      await d.helpdesk.tickets.update(admin, ids.a as number, { priority: 'urgent' })
      await d.helpdesk.tickets.update(admin, ids.d as number, { priority: 'high' })
      await d.helpdesk.tickets.update(admin, ids.e as number, { priority: 'high' })
      await updateReports(d.store, d.clock)
      // Groups in priority order (low to urgent), not by name.
      assert.deepEqual((await r.report(admin, 'first-response-time', byPriority)).rows, [
        { group: 'normal', tickets: 2, mean_s: 3600, median_s: 3600, p90_s: 3600 },
        { group: 'high', tickets: 2, mean_s: 115800, median_s: 1200, p90_s: 230400 },
        { group: 'urgent', tickets: 1, mean_s: 1800, median_s: 1800, p90_s: 1800 }
      ])
      assert.deepEqual((await r.report(admin, 'resolution-time', byPriority)).rows, [
        { group: 'normal', tickets: 1, mean_s: 14400, median_s: 14400, p90_s: 14400 },
        { group: 'high', tickets: 2, mean_s: 115800, median_s: 1200, p90_s: 230400 },
        { group: 'urgent', tickets: 1, mean_s: 18000, median_s: 18000, p90_s: 18000 }
      ])
      assert.deepEqual((await r.report(admin, 'replies', byPriority)).rows, [
        { group: 'normal', resolved: 1, replies: 2, mean_replies: 2 },
        { group: 'high', resolved: 2, replies: 2, mean_replies: 1 },
        { group: 'urgent', resolved: 1, replies: 4, mean_replies: 4 }
      ])
      assert.deepEqual((await r.report(admin, 'reopen-rate', byPriority)).rows.map((row) => [row.group, row.reopened, row.reopen_rate]), [['normal', 0, 0], ['high', 0, 0], ['urgent', 1, 1]])
      assert.deepEqual((await r.report(admin, 'satisfaction', byPriority)).rows, [
        { group: 'normal', resolved: 1, good: 0, bad: 0, score: null },
        { group: 'high', resolved: 2, good: 1, bad: 1, score: 0.5 },
        { group: 'urgent', resolved: 1, good: 0, bad: 0, score: null }
      ])
      assert.deepEqual((await r.report(admin, 'backlog', byPriority)).rows, [{ group: 'normal', age: '3-7d', tickets: 1 }])
      assert.deepEqual((await r.report(admin, 'volume', byPriority)).rows, [
        { period: '2026-03-01', group: 'normal', created: 1, resolved: 1 },
        { period: '2026-03-02', group: 'urgent', created: 1, resolved: 1 },
        { period: '2026-03-03', group: 'normal', created: 1, resolved: 0 },
        { period: '2026-03-04', group: 'high', created: 1, resolved: 1 },
        { period: '2026-03-06', group: 'high', created: 1, resolved: 0 },
        { period: '2026-03-09', group: 'high', created: 0, resolved: 1 }
      ])
      // In Tokyo, E was created on Saturday the 7th: the moved hours keep their priority.
      assert.deepEqual((await r.report(admin, 'volume', { ...byPriority, time_zone: 'Asia/Tokyo', to: '2026-03-10' })).rows.filter((row) => row.group === 'high').map((row) => row.period), ['2026-03-04', '2026-03-07', '2026-03-09'])
      // Filtered by priority, alone and with another dimension (which reads the exact durations).
      assert.deepEqual((await r.report(admin, 'resolution-time', { ...week, priority: 'high' })).rows, [{ tickets: 2, mean_s: 115800, median_s: 1200, p90_s: 230400 }])
      assert.deepEqual((await r.report(admin, 'resolution-time', { ...week, priority: 'high', group_by: 'agent' })).rows.map((row) => [row.group, row.tickets]),
        [[d.agent.id, 1], [d.seller.id, 1]].sort((x, y) => Number(x[0]) - Number(y[0])))
      assert.deepEqual((await r.report(admin, 'replies', { ...week, priority: 'urgent' })).rows, [{ resolved: 1, replies: 4, mean_replies: 4 }])
      assert.deepEqual((await r.report(admin, 'volume', { ...week, priority: 'low' })).rows, [])
      assert.deepEqual((await r.tickets(admin, { ...week, priority: 'high' })).map((f) => f.ticket_id).sort((x, y) => x - y), [ids.d, ids.e])
      // From the histograms (forced): the same counts and means, the percentiles within their bucket.
      r.exactPercentilesUpTo = 0
      const estimated = await r.report(admin, 'resolution-time', byPriority)
      assert.equal(estimated.estimated, true)
      assert.deepEqual(estimated.rows.map((row) => [row.group, row.tickets, row.mean_s]), [['normal', 1, 14400], ['high', 2, 115800], ['urgent', 1, 18000]])
      const estimatedHigh = await r.report(admin, 'first-response-time', { ...week, priority: 'high' })
      assert.equal(estimatedHigh.estimated, true)
      assert.deepEqual(estimatedHigh.rows.map((row) => [row.tickets, row.mean_s]), [[2, 115800]])
      r.exactPercentilesUpTo = 20_000
      await assert.rejects(r.report(admin, 'volume', { ...week, priority: 'extreme' }), ValidationError)
      await assert.rejects(r.report(admin, 'volume', { ...week, group_by: 'mood' as 'priority' }), ValidationError)

      // Back to normal: the counts move back; live and rebuilt rollups agree at each step.
      const snapshot = async (): Promise<unknown> => ({ facts: await d.store.reports.allFacts(), hourly: await d.store.reports.allHourly(), daily: await d.store.reports.allDaily(), histograms: await d.store.reports.allHistograms() })
      const live = await snapshot()
      await rebuildReports(d.store)
      assert.deepEqual(await snapshot(), live)
      await d.helpdesk.tickets.update(admin, ids.a as number, { priority: 'normal' })
      await updateReports(d.store, d.clock)
      assert.deepEqual((await r.report(admin, 'reopen-rate', byPriority)).rows.map((row) => [row.group, row.resolved, row.reopened]), [['normal', 2, 1], ['high', 2, 0]])
      const moved = await snapshot()
      await rebuildReports(d.store)
      assert.deepEqual(await snapshot(), moved)
    })

    it('measures business time on the SLA calendar and counts SLA targets met and breached', async (t) => {
      const d = await reportDesk(t, dialect)
      const { helpdesk: h, clock, admin } = d
      const nineToFive = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [day, [{ start: '09:00', end: '17:00' }]]))
      const calendar = await h.sla.createCalendar(admin, { name: 'Office', time_zone: 'UTC', hours: nineToFive })
      await h.sla.createPolicy(admin, { name: 'Billing', conditions: { category_ids: [d.billing] }, first_response_minutes: 60, next_response_minutes: 60, resolution_minutes: 240, calendar_id: calendar.id })
      const reply = async (who: typeof d.agent, id: number, at: string, close = false): Promise<void> => {
        clock.set(at)
        await h.comments.create(who, id, { body: 'A reply.', type: 1, private: false, close })
      }
      // T1: Friday 16:00, answered Monday 09:30 (90 business minutes: late), closed 10:00 (120 business minutes: in time).
      clock.set('2026-03-06 16:00:00')
      const t1 = (await h.tickets.create(d.alice, { title: 'T1', body: 'Help', category: d.billing })).id
      await reply(d.agent, t1, '2026-03-09 09:30:00')
      await reply(d.agent, t1, '2026-03-09 10:00:00', true)
      // T2: Monday 10:00, answered 10:20; the customer writes 10:30, answered 12:00 (90 minutes: next response late); open.
      clock.set('2026-03-09 10:00:00')
      const t2 = (await h.tickets.create(d.bob, { title: 'T2', body: 'Help', category: d.billing })).id
      await reply(d.agent, t2, '2026-03-09 10:20:00')
      await reply(d.bob, t2, '2026-03-09 10:30:00')
      await reply(d.agent, t2, '2026-03-09 12:00:00')
      // T3 (Sales, the default policy: 24/7, no targets): business time is calendar time, no verdicts.
      clock.set('2026-03-09 11:00:00')
      const t3 = (await h.tickets.create(d.alice, { title: 'T3', body: 'Help', category: d.sales })).id
      await reply(d.seller, t3, '2026-03-09 11:45:00')
      await updateReports(d.store, clock)
      const query: ReportQuery = { from: '2026-03-01', to: '2026-03-10' }
      const r = h.reports
      assert.deepEqual((await r.report(admin, 'first-response-time', query)).rows, [{ tickets: 3, mean_s: 79900, median_s: 2700, p90_s: 235800 }])
      const business = await r.report(admin, 'first-response-time', { ...query, time: 'business' })
      assert.equal(business.time, 'business')
      assert.deepEqual(business.rows, [{ tickets: 3, mean_s: 3100, median_s: 2700, p90_s: 5400 }])
      assert.deepEqual((await r.report(admin, 'resolution-time', { ...query, time: 'business' })).rows, [{ tickets: 1, mean_s: 7200, median_s: 7200, p90_s: 7200 }])
      const sla = await r.report(admin, 'sla-attainment', query)
      assert.deepEqual(sla.columns, ['target', 'met', 'breached', 'rate'])
      assert.deepEqual(sla.rows, [
        { target: 'first_response', met: 1, breached: 1, rate: 0.5 },
        { target: 'next_response', met: 0, breached: 1, rate: 0 },
        { target: 'resolution', met: 1, breached: 0, rate: 1 }
      ])
      assert.deepEqual((await r.report(admin, 'sla-attainment', { ...query, group_by: 'category' })).rows.map((row) => [row.group, row.target, row.met, row.breached]), [
        [d.billing, 'first_response', 1, 1], [d.billing, 'next_response', 0, 1], [d.billing, 'resolution', 1, 0]
      ])
      // By priority: T1 made urgent afterwards carries its verdicts with it.
      clock.set('2026-03-09 12:30:00')
      await h.tickets.update(admin, t1, { priority: 'urgent' })
      await updateReports(d.store, clock)
      assert.deepEqual((await r.report(admin, 'sla-attainment', { ...query, group_by: 'priority' })).rows.map((row) => [row.group, row.target, row.met, row.breached]), [
        ['normal', 'first_response', 1, 0], ['normal', 'next_response', 0, 1],
        ['urgent', 'first_response', 0, 1], ['urgent', 'resolution', 1, 0]
      ])
      assert.deepEqual((await r.report(admin, 'sla-attainment', { ...query, priority: 'urgent' })).rows.map((row) => [row.target, row.rate]), [['first_response', 0], ['resolution', 1]])
      const facts = new Map((await r.tickets(admin, query)).map((f) => [f.ticket_id, f]))
      assert.deepEqual([t1, t2, t3].map((id) => { const f = facts.get(id); return [f?.first_response_bs, f?.resolution_bs, f?.sla_first_response, f?.sla_next_response, f?.sla_resolution] }), [
        [5400, 7200, 'breached', null, 'met'],
        [1200, null, 'met', 'breached', null],
        [2700, null, null, null, null]
      ])
      const csv = toCsv((await r.report(admin, 'sla-attainment', query)).columns, sla.rows)
      assert.equal(csv, 'target,met,breached,rate\r\nfirst_response,1,1,0.5\r\nnext_response,0,1,0\r\nresolution,1,0,1\r\n')
      // A rebuild gives the same.
      const live = { facts: await d.store.reports.allFacts(), hourly: await d.store.reports.allHourly(), daily: await d.store.reports.allDaily(), histograms: await d.store.reports.allHistograms() }
      await rebuildReports(d.store)
      assert.deepEqual({ facts: await d.store.reports.allFacts(), hourly: await d.store.reports.allHourly(), daily: await d.store.reports.allDaily(), histograms: await d.store.reports.allHistograms() }, live)
      await assert.rejects(r.report(admin, 'first-response-time', { ...query, time: 'office' as 'business' }), ValidationError)
    })

    it('computes every ticket on its first run over a database that had tickets before the reports (an upgrade)', async (t) => {
      const d = await reportDesk(t, dialect)
      for (let i = 0; i < 3; i++) await d.helpdesk.tickets.create(d.alice, { title: `T${i}`, body: 'B', category: d.billing })
      // As after migration 0031 on an existing database: no facts, never built, the cursor past every event.
      await d.store.reports.clear()
      await d.store.reports.setBuilt(false)
      await d.store.reports.setCursor(await d.store.eventLog.latestId())
      await updateReports(d.store, d.clock)
      assert.equal((await d.store.reports.allFacts()).length, 3)
      assert.equal(await d.store.reports.isBuilt(), true)
    })

    it('migration 0047 empties the rollups and marks them unbuilt; the next run keys every ticket by its priority (an upgrade)', async (t) => {
      const d = await reportDesk(t, dialect)
      const ids: number[] = []
      for (const priority of ['low', 'urgent', 'urgent'] as const) {
        const id = (await d.helpdesk.tickets.create(d.alice, { title: 'T', body: 'B', category: d.billing })).id
        await d.helpdesk.tickets.update(d.admin, id, { priority })
        ids.push(id)
      }
      await updateReports(d.store, d.clock)
      // 0047 undone (rollups without priority; later migrations stay) and done again, as an upgrade over built rollups.
      await d.store.knex.migrate.down({ migrationSource, name: '0047-report-priority' })
      assert.equal(await d.store.knex.schema.hasColumn('report_hourly', 'priority'), false)
      await d.store.knex.migrate.latest({ migrationSource })
      assert.equal(await d.store.reports.isBuilt(), false)
      assert.deepEqual([(await d.store.reports.allFacts()).length, (await d.store.reports.allHourly()).length, (await d.store.reports.allHistograms()).length], [0, 0, 0])
      await updateReports(d.store, d.clock)
      assert.equal(await d.store.reports.isBuilt(), true)
      assert.deepEqual((await d.store.reports.allFacts()).map((f) => [f.ticket_id, f.priority]), [[ids[0], 'low'], [ids[1], 'urgent'], [ids[2], 'urgent']])
      // Same hour, category, agent and channel: one row per priority under the new key.
      assert.deepEqual((await d.store.reports.allHourly()).map((h) => [h.priority, h.created]), [['low', 1], ['urgent', 2]])
      assert.deepEqual((await d.store.reports.allDaily()).map((h) => [h.priority, h.created]), [['low', 1], ['urgent', 2]])
    })
  })
}
