import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  addBusinessMinutes, businessCalendar, businessMinutesBetween, businessMsBetween, isWithinBusinessHours, nextBusinessInstant,
  warningInstant, WEEKDAYS, type BusinessCalendar, type BusinessInterval, type Weekday
} from '../src/index.js'

const split = [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }]
const weekdays = { mon: split, tue: split, wed: split, thu: split, fri: split }
/** Berlin office: Monday to Friday 09:00-12:00 and 13:00-17:00, Christmas Day and Boxing Day off. */
const berlin = businessCalendar({
  time_zone: 'Europe/Berlin',
  hours: weekdays,
  holidays: [{ date: '2026-12-25', name: 'Christmas Day' }, { date: '2026-12-26', name: 'Boxing Day' }]
})

const at = (iso: string): Date => new Date(iso)
const iso = (date: Date): string => date.toISOString().replace('.000Z', 'Z')

describe('business time: cases', () => {
  it('walks a split shift: the lunch break does not count, a due time may sit at an interval end', () => {
    // Monday 2026-01-12, Berlin is UTC+1 in winter.
    assert.equal(iso(addBusinessMinutes(berlin, at('2026-01-12T10:30:00Z'), 60)), '2026-01-12T12:30:00Z') // 11:30 + 1h -> 13:30
    assert.equal(iso(addBusinessMinutes(berlin, at('2026-01-12T10:30:00Z'), 30)), '2026-01-12T11:00:00Z') // 11:30 + 30m -> 12:00, not 13:00
    assert.equal(iso(addBusinessMinutes(berlin, at('2026-01-12T11:15:00Z'), 30)), '2026-01-12T12:30:00Z') // from the break: 13:00 + 30m
    assert.equal(businessMinutesBetween(berlin, at('2026-01-12T10:00:00Z'), at('2026-01-12T13:00:00Z')), 120) // 11:00-14:00
    assert.equal(iso(addBusinessMinutes(berlin, at('2026-01-16T15:00:00Z'), 60)), '2026-01-16T16:00:00Z') // Friday 16:00 + 1h -> Friday 17:00
    assert.equal(iso(addBusinessMinutes(berlin, at('2026-01-16T15:00:00Z'), 61)), '2026-01-19T08:01:00Z') // ... one more -> Monday 09:01
  })

  it('crosses the spring change in Europe/Berlin (last Sunday of March), both directions', () => {
    // Friday 2026-03-27 16:00 CET (UTC+1) + 2h: 1h on Friday, 1h on Monday 2026-03-30 in CEST (UTC+2).
    assert.equal(iso(addBusinessMinutes(berlin, at('2026-03-27T15:00:00Z'), 120)), '2026-03-30T08:00:00Z')
    assert.equal(businessMinutesBetween(berlin, at('2026-03-27T15:00:00Z'), at('2026-03-30T08:00:00Z')), 120)
    // Backwards in time: the same span measured from Monday back to Friday is 0 (to before from).
    assert.equal(businessMinutesBetween(berlin, at('2026-03-30T08:00:00Z'), at('2026-03-27T15:00:00Z')), 0)
    assert.equal(isWithinBusinessHours(berlin, at('2026-03-30T07:00:00Z')), true) // 09:00 CEST
    assert.equal(isWithinBusinessHours(berlin, at('2026-03-27T07:00:00Z')), false) // 08:00 CET
  })

  it('crosses the autumn change in Europe/Berlin (last Sunday of October), both directions', () => {
    // Friday 2026-10-23 16:00 CEST (UTC+2) + 2h -> Monday 2026-10-26 10:00 CET (UTC+1).
    assert.equal(iso(addBusinessMinutes(berlin, at('2026-10-23T14:00:00Z'), 120)), '2026-10-26T09:00:00Z')
    assert.equal(businessMinutesBetween(berlin, at('2026-10-23T14:00:00Z'), at('2026-10-26T09:00:00Z')), 120)
    assert.equal(iso(nextBusinessInstant(berlin, at('2026-10-24T12:00:00Z'))), '2026-10-26T08:00:00Z')
  })

  it('follows the wall clock across the change: skipped times do not exist, repeated times count twice', () => {
    const sunday = (start: string, end: string): BusinessCalendar =>
      businessCalendar({ time_zone: 'Europe/Berlin', hours: { sun: [{ start, end }] } })
    const night = sunday('01:00', '05:00')
    assert.equal(businessMinutesBetween(night, at('2026-03-28T00:00:00Z'), at('2026-03-30T00:00:00Z')), 180) // 02:00-03:00 skipped
    assert.equal(businessMinutesBetween(night, at('2026-10-24T00:00:00Z'), at('2026-10-26T00:00:00Z')), 300) // 02:00-03:00 twice
    assert.equal(iso(addBusinessMinutes(night, at('2026-03-29T00:00:00Z'), 61)), '2026-03-29T01:01:00Z') // 01:00 CET + 61m = 03:01 CEST
    // An interval starting inside the spring gap opens when the clock jumps past its start (03:00 CEST).
    const gap = sunday('02:30', '04:00')
    assert.equal(iso(nextBusinessInstant(gap, at('2026-03-29T00:00:00Z'))), '2026-03-29T01:00:00Z')
    assert.equal(businessMinutesBetween(gap, at('2026-03-28T00:00:00Z'), at('2026-03-30T00:00:00Z')), 60)
    // In autumn 02:30-03:00 happens twice and 02:00-02:30 CET (second pass) is outside: 30 + 30 + 60 minutes.
    assert.equal(businessMinutesBetween(gap, at('2026-10-24T00:00:00Z'), at('2026-10-26T00:00:00Z')), 120)
    assert.equal(isWithinBusinessHours(gap, at('2026-10-25T00:45:00Z')), true) // 02:45 CEST
    assert.equal(isWithinBusinessHours(gap, at('2026-10-25T01:15:00Z')), false) // 02:15 CET
    assert.equal(isWithinBusinessHours(gap, at('2026-10-25T01:45:00Z')), true) // 02:45 CET
    // A 24/7 calendar counts real time: the spring Sunday has 23 hours, the autumn one 25.
    const always = businessCalendar({ time_zone: 'Europe/Berlin', twenty_four_seven: true, holidays: ['2026-03-29', '2026-10-25'] })
    assert.equal(businessMinutesBetween(always, at('2026-03-28T00:00:00Z'), at('2026-03-31T00:00:00Z')), 3 * 1440 - 23 * 60)
    assert.equal(businessMinutesBetween(always, at('2026-10-24T00:00:00Z'), at('2026-10-27T00:00:00Z')), 3 * 1440 - 25 * 60)
  })

  it('skips holidays, whole local days', () => {
    // Thursday 2026-12-24 16:00 CET + 2h: 1h on Thursday, Friday 25 and Saturday 26 off -> Monday 28 10:00.
    assert.equal(iso(addBusinessMinutes(berlin, at('2026-12-24T15:00:00Z'), 120)), '2026-12-28T09:00:00Z')
    assert.equal(isWithinBusinessHours(berlin, at('2026-12-25T09:00:00Z')), false)
    assert.equal(businessMinutesBetween(berlin, at('2026-12-21T00:00:00Z'), at('2026-12-28T00:00:00Z')), 4 * 420)
  })

  it('moves a warning that falls outside business hours to the next opening (Zammad #4432)', () => {
    // Due Monday 2026-01-12 09:30 CET; warn 60 minutes before: 08:30, before opening.
    const due = at('2026-01-12T08:30:00Z')
    assert.equal(iso(warningInstant(berlin, due, 60, false)), '2026-01-12T07:30:00Z')
    assert.equal(iso(warningInstant(berlin, due, 60, true)), '2026-01-12T08:00:00Z')
    // Warn a day before a Monday due time: Sunday, so Monday 09:00 when the warnings follow the calendar.
    assert.equal(iso(warningInstant(berlin, due, 24 * 60, true)), '2026-01-12T08:00:00Z')
    // A warning during business hours stays where it is.
    assert.equal(iso(warningInstant(berlin, at('2026-01-16T16:00:00Z'), 30, true)), '2026-01-16T15:30:00Z')
    // Never later than the due time itself: due at 17:00 Friday, a warning at 16:59:30 is business time anyway;
    // a due time at an opening (09:00) warned 10 minutes before moves to 09:00, the due time.
    assert.equal(iso(warningInstant(berlin, at('2026-01-12T08:00:00Z'), 10, true)), '2026-01-12T08:00:00Z')
  })

  it('respects business hours where a 24/7 clock would not (Chatwoot: SLAs that ignore business hours)', () => {
    // A ticket at Friday 18:00 with a 4-hour target is due Monday 14:00 on the office calendar
    // (09:00-12:00, then 13:00-14:00), not at 22:00 on Friday.
    assert.equal(iso(addBusinessMinutes(berlin, at('2026-01-16T17:00:00Z'), 240)), '2026-01-19T13:00:00Z')
    const always = businessCalendar({ time_zone: 'Europe/Berlin', twenty_four_seven: true })
    assert.equal(iso(addBusinessMinutes(always, at('2026-01-16T17:00:00Z'), 240)), '2026-01-16T21:00:00Z')
  })

  it('adds ten thousand business minutes and more without walking minute by minute', () => {
    const started = performance.now()
    const due = addBusinessMinutes(berlin, at('2026-01-05T08:00:00Z'), 10_000)
    assert.equal(businessMinutesBetween(berlin, at('2026-01-05T08:00:00Z'), due), 10_000)
    // About 11 years of office time: week skipping keeps this to a few thousand offset look-ups.
    const far = addBusinessMinutes(berlin, at('2026-01-05T08:00:00Z'), 2_000_000)
    assert.equal(businessMinutesBetween(berlin, at('2026-01-05T08:00:00Z'), far), 2_000_000)
    assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`)
  })
})

// ---------------------------------------------------------------------------------------------
// Properties, over random calendars in zones with and without daylight saving.

const ZONES = [
  'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata', 'UTC', 'Pacific/Chatham'
]

/** Up to four disjoint intervals on a 15-minute grid, sometimes ending at 24:00. */
const dayArbitrary: fc.Arbitrary<BusinessInterval[]> = fc.uniqueArray(fc.integer({ min: 0, max: 96 }), { maxLength: 8 })
  .map((points) => {
    const sorted = [...points].sort((a, b) => a - b)
    const intervals: BusinessInterval[] = []
    for (let i = 0; i + 1 < sorted.length; i += 2) {
      intervals.push({ start: clock(sorted[i]! * 15), end: clock(sorted[i + 1]! * 15) })
    }
    return intervals
  })

function clock (minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}

const calendarArbitrary: fc.Arbitrary<BusinessCalendar> = fc.record({
  zone: fc.constantFrom(...ZONES),
  days: fc.tuple(...WEEKDAYS.map(() => dayArbitrary)),
  holidays: fc.uniqueArray(fc.integer({ min: 0, max: 800 }), { maxLength: 30 })
}).filter(({ days }) => days.some((day) => day.length > 0)).map(({ zone, days, holidays }) => businessCalendar({
  time_zone: zone,
  hours: Object.fromEntries(WEEKDAYS.map((day, i) => [day, days[i]!])) as Record<Weekday, BusinessInterval[]>,
  holidays: holidays.map((offset) => new Date(Date.UTC(2025, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10))
}))

/** Instants in 2025-2026, at any second. */
const instantArbitrary = fc.integer({ min: Date.UTC(2025, 0, 1) / 1000, max: Date.UTC(2027, 0, 1) / 1000 }).map((s) => new Date(s * 1000))
const minutesArbitrary = fc.integer({ min: 1, max: 20_000 })

const oracles = new Map<string, Intl.DateTimeFormat>()
/** Business time read independently of the library: the wall clock's weekday, date and time in the zone. */
function oracleWithin (calendar: BusinessCalendar, instant: Date): boolean {
  let format = oracles.get(calendar.time_zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: calendar.time_zone, weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23'
    })
    oracles.set(calendar.time_zone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]))
  const date = `${parts.year}-${parts.month}-${parts.day}`
  if (calendar.holidays.some((holiday) => holiday.date === date)) return false
  const day = parts.weekday!.toLowerCase().slice(0, 3) as Weekday
  const seconds = Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second)
  const toSeconds = (time: string): number => Number(time.slice(0, 2)) * 3600 + Number(time.slice(3, 5)) * 60
  return calendar.hours[day].some((interval) => toSeconds(interval.start) <= seconds && seconds < toSeconds(interval.end))
}

describe('business time: properties', () => {
  it('agrees with the wall clock read directly (isWithinBusinessHours)', () => {
    fc.assert(fc.property(calendarArbitrary, instantArbitrary, (calendar, instant) => {
      assert.equal(isWithinBusinessHours(calendar, instant), oracleWithin(calendar, instant))
    }), { numRuns: 500 })
  })

  it('puts a due time inside business hours or exactly at the end of an interval', () => {
    fc.assert(fc.property(calendarArbitrary, instantArbitrary, minutesArbitrary, (calendar, start, minutes) => {
      const due = addBusinessMinutes(calendar, start, minutes)
      assert.ok(due > start)
      // The instant just before the due time is business time: the last of the target was spent there.
      assert.ok(isWithinBusinessHours(calendar, new Date(due.getTime() - 1)))
      assert.ok(oracleWithin(calendar, new Date(due.getTime() - 1000)) || isWithinBusinessHours(calendar, new Date(due.getTime() - 1000)))
    }), { numRuns: 300 })
  })

  it('is monotonic in the start and in the minutes', () => {
    fc.assert(fc.property(calendarArbitrary, instantArbitrary, instantArbitrary, minutesArbitrary, minutesArbitrary, (calendar, a, b, m1, m2) => {
      const [early, late] = a <= b ? [a, b] : [b, a]
      assert.ok(addBusinessMinutes(calendar, early, m1) <= addBusinessMinutes(calendar, late, m1))
      const [few, many] = m1 <= m2 ? [m1, m2] : [m2, m1]
      const dueFew = addBusinessMinutes(calendar, a, few)
      const dueMany = addBusinessMinutes(calendar, a, many)
      assert.ok(few === many ? dueFew.getTime() === dueMany.getTime() : dueFew < dueMany)
    }), { numRuns: 200 })
  })

  it('adds in steps: add(a, m1 + m2) equals add(add(a, m1), m2)', () => {
    fc.assert(fc.property(calendarArbitrary, instantArbitrary, minutesArbitrary, minutesArbitrary, (calendar, a, m1, m2) => {
      assert.equal(
        addBusinessMinutes(calendar, a, m1 + m2).getTime(),
        addBusinessMinutes(calendar, addBusinessMinutes(calendar, a, m1), m2).getTime()
      )
    }), { numRuns: 200 })
  })

  it('measures back what it added: businessMinutesBetween(s, add(s, m)) equals m', () => {
    fc.assert(fc.property(calendarArbitrary, instantArbitrary, minutesArbitrary, (calendar, start, minutes) => {
      assert.equal(businessMinutesBetween(calendar, start, addBusinessMinutes(calendar, start, minutes)), minutes)
    }), { numRuns: 300 })
  })

  it('splits a span anywhere: between(a, c) equals between(a, b) + between(b, c)', () => {
    fc.assert(fc.property(calendarArbitrary, fc.array(instantArbitrary, { minLength: 3, maxLength: 3 }), (calendar, instants) => {
      const [a, b, c] = instants.sort((x, y) => x.getTime() - y.getTime()) as [Date, Date, Date]
      assert.equal(businessMsBetween(calendar, a, c), businessMsBetween(calendar, a, b) + businessMsBetween(calendar, b, c))
    }), { numRuns: 200 })
  })

  it('gives the next opening: business time itself, else an interval start with no business time before it', () => {
    fc.assert(fc.property(calendarArbitrary, instantArbitrary, (calendar, instant) => {
      const next = nextBusinessInstant(calendar, instant)
      assert.ok(isWithinBusinessHours(calendar, next))
      if (isWithinBusinessHours(calendar, instant)) assert.equal(next.getTime(), instant.getTime())
      else assert.equal(businessMinutesBetween(calendar, instant, next), 0)
    }), { numRuns: 300 })
  })

  it('equals calendar-time arithmetic on a 24/7 calendar, in any zone', () => {
    fc.assert(fc.property(fc.constantFrom(...ZONES), instantArbitrary, instantArbitrary, minutesArbitrary, (zone, a, b, minutes) => {
      const always = businessCalendar({ time_zone: zone, twenty_four_seven: true })
      assert.equal(addBusinessMinutes(always, a, minutes).getTime(), a.getTime() + minutes * 60_000)
      assert.equal(businessMinutesBetween(always, a, b), Math.max(0, b.getTime() - a.getTime()) / 60_000)
      assert.equal(isWithinBusinessHours(always, a), true)
    }), { numRuns: 200 })
  })

  it('counts the minutes of a few days the way a minute-by-minute walk of the wall clock does', () => {
    // Starts near the daylight-saving changes of 2025 and 2026 in the zones above.
    const near = fc.constantFrom(
      Date.UTC(2025, 2, 29), Date.UTC(2025, 9, 25), Date.UTC(2026, 2, 7), Date.UTC(2026, 3, 4), Date.UTC(2026, 8, 5), Date.UTC(2026, 9, 31)
    )
    fc.assert(fc.property(calendarArbitrary, near, fc.integer({ min: 0, max: 36 }), (calendar, base, hours) => {
      const from = base + hours * 3_600_000
      let walked = 0
      for (let t = from; t < from + 2 * 86_400_000; t += 60_000) if (oracleWithin(calendar, new Date(t))) walked++
      assert.equal(businessMinutesBetween(calendar, new Date(from), new Date(from + 2 * 86_400_000)), walked)
    }), { numRuns: 15 })
  })
})
