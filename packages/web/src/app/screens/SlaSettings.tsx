import { useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { loadCategories } from '../data.js'
import { Checkbox, EditorForm, ErrorBanner, Field, ItemButton, ListStatus, PageHeader } from '../components/ui.js'
import { t } from '../../messages/index.js'

interface Interval { start: string, end: string }
interface Calendar {
  id: number
  name: string
  time_zone: string
  hours: Record<string, Interval[]>
  holidays: Array<{ date: string, name: string | null }>
  twenty_four_seven: boolean
  built_in: boolean
}
interface Policy {
  id: number
  name: string
  position: number
  is_default: boolean
  conditions: { category_ids?: number[] }
  first_response_minutes: number | null
  next_response_minutes: number | null
  resolution_minutes: number | null
  calendar_id: number
  warning_minutes: number | null
}

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']

/** "mon 09:00-12:00 13:00-17:00" lines as the API's hours (a line it cannot read is left for the server to refuse). */
export function parseHours (text: string): Record<string, Interval[]> {
  const hours: Record<string, Interval[]> = {}
  for (const line of text.split('\n')) {
    const [day, ...spans] = line.trim().split(/\s+/)
    if (day === undefined || day === '') continue
    hours[day.toLowerCase().slice(0, 3)] = spans.map((span) => {
      const [start = '', end = ''] = span.split('-')
      return { start, end }
    })
  }
  return hours
}

export function hoursText (hours: Record<string, Interval[]>): string {
  return WEEKDAYS.filter((d) => (hours[d] ?? []).length > 0).map((d) => `${d} ${(hours[d] ?? []).map((i) => `${i.start}-${i.end}`).join(' ')}`).join('\n')
}

function parseHolidays (text: string): Array<{ date: string, name: string | null }> {
  return text.split('\n').map((line) => line.trim()).filter((line) => line !== '').map((line) => {
    const [date = '', ...name] = line.split(/\s+/)
    return { date, name: name.length > 0 ? name.join(' ') : null }
  })
}

const minutes = (value: string): number | null => value.trim() === '' ? null : Number(value)
const shown = (value: number | null): string => value === null ? t('slaSettings.none') : String(value)

function CalendarForm ({ onSaved }: { onSaved: () => void }) {
  const [name, setName] = useState('')
  const [zone, setZone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone)
  const [hours, setHours] = useState('mon 09:00-17:00\ntue 09:00-17:00\nwed 09:00-17:00\nthu 09:00-17:00\nfri 09:00-17:00')
  const [holidays, setHolidays] = useState('')
  const [always, setAlways] = useState(false)
  const save = useAction(async () => {
    await api.post('/sla/calendars', { name, time_zone: zone, hours: parseHours(hours), holidays: parseHolidays(holidays), twenty_four_seven: always })
    setName('')
    onSaved()
  })
  return (
    <EditorForm heading={t('slaSettings.calendarForm')} creating save={save}>
      <Field label={t('slaSettings.name')} name="name" value={name} onValue={setName} error={save.error} maxLength={100} required />
      <Field label={t('slaSettings.timeZone')} name="time_zone" value={zone} onValue={setZone} error={save.error} required />
      <Field label={t('slaSettings.hours')} name="hours" value={hours} onValue={setHours} error={save.error} multiline hint={t('slaSettings.hoursHint')} />
      <Field label={t('slaSettings.holidays')} name="holidays" value={holidays} onValue={setHolidays} error={save.error} multiline hint={t('slaSettings.holidaysHint')} />
      <Checkbox name="twenty_four_seven" label={t('slaSettings.twentyFourSeven')} checked={always} onChange={setAlways} />
    </EditorForm>
  )
}

function IcalImport ({ calendar, onSaved }: { calendar: Calendar, onSaved: (message: string) => void }) {
  const run = useAction(async (file: File) => {
    const year = new Date().getUTCFullYear()
    const updated = (await api.post<{ data: Calendar }>(`/sla/calendars/${calendar.id}/holidays/ical`, { ical: await file.text(), from_year: year, to_year: year + 1 })).data
    onSaved(t('slaSettings.icalImported', { count: updated.holidays.length }))
  })
  return (
    <label>
      {t('slaSettings.ical')} <span class="visually-hidden">{calendar.name}</span>
      <input type="file" accept=".ics,text/calendar" onChange={(e) => { const file = e.currentTarget.files?.[0]; if (file !== undefined) void run.run(file) }} />
      <ErrorBanner error={run.error} />
    </label>
  )
}

function PolicyForm ({ calendars, onSaved }: { calendars: Calendar[], onSaved: () => void }) {
  const categories = useAsync(async () => await loadCategories(), [])
  const [name, setName] = useState('')
  const [category, setCategory] = useState('')
  const [first, setFirst] = useState('60')
  const [next, setNext] = useState('120')
  const [resolution, setResolution] = useState('480')
  const [warning, setWarning] = useState('30')
  const [calendar, setCalendar] = useState(String(calendars[0]?.id ?? 1))
  const save = useAction(async () => {
    await api.post('/sla/policies', {
      name,
      conditions: category === '' ? {} : { category_ids: [Number(category)] },
      first_response_minutes: minutes(first),
      next_response_minutes: minutes(next),
      resolution_minutes: minutes(resolution),
      warning_minutes: minutes(warning),
      calendar_id: Number(calendar)
    })
    setName('')
    onSaved()
  })
  return (
    <EditorForm heading={t('slaSettings.policyForm')} creating save={save}>
      <Field label={t('slaSettings.name')} name="name" value={name} onValue={setName} error={save.error} maxLength={100} required />
      <Field label={t('slaSettings.categories')} name="conditions.category_ids" value={category} onValue={setCategory} error={save.error}
        options={[{ value: '', label: t('slaSettings.none') }, ...(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))]} />
      <Field label={t('slaSettings.firstResponse')} name="first_response_minutes" type="number" value={first} onValue={setFirst} error={save.error} />
      <Field label={t('slaSettings.nextResponse')} name="next_response_minutes" type="number" value={next} onValue={setNext} error={save.error} />
      <Field label={t('slaSettings.resolution')} name="resolution_minutes" type="number" value={resolution} onValue={setResolution} error={save.error} />
      <Field label={t('slaSettings.warning')} name="warning_minutes" type="number" value={warning} onValue={setWarning} error={save.error} />
      <Field label={t('slaSettings.calendar')} name="calendar_id" value={calendar} onValue={setCalendar} error={save.error}
        options={calendars.map((c) => ({ value: String(c.id), label: c.name }))} />
    </EditorForm>
  )
}

