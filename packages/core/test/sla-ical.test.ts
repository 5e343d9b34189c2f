import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { addBusinessMinutes, businessCalendar, holidaysFromIcal, isHelpdeskError } from '../src/index.js'

const fixture = await readFile(new URL('./fixtures/sla-holidays.ics', import.meta.url), 'utf8')

describe('holidays from iCal', () => {
  it('reads all-day, multi-day and yearly events over the years asked for', async () => {
    const holidays = await holidaysFromIcal(fixture, { from_year: 2025, to_year: 2027 })
    assert.deepEqual(holidays, [
      { date: '2025-05-01', name: 'Labour Day' },
      { date: '2025-06-29', name: 'Saints Peter, Paul and a very long folded name that goes on and on past the line limit' },
      { date: '2025-09-15', name: 'Company day' },
      { date: '2025-11-27', name: 'Thanksgiving' },
      { date: '2026-01-01', name: "New Year's Day" }, // the duplicate keeps the first name
      { date: '2026-05-01', name: 'Labour Day' },
      // 2026-09-15 is an EXDATE; 2026-06-10 is cancelled; the timed meeting is no holiday.
      { date: '2026-11-26', name: 'Thanksgiving' },
      { date: '2026-12-24', name: 'Christmas break' },
      { date: '2026-12-25', name: 'Christmas break' },
      { date: '2026-12-26', name: 'Christmas break' },
      { date: '2027-03-03', name: 'Team retreat' }, // DURATION:P2D
      { date: '2027-03-04', name: 'Team retreat' },
      { date: '2027-05-01', name: 'Labour Day' },
      { date: '2027-09-17', name: 'Company day (moved)' }, // RECURRENCE-ID moved the 15th
      { date: '2027-11-25', name: 'Thanksgiving' }
    ])
  })

  it('gives holidays a calendar accepts and the arithmetic skips', async () => {
    const holidays = await holidaysFromIcal(fixture, { from_year: 2026, to_year: 2026 })
    assert.equal(holidays[0]!.date, '2026-01-01')
    const split = [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }]
    const calendar = businessCalendar({ time_zone: 'Europe/Berlin', hours: { mon: split, tue: split, wed: split, thu: split, fri: split }, holidays })
    // Wednesday 2026-12-23 16:00 CET + 2h: the break takes Thursday to Saturday -> Monday 28th 10:00.
    assert.equal(addBusinessMinutes(calendar, new Date('2026-12-23T15:00:00Z'), 120).toISOString(), '2026-12-28T09:00:00.000Z')
  })

  it('refuses a text that is not iCalendar, and bad ranges', async () => {
    for (const text of ['hello', 'BEGIN:VCARD\r\nVERSION:4.0\r\nEND:VCARD\r\n']) {
      await assert.rejects(holidaysFromIcal(text, { from_year: 2026, to_year: 2026 }), (error: unknown) => {
        assert.ok(isHelpdeskError(error, 'HD_VALIDATION'))
        assert.deepEqual((error as { errors: unknown }).errors, { ical: ['The file is not a valid iCalendar (.ics) file.'] })
        return true
      })
    }
    await assert.rejects(holidaysFromIcal(fixture, { from_year: 2027, to_year: 2026 }), (error: unknown) =>
      isHelpdeskError(error, 'HD_VALIDATION') && 'to_year' in (error as { errors: object }).errors)
    await assert.rejects(holidaysFromIcal(fixture, { from_year: 2000, to_year: 2100 }), (error: unknown) =>
      isHelpdeskError(error, 'HD_VALIDATION') && 'to_year' in (error as { errors: object }).errors)
  })

  it('bounds a rule that repeats without end', async () => {
    const daily = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//t//EN',
      'BEGIN:VEVENT', 'UID:daily@test', 'DTSTAMP:20250101T000000Z', 'DTSTART;VALUE=DATE:20250101', 'RRULE:FREQ=DAILY', 'SUMMARY:Every day', 'END:VEVENT',
      'END:VCALENDAR', ''
    ].join('\r\n')
    await assert.rejects(holidaysFromIcal(daily, { from_year: 2025, to_year: 2030 }), (error: unknown) =>
      isHelpdeskError(error, 'HD_VALIDATION') && /more than 2000 holidays/.test((error as Error).message))
    assert.equal((await holidaysFromIcal(daily, { from_year: 2025, to_year: 2025 })).length, 365)
  })
})
