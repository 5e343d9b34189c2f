import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { hourlyDelta, ticketFact, toCsv } from '../src/index.js'
import { localDate, localMidnightUtc, offsetSegments, utcRange, weekStart } from '../src/reports/report-time.js'

const iso = (ms: number): string => new Date(ms).toISOString()

describe('report time zones', () => {
  it('cuts local days at local midnight, across clock changes', () => {
    assert.equal(iso(localMidnightUtc('2026-03-09', 'America/New_York')), '2026-03-09T04:00:00.000Z')
    assert.equal(iso(localMidnightUtc('2026-03-07', 'America/New_York')), '2026-03-07T05:00:00.000Z')
    assert.equal(iso(localMidnightUtc('2026-03-02', 'Asia/Kolkata')), '2026-03-01T18:30:00.000Z')
    assert.equal(iso(localMidnightUtc('2026-03-02', 'UTC')), '2026-03-02T00:00:00.000Z')
    assert.deepEqual(utcRange('2026-03-07', '2026-03-08', 'America/New_York'), { from: '2026-03-07 05:00:00', to: '2026-03-09 04:00:00' })
    assert.equal(localDate(Date.parse('2026-03-06T23:30:00Z'), 'Asia/Tokyo'), '2026-03-07')
    assert.equal(weekStart('2026-03-08'), '2026-03-02')
    assert.equal(weekStart('2026-03-09'), '2026-03-09')
  })

  it('splits a range into stretches of one offset', () => {
    assert.deepEqual(offsetSegments('2026-03-07 05:00:00', '2026-03-10 04:00:00', 'America/New_York'), [
      { until: '2026-03-08 07:00:00', offsetMinutes: -300 }, { until: null, offsetMinutes: -240 }
    ])
    assert.deepEqual(offsetSegments('2026-01-01 00:00:00', '2027-01-01 00:00:00', 'Europe/Berlin'), [
      { until: '2026-03-29 01:00:00', offsetMinutes: 60 }, { until: '2026-10-25 01:00:00', offsetMinutes: 120 }, { until: null, offsetMinutes: 60 }
    ])
    assert.deepEqual(offsetSegments('2026-01-01 00:00:00', '2027-01-01 00:00:00', 'Asia/Kolkata'), [{ until: null, offsetMinutes: 330 }])
  })
})

describe('ticket facts', () => {
  const ticket = { id: 1, category_id: 2, assigned_agent_id: null, status: 3, created_at: '2026-03-01 08:00:00', updated_at: '2026-03-01 12:00:00' }

  it('read a closed ticket without resolutions (imported closed) as resolved at its last update', () => {
    const fact = ticketFact({ ticket, channel: null, imported: true, staffReplies: ['2026-03-01 11:00:00', '2026-03-01 09:00:00'], resolutions: [] })
    assert.deepEqual([fact.channel, fact.first_response_s, fact.resolution_s, fact.replies, fact.reopens], ['import', 3600, 14400, 2, 0])
  })

  it('count reopens from closings, and replies only up to the last closing', () => {
    const resolutions = [{ resolution: 2, closed_at: '2026-03-01 10:00:00', rating: 'bad' }, { resolution: 1, closed_at: '2026-03-01 09:00:00', rating: null }]
    const open = ticketFact({ ticket: { ...ticket, status: 1 }, channel: 'mail', imported: false, staffReplies: ['2026-03-01 09:00:00', '2026-03-01 11:00:00'], resolutions })
    assert.deepEqual([open.resolved_at, open.reopens, open.replies, open.rating], [null, 2, 2, null])
    const closed = ticketFact({ ticket, channel: 'mail', imported: false, staffReplies: ['2026-03-01 09:00:00', '2026-03-01 11:00:00'], resolutions })
    assert.deepEqual([closed.resolved_at, closed.reopens, closed.replies, closed.rating], ['2026-03-01 10:00:00', 1, 1, 'bad'])
    // What the ticket adds and takes away cancels out exactly.
    assert.deepEqual(hourlyDelta([closed], [closed]), [])
    assert.equal(hourlyDelta([], [closed]).length, 2)
  })

  it('write CSV that spreadsheets do not run', () => {
    assert.equal(toCsv(['a', 'b'], [{ a: '=SUM(A1)', b: 'x, "y"' }, { a: null, b: 3 }]), 'a,b\r\n\'=SUM(A1),"x, ""y"""\r\n,3\r\n')
  })
})