/** Administrators: business-hours calendars (with iCal holidays) and the ordered SLA policies. */
export default function SlaSettingsScreen () {
  const calendars = useAsync(async () => (await api.get<Page<Calendar>>('/sla/calendars', { per_page: 100 })).data, [])
  const policies = useAsync(async () => (await api.get<Page<Policy>>('/sla/policies', { per_page: 100 })).data, [])
  const [done, setDone] = useState('')
  const reload = (message = t('slaSettings.saved')) => { calendars.reload(); policies.reload(); setDone(message) }
  const ordered = (policies.data ?? []).filter((p) => !p.is_default)
  const move = useAction(async (index: number, by: number) => {
    const ids = ordered.map((p) => p.id)
    const [id] = ids.splice(index, 1)
    ids.splice(index + by, 0, id!)
    await api.post('/sla/policies/order', { order: ids })
    reload()
  })
  const remove = useAction(async (path: string) => {
    await api.delete(path)
    reload()
  })
  const calendarName = (id: number): string => calendars.data?.find((c) => c.id === id)?.name ?? String(id)
  return (
    <section>
      <PageHeader title={t('slaSettings.title')} />
      <p class="muted">{t('slaSettings.intro')}</p>
      <ListStatus error={calendars.error ?? policies.error ?? move.error ?? remove.error} done={done} loading={calendars.loading || policies.loading} />
      <h2>{t('slaSettings.policies')}</h2>
      <ol class="sla-policies" aria-label={t('slaSettings.policies')}>
        {(policies.data ?? []).map((policy) => {
          const index = ordered.findIndex((p) => p.id === policy.id)
          return (
            <li key={policy.id}>
              <strong>{policy.name}</strong>
              {policy.is_default ? <span class="badge">{t('slaSettings.default')}</span> : null}
              <span class="muted">
                {t('slaSettings.targets', { first: shown(policy.first_response_minutes), next: shown(policy.next_response_minutes), resolution: shown(policy.resolution_minutes) })}
                {' · '}{calendarName(policy.calendar_id)}
              </span>
              {!policy.is_default
                ? (
                  <>
                    {index > 0 ? <ItemButton label={t('slaSettings.up')} name={policy.name} onClick={() => { void move.run(index, -1) }} /> : null}
                    {index < ordered.length - 1 ? <ItemButton label={t('slaSettings.down')} name={policy.name} onClick={() => { void move.run(index, 1) }} /> : null}
                    <ItemButton label={t('slaSettings.delete')} name={policy.name} onClick={() => { void remove.run(`/sla/policies/${policy.id}`) }} />
                  </>
                  )
                : null}
            </li>
          )
        })}
      </ol>
      {calendars.data !== undefined ? <PolicyForm calendars={calendars.data} onSaved={() => { reload() }} /> : null}
      <h2>{t('slaSettings.calendars')}</h2>
      <ul class="sla-policies" aria-label={t('slaSettings.calendars')}>
        {(calendars.data ?? []).map((calendar) => (
          <li key={calendar.id}>
            <strong>{calendar.name}</strong>
            {calendar.built_in ? <span class="badge">{t('slaSettings.builtIn')}</span> : null}
            <span class="muted">{calendar.time_zone} · {calendar.twenty_four_seven ? '24/7' : hoursText(calendar.hours).replace(/\n/g, '; ')}</span>
            {!calendar.built_in
              ? (
                <>
                  <IcalImport calendar={calendar} onSaved={(message) => { reload(message) }} />
                  <ItemButton label={t('slaSettings.delete')} name={calendar.name} onClick={() => { void remove.run(`/sla/calendars/${calendar.id}`) }} />
                </>
                )
              : null}
          </li>
        ))}
      </ul>
      <CalendarForm onSaved={() => { reload() }} />
    </section>
  )
}
