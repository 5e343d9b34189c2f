import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { buildApp, eachDialect, manualClock } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk, postComment, postTicket } from './ticket-fixtures.js'

/** GET /reports/{metric} and /reports/tickets: JSON and CSV, time zones, who sees what. */
eachDialect((dialect) => {
  describe(`reports over HTTP on ${dialect}`, () => {
    it('answers each report as JSON and CSV, with the ticket rows behind it, to the staff allowed', async (t) => {
      const clock = manualClock(Date.parse('2026-03-02T09:00:00Z'))
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      // Billing: created 09:00 by Alice, Gus answers and closes at 09:30. Sales: created 09:00, unanswered.
      const billing = await postTicket(h, d.alice.token, { category: d.billing })
      const sales = await postTicket(h, d.bob.token, { category: d.sales })
      clock.advance(30 * 60_000)
      await postComment(h, d.agent.token, billing.id, { close: true })
      await h.helpdesk.reports.update()

      const get = async (url: string, token = d.admin.token, headers: Record<string, string> = {}) => await h.inject({ method: 'GET', url: `/api/v1${url}`, token, headers })
      const frt = expectStatus(await get('/reports/first-response-time?from=2026-03-01&to=2026-03-31&group_by=category'), 200).data
      assert.deepEqual(frt.columns, ['group', 'tickets', 'mean_s', 'median_s', 'p90_s'])
      assert.deepEqual(frt.rows, [{ group: d.billing, tickets: 1, mean_s: 1800, median_s: 1800, p90_s: 1800 }])
      assert.equal(frt.time_zone, 'UTC')
      const volume = expectStatus(await get('/reports/volume?from=2026-03-01&to=2026-03-31&time_zone=America/Los_Angeles'), 200).data
      // 09:00 UTC is 01:00 in Los Angeles (UTC-8 on March 2).
      assert.deepEqual(volume.rows, [{ period: '2026-03-02', created: 2, resolved: 1 }])

      const csv = await get('/reports/resolution-time?from=2026-03-01&to=2026-03-31&format=csv')
      assert.equal(csv.statusCode, 200)
      assert.match(String(csv.headers['content-type']), /^text\/csv/)
      assert.match(String(csv.headers['content-disposition']), /attachment; filename="resolution-time-2026-03-01-2026-03-31.csv"/)
      assert.equal(csv.body, 'tickets,mean_s,median_s,p90_s\r\n1,1800,1800,1800\r\n')
      const accepted = await get('/reports/backlog?from=2026-03-01&to=2026-03-31', d.admin.token, { accept: 'text/csv' })
      assert.equal(accepted.body, 'age,tickets\r\n0-1d,1\r\n')

      const rows = expectStatus(await get('/reports/tickets?from=2026-03-01&to=2026-03-31'), 200)
      assert.equal(rows.data.length, 2)
      assert.equal(rows.meta.next_after, null)
      const paged = expectStatus(await get('/reports/tickets?from=2026-03-01&to=2026-03-31&per_page=1'), 200)
      assert.deepEqual([paged.data.length, paged.meta.next_after], [1, paged.data[0].ticket_id])
      const ticketCsv = await get('/reports/tickets?from=2026-03-01&to=2026-03-31&format=csv')
      const lines = ticketCsv.body.trim().split('\r\n')
      assert.equal(lines[0], 'ticket_id,category_id,agent_id,channel,priority,status,created_at,first_response_at,resolved_at,first_response_s,resolution_s,replies,reopens,rating,' +
        'first_response_bs,resolution_bs,sla_first_response,sla_next_response,sla_resolution')
      assert.equal(lines.length, 3)
      // The default SLA policy (24/7, no targets): business time is calendar time, no verdicts.
      assert.equal(lines[1], `${billing.id as number},${d.billing},,api,normal,3,2026-03-02 09:00:00,2026-03-02 09:30:00,2026-03-02 09:30:00,1800,1800,1,0,,1800,1800,,,`)
      assert.deepEqual(rows.data.find((r: { ticket_id: number }) => r.ticket_id === billing.id).first_response_bs, 1800)

      // Business time and SLA attainment over HTTP (no targets on the default policy: no verdicts yet).
      const business = expectStatus(await get('/reports/resolution-time?from=2026-03-01&to=2026-03-31&time=business'), 200).data
      assert.deepEqual([business.time, business.estimated, business.rows], ['business', false, [{ tickets: 1, mean_s: 1800, median_s: 1800, p90_s: 1800 }]])
      const sla = expectStatus(await get('/reports/sla-attainment?from=2026-03-01&to=2026-03-31&group_by=agent'), 200).data
      assert.deepEqual([sla.columns, sla.rows], [['group', 'target', 'met', 'breached', 'rate'], []])
      assert.equal((await get('/reports/sla-attainment?from=2026-03-01&to=2026-03-31&format=csv')).body, 'target,met,breached,rate\r\n')
      expectValidation(await get('/reports/first-response-time?from=2026-03-01&to=2026-03-31&time=office'), 'time')

      // The agent sees Billing only; customers are refused; the setting keeps reports to administrators.
      const agentVolume = expectStatus(await get('/reports/volume?from=2026-03-01&to=2026-03-31', d.agent.token), 200).data
      assert.deepEqual(agentVolume.rows, [{ period: '2026-03-02', created: 1, resolved: 1 }])
      expectError(await get('/reports/volume?from=2026-03-01&to=2026-03-31', d.alice.token), 403)
      expectStatus(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'reports.admins_only': true } }), 200)
      expectError(await get('/reports/volume?from=2026-03-01&to=2026-03-31', d.agent.token), 403)
      expectError(await get('/reports/tickets?from=2026-03-01&to=2026-03-31&format=csv', d.agent.token), 403)
      assert.equal(expectStatus(await h.inject({ method: 'GET', url: '/api/v1/settings', token: d.admin.token }), 200).data['reports.admins_only'], true)

      // By priority: the Sales ticket made urgent moves to its own group; a filter narrows to it.
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${sales.id as number}`, token: d.admin.token, payload: { priority: 'urgent' } }), 200)
      await h.helpdesk.reports.update()
      const byPriority = expectStatus(await get('/reports/volume?from=2026-03-01&to=2026-03-31&group_by=priority'), 200).data
      assert.deepEqual([byPriority.group_by, byPriority.rows], ['priority', [
        { period: '2026-03-02', group: 'normal', created: 1, resolved: 1 }, { period: '2026-03-02', group: 'urgent', created: 1, resolved: 0 }
      ]])
      assert.equal((await get('/reports/backlog?from=2026-03-01&to=2026-03-31&group_by=priority&format=csv')).body, 'group,age,tickets\r\nurgent,0-1d,1\r\n')
      assert.deepEqual(expectStatus(await get('/reports/volume?from=2026-03-01&to=2026-03-31&priority=normal'), 200).data.rows, [{ period: '2026-03-02', created: 1, resolved: 1 }])
      const urgentRows = expectStatus(await get('/reports/tickets?from=2026-03-01&to=2026-03-31&priority=urgent'), 200).data
      assert.deepEqual(urgentRows.map((r: { ticket_id: number, priority: string }) => [r.ticket_id, r.priority]), [[sales.id, 'urgent']])
      assert.equal((await get('/reports/volume?from=2026-03-01&to=2026-03-31&priority=extreme')).statusCode, 422)
      assert.equal((await get('/reports/volume?from=2026-03-01&to=2026-03-31&group_by=mood')).statusCode, 422)
      // The OpenAPI document lists priority among the groupings and as a filter of both report endpoints.
      const doc = (await h.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, { get: { parameters: Array<{ name: string, schema: unknown }> } }> }
      const params = (path: string): Map<string, string> => new Map(doc.paths[path]?.get.parameters.map((p) => [p.name, JSON.stringify(p.schema)]) ?? [])
      assert.match(params('/api/v1/reports/{metric}').get('group_by') ?? '', /"priority"/)
      for (const path of ['/api/v1/reports/{metric}', '/api/v1/reports/tickets']) assert.match(params(path).get('priority') ?? '', /"urgent"/, path)

      // Bad queries are 422s, never 500s.
      expectValidation(await get('/reports/volume?from=2026-03-01&to=2026-03-31&time_zone=Mars/Olympus'), 'time_zone')
      expectValidation(await get('/reports/volume?from=2026-03-31&to=2026-03-01'), 'to')
      expectValidation(await get('/reports/volume?from=2020-01-01&to=2026-03-01'), 'to')
      assert.equal((await get('/reports/nonsense?from=2026-03-01&to=2026-03-31')).statusCode, 404)
      assert.equal((await get('/reports/volume?from=yesterday&to=2026-03-31')).statusCode, 422)
    })

    it('counts a ticket merged into another as gone, and back after an unmerge', async (t) => {
      const clock = manualClock(Date.parse('2026-03-02T09:00:00Z'))
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const target = await postTicket(h, d.alice.token, { category: d.billing })
      const source = await postTicket(h, d.alice.token, { category: d.billing, title: 'Same problem' })
      clock.advance(10 * 60_000)
      await postComment(h, d.agent.token, source.id)
      await h.helpdesk.reports.update()
      const get = async (url: string) => expectStatus(await h.inject({ method: 'GET', url: `/api/v1${url}`, token: d.admin.token }), 200).data
      const range = 'from=2026-03-01&to=2026-03-31'
      assert.deepEqual((await get(`/reports/volume?${range}`)).rows, [{ period: '2026-03-02', created: 2, resolved: 0 }])

      // Merged: the source (closed as merged) is neither created nor resolved; its reply now answers the target.
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source.id as number}/merge`, token: d.admin.token, payload: { target_id: target.id } }), 200)
      await h.helpdesk.reports.update()
      assert.deepEqual((await get(`/reports/volume?${range}`)).rows, [{ period: '2026-03-02', created: 1, resolved: 0 }])
      const rows = await h.inject({ method: 'GET', url: `/api/v1/reports/tickets?${range}`, token: d.admin.token })
      assert.deepEqual(expectStatus(rows, 200).data.map((r: { ticket_id: number }) => r.ticket_id), [target.id])
      assert.equal((await get(`/reports/first-response-time?${range}`)).rows[0].tickets, 1, 'the moved reply is the target\'s first response')

      // Unmerged within the grace period: both count again.
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source.id as number}/unmerge`, token: d.admin.token }), 200)
      await h.helpdesk.reports.update()
      assert.deepEqual((await get(`/reports/volume?${range}`)).rows, [{ period: '2026-03-02', created: 2, resolved: 0 }])
      // A rebuild agrees with the live updates.
      await h.helpdesk.reports.rebuild(d.admin.user)
      assert.deepEqual((await get(`/reports/volume?${range}`)).rows, [{ period: '2026-03-02', created: 2, resolved: 0 }])
    })
  })
})
