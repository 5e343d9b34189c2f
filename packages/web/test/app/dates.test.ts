import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseApiDate, formatDateTime, isUnread, isoDateTime } from '../../src/app/dates.js'

test('API datetimes are read as UTC, in both the space and the ISO form', () => {
  assert.equal(parseApiDate('2026-01-31 14:05:00')?.toISOString(), '2026-01-31T14:05:00.000Z')
  assert.equal(parseApiDate('2026-01-31T14:05:00Z')?.toISOString(), '2026-01-31T14:05:00.000Z')
  assert.equal(parseApiDate('2026-01-31T15:05:00+01:00')?.toISOString(), '2026-01-31T14:05:00.000Z')
  assert.equal(parseApiDate(null), null)
  assert.equal(parseApiDate(''), null)
  assert.equal(parseApiDate('yesterday'), null)
  assert.equal(isoDateTime('2026-01-31 14:05:00'), '2026-01-31T14:05:00.000Z')
})

test('dates are shown in the viewer timezone', () => {
  const berlin = formatDateTime('2026-01-31 23:30:00', { locale: 'en-GB', timeZone: 'Europe/Berlin' })
  const tokyo = formatDateTime('2026-01-31 23:30:00', { locale: 'en-GB', timeZone: 'Asia/Tokyo' })
  assert.match(berlin, /1 Feb 2026/)
  assert.match(berlin, /00:30/)
  assert.match(tokyo, /1 Feb 2026/)
  assert.match(tokyo, /08:30/)
  assert.match(formatDateTime('2026-01-31 23:30:00', { locale: 'en-GB', timeZone: 'UTC' }), /31 Jan 2026.*23:30/)
  assert.equal(formatDateTime(null), '')
})

test('a ticket is unread when it changed after the viewer last read it, or was never read', () => {
  assert.equal(isUnread('2026-01-31 14:05:00', null), true)
  assert.equal(isUnread('2026-01-31 14:05:00', '2026-01-31 14:04:59'), true)
  assert.equal(isUnread('2026-01-31 14:05:00', '2026-01-31 14:05:00'), false)
  assert.equal(isUnread('2026-01-31 14:05:00', '2026-02-01 09:00:00'), false)
})
