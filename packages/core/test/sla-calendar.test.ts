import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { businessCalendar, businessCalendarErrors, isHelpdeskError, type BusinessCalendarInput } from '../src/index.js'

const split = [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }]

describe('business calendar input', () => {
  it('normalises a valid calendar: canonical zone, every weekday, sorted intervals and holidays', () => {
    const calendar = businessCalendar({
      time_zone: 'europe/berlin',
      hours: { mon: [split[1]!, split[0]!], fri: [{ start: '00:00', end: '24:00' }] },
      holidays: ['2026-12-26', { date: '2026-12-25', name: ' Christmas  Day ' }]
    })
    assert.equal(calendar.time_zone, 'Europe/Berlin')
    assert.deepEqual(calendar.hours.mon, split)
    assert.deepEqual(calendar.hours.tue, [])
    assert.deepEqual(calendar.hours.fri, [{ start: '00:00', end: '24:00' }])
    assert.deepEqual(calendar.holidays, [{ date: '2026-12-25', name: 'Christmas Day' }, { date: '2026-12-26', name: null }])
    assert.equal(calendar.twenty_four_seven, false)
  })

  it('accepts a 24/7 calendar without hours, and adjacent intervals', () => {
    assert.equal(businessCalendar({ time_zone: 'UTC', twenty_four_seven: true }).twenty_four_seven, true)
    assert.deepEqual(businessCalendarErrors({ time_zone: 'UTC', hours: { mon: [{ start: '09:00', end: '12:00' }, { start: '12:00', end: '13:00' }] } }), {})
  })

  it('names every bad field', () => {
    const input = {
      time_zone: 'Mars/Olympus_Mons',
      hours: {
        mon: [{ start: '9:00', end: '12:00' }, { start: '13:00', end: '24:01' }],
        tue: [{ start: '12:00', end: '12:00' }],
        wed: [{ start: '09:00', end: '12:00' }, { start: '11:00', end: '14:00' }],
        thu: [{ start: '24:00', end: '24:00' }],
        funday: [split[0]]
      },
      holidays: ['2026-02-30', '2026-05-01', { date: '2026-05-01', name: 'again' }, { date: '2026-06-01', name: 'x'.repeat(101) }]
    } as unknown as BusinessCalendarInput
    assert.deepEqual(businessCalendarErrors(input), {
      time_zone: ['The time zone must be an IANA time zone name (Europe/Berlin).'],
      'hours.mon.0.start': ['The start must be a time from 00:00 to 23:59 (HH:MM).'],
      'hours.mon.1.end': ['The end must be a time from 00:01 to 24:00 (HH:MM).'],
      'hours.tue.0.end': ['The end must be after the start.'],
      'hours.wed.1': ['The interval overlaps 09:00-12:00.'],
      'hours.thu.0.start': ['The start must be a time from 00:00 to 23:59 (HH:MM).'],
      'hours.funday': ['The weekday is unknown: use mon, tue, wed, thu, fri, sat or sun.'],
      'holidays.0.date': ['The date must be a date (YYYY-MM-DD).'],
      'holidays.2.date': ['The date is listed twice.'],
      'holidays.3.name': ['The name may not be greater than 100 characters.']
    })
  })

  it('reports an overlap on the later interval whatever the order given', () => {
    const errors = businessCalendarErrors({ time_zone: 'UTC', hours: { mon: [{ start: '10:00', end: '11:00' }, { start: '08:00', end: '10:30' }] } })
    assert.deepEqual(errors, { 'hours.mon.1': ['The interval overlaps 10:00-11:00.'] })
  })

  it('refuses a calendar with no business time at all, as a ValidationError', () => {
    assert.throws(() => businessCalendar({ time_zone: 'UTC', hours: { sat: [] } }), (error: unknown) => {
      assert.ok(isHelpdeskError(error, 'HD_VALIDATION'))
      assert.deepEqual((error as { errors: unknown }).errors, {
        hours: ['The calendar needs business hours on at least one weekday, or twenty_four_seven.']
      })
      return true
    })
  })

  it('refuses shapes that are not lists or maps', () => {
    const errors = businessCalendarErrors({ time_zone: 'UTC', hours: { mon: 'always' }, holidays: 'none', twenty_four_seven: 'yes' } as unknown as BusinessCalendarInput)
    assert.deepEqual(Object.keys(errors).sort(), ['holidays', 'hours.mon', 'twenty_four_seven'])
  })
})
