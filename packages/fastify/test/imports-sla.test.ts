import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { Clock } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'

/** A clock set by hand to UTC times `YYYY-MM-DD HH:MM`. */
function settableClock (start: string): Clock & { set: (utc: string) => void } {
  let time = Date.parse(`${start.replace(' ', 'T')}:00Z`)
  return { now: () => new Date(time), set: (utc) => { time = Date.parse(`${utc.replace(' ', 'T')}:00Z`) } }
}

function jsonl (name: string, records: Array<Record<string, unknown>>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'helpdesk-import-sla-')), name)
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return path
}

const OFFICE = {
  name: 'Berlin office',
  time_zone: 'Europe/Berlin',
  hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '17:00' }]]))
}

const people = [
  { type: 'category', id: 'billing', name: 'Billing' },
  { type: 'category', id: 'sales', name: 'Sales' },
  { type: 'agent', id: 'grace', first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', categories: ['billing', 'sales'] },
  { type: 'customer', id: 'ada', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }
]

/** Imported on Monday 2026-01-12 at 10:00 UTC (11:00 in Berlin). */
const tickets = [
  // Created on Saturday: the office's first hour is Monday 09:00-10:00 CET, so it fell due (08:00-09:00 UTC) before the import.
  { type: 'ticket', id: 'weekend', customer: 'ada', category: 'billing', title: 'Sent on Saturday', body: 'Hello?', status: 'open', created_at: '2026-01-10 10:00:00' },
  // Created at 10:30 CET: the first response is due at 11:30 CET, after the import.
  { type: 'ticket', id: 'fresh', customer: 'ada', category: 'billing', title: 'Sent this morning', body: 'Hello?', status: 'open', created_at: '2026-01-12 09:30:00' },
  // Around the clock (sales): answered in time, then the customer wrote back: a next-response wait runs.
  {
    type: 'ticket', id: 'replied', customer: 'ada', category: 'sales', title: 'A question', body: 'Price?', created_at: '2026-01-12 09:00:00',
    comments: [
      { id: 'r1', agent: 'grace', body: 'It is 10.', created_at: '2026-01-12 09:20:00' },
      { id: 'r2', agent: 'grace', kind: 'note', body: 'Regular.', created_at: '2026-01-12 09:21:00' },
      { id: 'r3', customer: 'ada', body: 'And with tax?', created_at: '2026-01-12 09:40:00' }
    ]
  },
  // Closed: answered late (60 minutes for a 30-minute target), resolved at its last activity.
  {
    type: 'ticket', id: 'closed', customer: 'ada', category: 'sales', title: 'Done', body: 'Broken.', status: 'closed', created_at: '2026-01-12 08:00:00', updated_at: '2026-01-12 09:30:00',
    comments: [{ id: 'c1', agent: 'grace', body: 'Fixed.', created_at: '2026-01-12 09:00:00' }, { id: 'c2', body: 'Thanks.', created_at: '2026-01-12 09:10:00' }]
  },
  // Pending since its last activity: every clock paused.
  { type: 'ticket', id: 'pending', customer: 'ada', category: 'billing', title: 'Waiting', body: 'Hm.', status: 'pending', created_at: '2026-01-12 09:45:00', updated_at: '2026-01-12 09:50:00' }
]

async function api (h: TestApp, token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) {
  return await h.inject({ method, url: `/api/v1${url}`, token, ...(payload !== undefined ? { payload } : {}) })
}

eachDialect((dialect) => {
  describe(`SLA of imported tickets (${dialect})`, () => {
    it('gives imported tickets their due times in the import, from the imported times; historic breaches are recorded, not announced; a re-run changes nothing', async (t) => {
      const clock = settableClock('2026-01-12 10:00')
      const h = await buildApp(t, dialect, { clock })
      const admin = await h.user('admin')
      assert.equal((await h.helpdesk.imports.importFile(jsonl('people.jsonl', people))).status, 'completed')
      const category = await h.store.imports.localIds('category', ['billing', 'sales'])
      const agent = (await h.store.imports.localIds('agent', ['grace'])).get('grace')!
      const office = expectStatus(await api(h, admin.token, 'POST', '/sla/calendars', OFFICE), 201).data.id as number
      expectStatus(await api(h, admin.token, 'POST', '/sla/policies', {
        name: 'Standard', conditions: { category_ids: [category.get('billing')] }, first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 480, calendar_id: office
      }), 201)
      expectStatus(await api(h, admin.token, 'POST', '/sla/policies', {
        name: 'Urgent', conditions: { category_ids: [category.get('sales')] }, first_response_minutes: 30, next_response_minutes: 60, resolution_minutes: 240, calendar_id: 1
      }), 201)

      const file = jsonl('tickets.jsonl', tickets)
      const job = await h.helpdesk.imports.importFile(file, { batchSize: 2 })
      assert.equal(job.status, 'completed', job.message ?? '')
      const ids = await h.store.imports.localIds('ticket', tickets.map((x) => x.id))
      const id = (name: string) => ids.get(name)!
      const due = async (name: string) => {
        const x = expectStatus(await api(h, admin.token, 'GET', `/tickets/${id(name)}`), 200).data
        return { first: x.first_response_due_at, next: x.next_response_due_at, resolution: x.resolution_due_at, scan: x.sla_next_due_at }
      }
      const sla = async (name: string) => expectStatus(await api(h, admin.token, 'GET', `/tickets/${id(name)}/sla`), 200).data

      // Business hours: Saturday's ticket counts from Monday 09:00 CET; its first response was due at 10:00 CET, before the import.
      assert.deepEqual(await due('weekend'), { first: '2026-01-12 09:00:00', next: null, resolution: '2026-01-13 09:00:00', scan: '2026-01-13 09:00:00' })
      const weekend = await sla('weekend')
      assert.deepEqual([weekend.targets.first_response.state, weekend.targets.first_response.breached, weekend.targets.first_response.overdue_minutes], ['running', true, 60])
      assert.equal(weekend.evaluated_at, '2026-01-12 10:00:00')
      assert.deepEqual(await due('fresh'), { first: '2026-01-12 10:30:00', next: null, resolution: '2026-01-13 10:30:00', scan: '2026-01-12 10:30:00' })
      // A staff reply meets the first response; the customer's answer after it starts a next-response wait.
      assert.deepEqual(await due('replied'), { first: null, next: '2026-01-12 10:40:00', resolution: '2026-01-12 13:00:00', scan: '2026-01-12 10:40:00' })
      const replied = await sla('replied')
      assert.deepEqual([replied.targets.first_response.state, replied.targets.first_response.met_at, replied.targets.first_response.breached], ['met', '2026-01-12 09:20:00', false])
      // Closed: no clock runs, the verdicts are kept for reports.
      assert.deepEqual(await due('closed'), { first: null, next: null, resolution: null, scan: null })
      const closed = await sla('closed')
      assert.deepEqual([closed.targets.first_response.state, closed.targets.first_response.breached, closed.targets.first_response.overdue_minutes], ['met', true, 30])
      assert.deepEqual([closed.targets.resolution.state, closed.targets.resolution.met_at, closed.targets.resolution.breached], ['met', '2026-01-12 09:30:00', false])
      assert.equal(closed.targets.next_response.state, 'stopped')
      assert.deepEqual(await due('pending'), { first: null, next: null, resolution: null, scan: null })
      assert.equal((await sla('pending')).targets.first_response.state, 'paused')

      // The "breaching soon" view and the scan see them at once.
      const soon = expectStatus(await api(h, admin.token, 'GET', '/tickets?filter[sla_next_due_at][lt]=2026-01-12 11:00:00&sort=sla_next_due_at'), 200)
      assert.deepEqual(soon.data.map((x: any) => x.id), [id('fresh'), id('replied')])
      assert.deepEqual((await h.store.sla.dueBefore('2026-01-12 10:45:00', 10)).map((x) => x.ticket_id), [id('fresh'), id('replied')])

      // Escalation: the historic breach is never announced; the live ones are, once.
      assert.equal(await h.helpdesk.sla.escalate(), 1, 'the warning of "fresh" (due in 30 minutes), nothing for "weekend"')
      clock.set('2026-01-12 10:41')
      assert.equal(await h.helpdesk.sla.escalate(), 2)
      assert.equal(await h.helpdesk.sla.escalate(), 0)
      const logged = (await h.store.eventLog.after(0, 500)).filter((e) => e.type.startsWith('Tickets.Sla'))
      assert.deepEqual(logged.map((e) => [e.type, e.payload.ticket && (e.payload.ticket as any).id, (e.payload.sla as any).target]), [
        ['Tickets.SlaWarning', id('fresh'), 'first_response'],
        ['Tickets.SlaBreached', id('fresh'), 'first_response'],
        ['Tickets.SlaBreached', id('replied'), 'next_response']
      ])
      // Notified like any live breach: the assignee, else the category's agents (grace).
      assert.ok((await h.store.knex('notifications').where('user_id', agent).count({ n: '*' }).first() as { n: number | string }).n.toString() === '3')

      // A re-run creates nothing and leaves every state as it was.
      const before = await h.store.knex('ticket_sla').select('*').orderBy('ticket_id')
      const rerun = await h.helpdesk.imports.importFile(file)
      assert.equal(rerun.created, 0)
      assert.deepEqual(await h.store.knex('ticket_sla').select('*').orderBy('ticket_id'), before)
      assert.equal(before.length, tickets.length)
      assert.equal(await h.helpdesk.sla.escalate(), 0)

      // A ticket imported before imports kept SLA state has none: a re-run of its file gives it one, from its stored conversation.
      await h.store.knex('ticket_sla').where('ticket_id', id('replied')).delete()
      await h.store.knex('tickets').where('id', id('replied')).update({ first_response_due_at: null, next_response_due_at: null, resolution_due_at: null, sla_next_due_at: null })
      assert.equal((await h.helpdesk.imports.importFile(file)).created, 0)
      const rebuilt = await sla('replied')
      assert.deepEqual([rebuilt.targets.first_response.state, rebuilt.targets.first_response.met_at, rebuilt.targets.next_response.state], ['met', '2026-01-12 09:20:00', 'running'])
      // Its wait fell due at 10:40, before this import (10:41): history, out of the scan.
      assert.deepEqual(await due('replied'), { first: null, next: '2026-01-12 10:40:00', resolution: '2026-01-12 13:00:00', scan: '2026-01-12 13:00:00' })
      assert.deepEqual((await h.store.knex('ticket_sla').select('*').orderBy('ticket_id')).filter((row: any) => row.ticket_id !== id('replied')),
        before.filter((row: any) => row.ticket_id !== id('replied')), 'the others are left as they were')
      assert.equal(await h.helpdesk.sla.escalate(), 0)

      // A later import's reply on an earlier ticket is added to its timeline at its time: met, 30 minutes late.
      const reply = await h.helpdesk.imports.importFile(jsonl('reply.jsonl', [{ type: 'comment', id: 'w1', ticket: 'weekend', agent: 'grace', body: 'Sorry.', created_at: '2026-01-12 09:30:00' }]))
      assert.equal(reply.created, 1)
      const answered = await sla('weekend')
      assert.deepEqual([answered.targets.first_response.state, answered.targets.first_response.breached, answered.targets.first_response.overdue_minutes], ['met', true, 30])
      assert.equal((await due('weekend')).first, null)
      assert.equal(await h.helpdesk.sla.escalate(), 0)
    })

    it('does not flood: thousands of tickets past due at import raise no warning, breach or notification', async (t) => {
      const clock = settableClock('2026-01-12 10:00')
      const h = await buildApp(t, dialect, { clock })
      const admin = await h.user('admin')
      expectStatus(await api(h, admin.token, 'PATCH', '/sla/policies/1', { first_response_minutes: 60, resolution_minutes: 600 }), 200)
      const many = Array.from({ length: 1200 }, (_, i) => ({
        type: 'ticket', id: `old-${i}`, customer: 'ada', category: 'billing', title: `Old ${i}`, body: 'Old.', agent: 'grace', created_at: '2025-06-01 08:00:00'
      }))
      const job = await h.helpdesk.imports.importFile(jsonl('old.jsonl', [...people, ...many]))
      assert.equal(job.status, 'completed', job.message ?? '')
      const rows = await h.store.knex('tickets').whereNotNull('first_response_due_at').count({ n: '*' }).first() as { n: number | string }
      assert.equal(Number(rows.n), 1200, 'the due times are there for the due-time filters')
      assert.equal((await h.store.sla.dueBefore('2026-01-12 11:00:00', 10)).length, 0, 'no historic breach waits in the scan')
      assert.equal(await h.helpdesk.sla.escalate(), 0)
      assert.equal((await h.store.knex('notifications').count({ n: '*' }).first() as { n: number | string }).n.toString(), '0')
      const state = (await h.store.sla.ticketStates([(await h.store.imports.localIds('ticket', ['old-0'])).get('old-0')!])).values().next().value!
      assert.deepEqual(state.announced.first_response, { due_at: '2025-06-01 09:00:00', warning: true, breach: true, imported: true })

      // A later change of the policy re-judges them (in the background): due times it moves, still before the import, stay history.
      clock.set('2026-01-12 10:05')
      expectStatus(await api(h, admin.token, 'PATCH', '/sla/policies/1', { resolution_minutes: 300 }), 200)
      let next: number | null = 0
      while (next !== null) next = await h.helpdesk.sla.recalculateBatch(next)
      const moved = (await h.store.sla.ticketStates([(await h.store.imports.localIds('ticket', ['old-0'])).get('old-0')!])).values().next().value!
      assert.equal(moved.targets.resolution?.due_at, '2025-06-01 13:00:00')
      assert.deepEqual(moved.announced.resolution, { due_at: '2025-06-01 13:00:00', warning: true, breach: true, imported: true })
      assert.equal(await h.helpdesk.sla.escalate(), 0)
      assert.equal((await h.store.knex('notifications').count({ n: '*' }).first() as { n: number | string }).n.toString(), '0')
    })
  })
})
