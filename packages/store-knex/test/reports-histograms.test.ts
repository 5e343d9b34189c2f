import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  bucketBounds, bucketOf, HISTOGRAM_MAX_ERROR, histogramDelta, hourlyDelta, PRIORITIES, rebuildReports, updateReports,
  type DurationMetric, type ReportDimension, type ReportScope, type TicketFact
} from '@helpdesk/core'
import { testDialects } from '../src/index.js'
import { reportDesk } from './reports-fixture.js'

/** A small deterministic generator (the same facts on both databases). */
function random (seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const at = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')

/** `n` synthetic facts over ~100 days from 2026-01-20: log-uniform durations from seconds to weeks, many ties. */
function syntheticFacts (n: number, categories: number[], agents: number[]): TicketFact[] {
  const r = random(33)
  const start = Date.parse('2026-01-20T00:00:00Z')
  const channels = ['console', 'api', 'mail'] as const
  const facts: TicketFact[] = []
  for (let i = 1; i <= n; i++) {
    const created = start + Math.floor(r() * 100 * 86_400_000)
    const fr = r() < 0.1 ? null : Math.floor(Math.exp(r() * Math.log(1_000_000)))
    const res = r() < 0.3 ? null : Math.floor(Math.exp(r() * Math.log(3_000_000)))
    const frs = fr === null ? null : r() < 0.2 ? 3600 : fr
    facts.push({
      ticket_id: 1_000_000 + i,
      category_id: categories[Math.floor(r() * categories.length)] as number,
      agent_id: r() < 0.2 ? null : agents[Math.floor(r() * agents.length)] as number,
      channel: channels[Math.floor(r() * channels.length)] as typeof channels[number],
      priority: PRIORITIES[Math.floor(r() * PRIORITIES.length)] as typeof PRIORITIES[number],
      status: res === null ? 1 : 3,
      created_at: at(created),
      first_response_at: frs === null ? null : at(created + frs * 1000),
      resolved_at: res === null ? null : at(created + res * 1000),
      first_response_s: frs,
      resolution_s: res,
      replies: 1,
      reopens: 0,
      rating: null,
      first_response_bs: frs === null ? null : Math.floor(frs / 3),
      resolution_bs: res === null ? null : Math.floor(res / 3),
      sla_first_response: null,
      sla_next_response: null,
      sla_resolution: null
    })
  }
  return facts
}

describe('duration histogram buckets', () => {
  it('puts every duration in the bucket whose bounds hold it, buckets at most 2^(1/12) wide', () => {
    let previous = -1
    for (let v = 0; v < 3_000_000; v += v < 5000 ? 1 : Math.ceil(v / 997)) {
      const b = bucketOf(v)
      const { lo, hi } = bucketBounds(b)
      assert.ok(lo <= v && v <= hi, `${v} in bucket ${b} [${lo}, ${hi}]`)
      assert.ok(b >= previous)
      previous = b
      // Half the width, relative to the smallest value in the bucket: the error bound of an estimate (its midpoint).
      assert.ok((hi - lo) / 2 <= HISTOGRAM_MAX_ERROR * lo + 0.5, `bucket ${b} [${lo}, ${hi}] too wide`)
    }
    assert.equal(bucketOf(59), 59)
    assert.deepEqual(bucketBounds(5), { lo: 5, hi: 5 })
  })
})

for (const dialect of testDialects()) {
  describe(`report histograms on ${dialect}`, () => {
    it('estimates percentiles within the documented bound of the exact ones, counts and means exact, in any zone and grouping', async (t) => {
      const d = await reportDesk(t, dialect)
      const agents = [d.agent.id, d.seller.id]
      const facts = syntheticFacts(3000, [d.billing, d.sales], agents)
      await d.store.transaction(async (tx) => {
        await tx.reports.apply(facts, [], hourlyDelta([], facts), histogramDelta([], facts))
      })
      const cases: Array<{ from: string, to: string, zone: string, groupBy: ReportDimension | null, filter?: Partial<ReportScope> }> = [
        { from: '2026-01-01', to: '2026-06-30', zone: 'UTC', groupBy: null },
        { from: '2026-01-25', to: '2026-04-10', zone: 'Europe/Berlin', groupBy: null },
        { from: '2026-02-03', to: '2026-04-27', zone: 'America/New_York', groupBy: 'category' },
        { from: '2026-01-20', to: '2026-04-30', zone: 'Asia/Kolkata', groupBy: 'agent' },
        { from: '2026-02-01', to: '2026-03-31', zone: 'UTC', groupBy: 'channel' },
        { from: '2026-01-28', to: '2026-04-20', zone: 'Europe/Berlin', groupBy: 'priority' },
        { from: '2026-01-20', to: '2026-04-30', zone: 'America/New_York', groupBy: null, filter: { priority: 'urgent' } },
        { from: '2026-01-20', to: '2026-04-30', zone: 'UTC', groupBy: 'priority', filter: { priority: 'low' } },
        { from: '2026-02-10', to: '2026-02-10', zone: 'Asia/Tokyo', groupBy: null },
        { from: '2026-01-20', to: '2026-04-30', zone: 'UTC', groupBy: null, filter: { categories: [d.sales] } },
        { from: '2026-01-20', to: '2026-04-30', zone: 'UTC', groupBy: 'category', filter: { category: d.billing } },
        { from: '2026-01-20', to: '2026-04-30', zone: 'UTC', groupBy: null, filter: { agent: 0 } }
      ]
      for (const c of cases) {
        const scope: ReportScope = { ...(await d.helpdesk.reports.scope(d.admin, { from: c.from, to: c.to, time_zone: c.zone })).scope, ...c.filter }
        for (const metric of ['first_response_s', 'resolution_s', 'first_response_bs', 'resolution_bs'] as DurationMetric[]) {
          const exact = await d.store.reports.durations(scope, metric, c.groupBy, { exactUpTo: Number.POSITIVE_INFINITY })
          const estimated = await d.store.reports.durations(scope, metric, c.groupBy, { exactUpTo: 0 })
          const label = `${JSON.stringify(c)} ${metric}`
          assert.equal(exact.estimated, false)
          assert.equal(estimated.estimated, true, label)
          assert.ok(exact.stats.length > 0, label)
          assert.deepEqual(estimated.stats.map((s) => [s.group, s.count, s.mean]), exact.stats.map((s) => [s.group, s.count, s.mean]), label)
          for (const [i, e] of exact.stats.entries()) {
            const s = estimated.stats[i]
            for (const p of ['median', 'p90'] as const) {
              const x = e[p] as number
              const y = s?.[p] as number
              // The estimate is the midpoint of the exact value's bucket.
              assert.equal(bucketOf(y), bucketOf(x), `${label} ${p}: ${y} vs ${x}`)
              assert.ok(Math.abs(y - x) <= HISTOGRAM_MAX_ERROR * x + 1, `${label} ${p}: ${y} vs ${x}`)
            }
          }
        }
      }
      // Two dimensions at once (a category filter grouped by agent): no histogram holds that, so exact.
      const mixed = await d.store.reports.durations({ from: '2026-01-01 00:00:00', to: '2026-07-01 00:00:00', category: d.billing }, 'resolution_s', 'agent', { exactUpTo: 0 })
      assert.equal(mixed.estimated, false)
      // Through the service: estimated above its limit, with the flag in the report.
      d.helpdesk.reports.exactPercentilesUpTo = 100
      const report = await d.helpdesk.reports.report(d.admin, 'resolution-time', { from: '2026-01-01', to: '2026-06-30' })
      assert.equal(report.estimated, true)
      assert.equal(report.rows[0]?.tickets, facts.filter((f) => f.resolution_s !== null).length)
    })

    it('keeps the histograms live as rebuilt, and drops cells that fall back to zero', async (t) => {
      const d = await reportDesk(t, dialect)
      const ids: number[] = []
      for (let i = 0; i < 4; i++) {
        d.clock.set(`2026-03-0${2 + i} 09:00:00`)
        ids.push((await d.helpdesk.tickets.create(d.alice, { title: `T${i}`, body: 'Help', category: d.billing })).id)
        d.clock.set(`2026-03-0${2 + i} 09:${10 + i * 7}:00`)
        await d.helpdesk.comments.create(d.agent, ids[i] as number, { body: 'Reply', type: 1, private: false, close: i % 2 === 0 })
      }
      await updateReports(d.store, d.clock)
      await d.helpdesk.tickets.delete(d.admin, ids[0] as number)
      d.clock.set('2026-03-07 09:00:00')
      await d.helpdesk.tickets.update(d.admin, ids[1] as number, { category: d.sales })
      await d.helpdesk.tickets.update(d.admin, ids[2] as number, { priority: 'high' })
      d.clock.set('2026-03-07 10:00:00')
      await updateReports(d.store, d.clock)
      const live = await d.store.reports.allHistograms()
      assert.ok(live.every((cell) => cell.tickets > 0))
      // Three tickets with a first response, each at its day and its month (1,440 s and 1,860 s: two buckets in Billing).
      assert.equal(live.filter((c) => c.metric === 'first_response_s' && c.dim === 'all' && c.period.length === 10).length, 3)
      assert.deepEqual(live.filter((c) => c.metric === 'first_response_s' && c.dim === 'category').map((c) => c.grp).sort(), [d.billing, d.billing, d.billing, d.billing, d.sales, d.sales].map(String).sort())
      // The priority breakdown follows a priority change (1,440 s moved from normal to high).
      assert.deepEqual(live.filter((c) => c.metric === 'first_response_s' && c.dim === 'priority').map((c) => `${c.grp}:${c.bucket}`).sort(),
        live.filter((c) => c.metric === 'first_response_s' && c.dim === 'category').map((c) => `${c.total_s === 1440 ? 'high' : 'normal'}:${c.bucket}`).sort())
      await rebuildReports(d.store)
      assert.deepEqual(await d.store.reports.allHistograms(), live)
    })
  })
}
