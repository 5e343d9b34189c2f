import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHelpdesk, gravatar, SLA_DUE_FIELDS, verifyWebhookSignature, SYSTEM, type Helpdesk } from '@helpdesk/core'
import { createKnexStore } from '@helpdesk/store-knex'
import { registerWebhookDelivery } from '../src/index.js'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk, postComment, postTicket } from './ticket-fixtures.js'

interface Received { path: string, headers: IncomingHttpHeaders, body: string }

/** A real HTTP receiver on loopback; `answer` decides each response (default 200). */
async function receiver (t: TestContext, answer: (request: Received, n: number, res: ServerResponse) => undefined | 'hang' = () => undefined): Promise<{ url: string, port: number, received: Received[] }> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      received.push(request)
      const outcome = answer(request, received.length, res)
      if (outcome === 'hang') return
      if (!res.headersSent) res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const port = (server.address() as AddressInfo).port
  return { url: `http://127.0.0.1:${port}/hook`, port, received }
}

/** An app whose test drives the jobs itself (`runDue`), retrying without delay. */
async function app (t: TestContext, dialect: 'sqlite' | 'postgres', webhooks: Record<string, unknown> = {}): Promise<TestApp> {
  return await buildApp(t, dialect, { workers: false, webhooks: { allowPrivateTargets: true, backoff: () => 0, ...webhooks } })
}

async function createEndpoint (h: TestApp, token: string, payload: Record<string, unknown>): Promise<{ id: number, secret: string }> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/webhooks', token, payload }), 201).data
}

async function deliveries (h: TestApp, token: string, id: number): Promise<any[]> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries`, token }), 200).data
}

/** A second instance on the app's database: its own store, services and delivery handler (as another `helpdesk serve`). */
async function secondInstance (t: TestContext, h: TestApp, webhooks: Record<string, unknown>): Promise<Helpdesk> {
  const store = createKnexStore({ url: h.databaseUrl })
  const helpdesk = createHelpdesk({ store })
  const close = registerWebhookDelivery(helpdesk, gravatar, { allowPrivateTargets: true, ...webhooks })
  t.after(async () => { await close(); await store.close() })
  return helpdesk
}

/** `n` logged `Tickets.TicketUpdated` events (each with its deliveries and jobs), as changes would raise them. */
async function ticketEvents (h: TestApp, n: number): Promise<void> {
  const at = '2026-01-31 14:05:00'
  await h.helpdesk.events.transaction(h.store, async (tx) => {
    for (let i = 1; i <= n; i++) {
      await h.helpdesk.events.emit(tx, {
        type: 'Tickets.TicketUpdated',
        actor_id: null,
        ticket: { id: i, user_id: 1, creator_id: 1, title: `Ticket ${i}`, body: '<p>x</p>', status: 1, private: true, additional: { fields: {} }, category_id: 1, assigned_agent_id: null, agent_assigned_at: null, created_at: at, updated_at: at },
        category: { id: 1, name: 'Billing' },
        changes: ['title']
      })
    }
  })
}

eachDialect((dialect) => {
  describe(`webhooks on ${dialect}`, () => {
    it('delivers subscribed events signed, with the API\'s resource shapes, and lists the deliveries', async (t) => {
      const h = await app(t, dialect)
      const d = await desk(h)
      const hook = await receiver(t)
      const created = await createEndpoint(h, d.admin.token, { url: hook.url, events: ['Tickets.TicketCreated', 'Tickets.CommentAdded'], description: 'CRM' })
      assert.match(created.secret, /^whsec_/)
      const shown = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/webhooks/${created.id}`, token: d.admin.token }), 200).data
      assert.equal(shown.secret, undefined, 'the secret is shown once')
      assert.deepEqual([shown.url, shown.events, shown.description, shown.active], [hook.url, ['Tickets.TicketCreated', 'Tickets.CommentAdded'], 'CRM', true])

      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      await postComment(h, d.admin.token, ticket.id, { body: '<p>On it.</p>' })
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.admin.token, payload: { title: 'Renamed' } }), 200)
      await h.helpdesk.jobs.runDue()

      assert.deepEqual(hook.received.map((r) => r.headers['helpdesk-event-type']), ['Tickets.TicketCreated', 'Tickets.CommentAdded'])
      const [first, second] = hook.received
      const body = JSON.parse(first!.body)
      assert.deepEqual(Object.keys(body).sort(), ['created_at', 'data', 'id', 'type'])
      assert.equal(String(body.id), first!.headers['helpdesk-event-id'])
      assert.equal(first!.headers['helpdesk-delivery-attempt'], '1')
      assert.equal(first!.headers['content-type'], 'application/json')
      // Webhooks see tickets as an administrator does: with the SLA due times a customer's view leaves out, and its tags (the `tags` include), which created/updated events carry.
      assert.deepEqual(Object.keys(body.data.ticket).sort(), [...Object.keys(ticket), ...SLA_DUE_FIELDS, 'tags'].sort(), 'the ticket as POST /tickets shows it to staff')
      assert.deepEqual(body.data.ticket.tags, [])
      assert.equal(body.data.ticket.id, ticket.id)
      assert.equal(body.data.category.name, 'Billing')
      const comment = JSON.parse(second!.body).data.comment
      assert.equal(comment.body, '<p>On it.</p>', 'the whole comment, as the API shows it')
      for (const r of hook.received) {
        assert.ok(verifyWebhookSignature({ payload: r.body, header: r.headers['helpdesk-signature'] as string, secret: created.secret }))
        assert.equal(verifyWebhookSignature({ payload: r.body + ' ', header: r.headers['helpdesk-signature'] as string, secret: created.secret }), false)
        assert.equal(verifyWebhookSignature({ payload: r.body, header: r.headers['helpdesk-signature'] as string, secret: 'whsec_other' }), false)
      }
      const list = await deliveries(h, d.admin.token, created.id)
      assert.equal(list.length, 2)
      assert.deepEqual(list.map((x) => [x.event_type, x.status, x.response_status, x.attempts, x.next_attempt_at]), [
        ['Tickets.CommentAdded', 'succeeded', 200, 1, null], ['Tickets.TicketCreated', 'succeeded', 200, 1, null]
      ])
      assert.ok(list.every((x) => typeof x.duration_ms === 'number' && x.error === null))
    })

    it('retries 500 and 429 with the same event id and bytes, and follows no redirect', async (t) => {
      const h = await app(t, dialect)
      const d = await desk(h)
      const flaky = await receiver(t, (_r, n, res) => {
        if (n === 1) res.writeHead(500).end()
        else if (n === 2) res.writeHead(429, { 'retry-after': '0' }).end()
      })
      const moved = await receiver(t, (_r, _n, res) => { res.writeHead(302, { location: '/elsewhere' }).end() })
      const a = await createEndpoint(h, d.admin.token, { url: flaky.url, events: ['*'] })
      const b = await createEndpoint(h, d.admin.token, { url: moved.url, events: ['Tickets.TicketCreated'] })
      await postTicket(h, d.alice.token, { category: d.billing })
      await h.helpdesk.jobs.runDue()

      const created = flaky.received.filter((r) => r.headers['helpdesk-event-type'] === 'Tickets.TicketCreated')
      assert.equal(created.length, 3)
      assert.deepEqual(created.map((r) => r.headers['helpdesk-delivery-attempt']), ['1', '2', '3'])
      assert.equal(new Set(created.map((r) => r.headers['helpdesk-event-id'])).size, 1, 'the event id is stable across retries')
      assert.equal(new Set(created.map((r) => r.body)).size, 1, 'the same bytes every time')
      const [delivery] = (await deliveries(h, d.admin.token, a.id)).filter((x) => x.event_type === 'Tickets.TicketCreated')
      assert.deepEqual([delivery.status, delivery.attempts, delivery.response_status], ['succeeded', 3, 200])

      assert.deepEqual(moved.received.map((r) => r.path), ['/hook'], 'the redirect is not followed')
      const [redirected] = await deliveries(h, d.admin.token, b.id)
      assert.deepEqual([redirected.status, redirected.attempts, redirected.response_status], ['failed', 1, 302])
      assert.match(redirected.error, /not followed/)
    })

    it('retries a receiver that does not answer within the timeout', async (t) => {
      const h = await app(t, dialect, { timeoutMs: 200 })
      const d = await desk(h)
      const slow = await receiver(t, (_r, n) => n === 1 ? 'hang' : undefined)
      const endpoint = await createEndpoint(h, d.admin.token, { url: slow.url, events: ['Tickets.TicketCreated'] })
      await postTicket(h, d.alice.token, { category: d.billing })
      await h.helpdesk.jobs.runDue()
      const [delivery] = await deliveries(h, d.admin.token, endpoint.id)
      assert.deepEqual([delivery.status, delivery.attempts, slow.received.length], ['succeeded', 2, 2])
    })

    it('switches an endpoint off after sustained failure and tells the administrators', async (t) => {
      const h = await app(t, dialect, { disable: { consecutiveFailures: 3 } })
      const d = await desk(h)
      const other = await h.user('admin')
      const down = await receiver(t, (_r, _n, res) => { res.writeHead(503).end() })
      const endpoint = await createEndpoint(h, d.admin.token, { url: down.url, events: ['Tickets.TicketCreated'] })
      await postTicket(h, d.alice.token, { category: d.billing })
      await h.helpdesk.jobs.runDue()
      assert.equal(down.received.length, 3)
      const shown = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/webhooks/${endpoint.id}`, token: d.admin.token }), 200).data
      assert.equal(shown.active, false)
      assert.ok(shown.disabled_at !== null)
      const [delivery] = await deliveries(h, d.admin.token, endpoint.id)
      assert.deepEqual([delivery.status, delivery.next_attempt_at, delivery.attempts], ['cancelled', null, 3], 'its retry dropped with the endpoint')
      assert.match(delivery.error, /^HTTP 503; not retried: the endpoint is switched off\.$/)
      assert.deepEqual([shown.consecutive_failures, typeof shown.failing_since], [3, 'string'], 'the failure record is shown')
      for (const admin of [d.admin, other]) {
        const notes = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/notifications', token: admin.token }), 200).data
        const note = notes.find((n: any) => n.type === 'Webhooks.EndpointDisabled')
        assert.deepEqual(note?.data.webhook, { id: endpoint.id, url: down.url })
      }
      // Nothing more is sent to it; switched back on, it receives again.
      await postTicket(h, d.alice.token, { category: d.billing })
      await h.helpdesk.jobs.runDue()
      assert.equal(down.received.length, 3)
      const on = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/webhooks/${endpoint.id}`, token: d.admin.token, payload: { active: true } }), 200).data
      assert.deepEqual([on.active, on.disabled_at, on.consecutive_failures, on.failing_since], [true, null, 0, null])
    })

    it('two instances failing at once switch an endpoint off at exactly 100 failures in a row, and drop its pending deliveries', async (t) => {
      // Every delivery fails with a retryable 503; its retry would come an hour later.
      const webhooks = { backoff: () => 3_600_000 }
      const h = await app(t, dialect, webhooks)
      const other = await secondInstance(t, h, webhooks)
      const d = await desk(h)
      const down = await receiver(t, (_r, _n, res) => { res.writeHead(503).end() })
      const endpoint = await createEndpoint(h, d.admin.token, { url: down.url, events: ['Tickets.TicketUpdated'] })
      await ticketEvents(h, 130)
      // Both job runners at once, 50 deliveries each in flight.
      await Promise.all([h.helpdesk.jobs.runDue(), other.jobs.runDue()])

      const shown = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/webhooks/${endpoint.id}`, token: d.admin.token }), 200).data
      assert.equal(shown.active, false, `switched off (${shown.consecutive_failures} failures counted, ${down.received.length} received)`)
      assert.equal(shown.consecutive_failures, 100, 'no failure lost between the instances, none counted once switched off')
      const disabled = (await h.store.eventLog.after(0, 1000)).filter((e) => e.type === 'Webhooks.EndpointDisabled')
      assert.equal(disabled.length, 1, 'switched off once')
      assert.equal((disabled[0]!.payload.webhook as { consecutive_failures: number }).consecutive_failures, 100)
      const rows = await h.store.knex('webhook_deliveries').where('endpoint_id', endpoint.id).select('status', 'attempts') as Array<{ status: string, attempts: number }>
      assert.equal(rows.reduce((sum, row) => sum + Number(row.attempts), 0), down.received.length, 'every attempt recorded on its delivery')
      assert.deepEqual([...new Set(rows.map((row) => row.status))], ['cancelled'], 'every retry and unsent delivery dropped')
      assert.ok(down.received.length >= 100)

      // Switched back on before the retries come due: none of the dropped deliveries is sent.
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/webhooks/${endpoint.id}`, token: d.admin.token, payload: { active: true } }), 200)
      const sent = down.received.length
      await h.store.knex('jobs').update({ run_at: '2000-01-01 00:00:00' })
      await Promise.all([h.helpdesk.jobs.runDue(), other.jobs.runDue()])
      assert.equal(down.received.length, sent)
      // They stay redeliverable by event id.
      const [cancelled] = await deliveries(h, d.admin.token, endpoint.id)
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/redeliver`, token: d.admin.token, payload: { event_id: cancelled.event_id } }), 202)
      await h.helpdesk.jobs.runDue()
      assert.equal(down.received.length, sent + 1)
      assert.equal(down.received.at(-1)!.headers['helpdesk-event-id'], String(cancelled.event_id))
    })

    it('pages the deliveries like every list: links, meta, filters', async (t) => {
      const h = await app(t, dialect)
      const d = await desk(h)
      const hook = await receiver(t, (r, _n, res) => { if (JSON.parse(r.body).data.ticket.id % 3 === 0) res.writeHead(400).end() })
      const endpoint = await createEndpoint(h, d.admin.token, { url: hook.url, events: ['Tickets.TicketUpdated'] })
      await ticketEvents(h, 120)
      await h.helpdesk.jobs.runDue()
      const url = `/api/v1/webhooks/${endpoint.id}/deliveries`
      const first = expectStatus(await h.inject({ method: 'GET', url, token: d.admin.token }), 200)
      assert.deepEqual([first.data.length, first.meta.total, first.meta.per_page, first.meta.last_page], [15, 120, 15, 8])
      const ids = first.data.map((x: { id: number }) => x.id)
      assert.deepEqual(ids, [...ids].sort((a: number, b: number) => b - a), 'newest first')
      const all: number[] = []
      for (let page = 1; page <= 2; page++) {
        const body = expectStatus(await h.inject({ method: 'GET', url: `${url}?per_page=100&page=${page}`, token: d.admin.token }), 200)
        all.push(...body.data.map((x: { id: number }) => x.id))
        assert.equal(body.links.next === null, page === 2)
      }
      assert.equal(new Set(all).size, 120, 'past the first hundred')
      const failed = expectStatus(await h.inject({ method: 'GET', url: `${url}?filter[status]=failed&per_page=100`, token: d.admin.token }), 200)
      assert.equal(failed.meta.total, 40)
      assert.ok(failed.data.every((x: { status: string, response_status: number }) => x.status === 'failed' && x.response_status === 400))
      const one = expectStatus(await h.inject({ method: 'GET', url: `${url}?filter[event_id]=${failed.data[0].event_id}`, token: d.admin.token }), 200)
      assert.deepEqual(one.data.map((x: { id: number }) => x.id), [failed.data[0].id])
      let cursor = ''
      const walked: number[] = []
      for (;;) {
        const body = expectStatus(await h.inject({ method: 'GET', url: `${url}?per_page=50&cursor=${cursor}`, token: d.admin.token }), 200)
        walked.push(...body.data.map((x: { id: number }) => x.id))
        if (body.meta.next_cursor === null) break
        cursor = body.meta.next_cursor
      }
      assert.deepEqual(walked, [...all])
      expectValidation(await h.inject({ method: 'GET', url: `${url}?filter[status]=lost`, token: d.admin.token }), 'filter.status')
      expectError(await h.inject({ method: 'GET', url: `${url}?filter[nope]=1`, token: d.admin.token }), 400)
      expectError(await h.inject({ method: 'GET', url: `${url}?per_page=101`, token: d.admin.token }), 422)
    })

    it('names what is wrong with a url: its scheme, its credentials (never repeated)', async (t) => {
      const h = await buildApp(t, dialect, { workers: false })
      const d = await desk(h)
      const create = async (url: string) => expectValidation(await h.inject({ method: 'POST', url: '/api/v1/webhooks', token: d.admin.token, payload: { url, events: ['*'] } }), 'url').url![0]!
      assert.match(await create('ftp://files.example.com/hooks'), /scheme "ftp" is not allowed: use http or https/)
      assert.match(await create('gopher://example.com/'), /scheme "gopher"/)
      const credentials = await create('http://user:hunter2@example.com/hook')
      assert.match(credentials, /must not contain credentials/)
      assert.doesNotMatch(credentials, /hunter2|user:/)
      assert.match(await create('https://token@example.com/'), /must not contain credentials/)
      assert.match(await create('example.com/hook'), /absolute http or https URL/)
      const endpoint = await createEndpoint(h, d.admin.token, { url: 'https://93.184.215.14/hook', events: ['*'] })
      const patched = expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/webhooks/${endpoint.id}`, token: d.admin.token, payload: { url: 'ftp://x.example' } }), 'url')
      assert.match(patched.url![0]!, /scheme "ftp"/)
    })

    it('refuses IPv6 addresses that embed a non-public IPv4 address, at creation and at delivery', async (t) => {
      const h = await buildApp(t, dialect, { workers: false, webhooks: { backoff: () => 0 } })
      const d = await desk(h)
      const hook = await receiver(t)
      for (const host of ['[::127.0.0.1]', '[::a9fe:a9fe]', '[::ffff:169.254.169.254]', '[::ffff:0:10.0.0.1]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b:1::8.8.8.8]', '[2002:a9fe:a9fe::1]', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]', '[2001:0:a9fe:a9fe::1]']) {
        const errors = expectValidation(await h.inject({ method: 'POST', url: '/api/v1/webhooks', token: d.admin.token, payload: { url: `http://${host}/x`, events: ['*'] } }), 'url')
        assert.match(errors.url![0]!, /public address/, host)
      }
      // IPv4-mapped and NAT64 forms of a public address are fine.
      for (const host of ['[::ffff:93.184.215.14]', '[64:ff9b::93.184.215.14]', '[2606:4700:4700::1111]']) {
        await createEndpoint(h, d.admin.token, { url: `http://${host}/x`, events: ['Tickets.TicketCreated'] })
      }
      // Created behind the check's back: the delivery refuses the literal, and never connects.
      const { endpoint } = await h.helpdesk.webhooks.create(SYSTEM, { url: `http://[::127.0.0.1]:${hook.port}/hook`, events: ['Tickets.CommentAdded'] })
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      await postComment(h, d.admin.token, ticket.id)
      await h.helpdesk.jobs.runDue()
      assert.equal(hook.received.length, 0)
      const [delivery] = await deliveries(h, d.admin.token, endpoint.id)
      assert.deepEqual([delivery.status, delivery.attempts], ['failed', 1])
      assert.match(delivery.error, /::7f00:1 is not a public address/)
    })

    it('refuses private targets unless allowed: at creation and at delivery after DNS resolution', async (t) => {
      const h = await buildApp(t, dialect, { workers: false, webhooks: { backoff: () => 0 } })
      const d = await desk(h)
      const hook = await receiver(t)
      for (const url of [hook.url, `http://localhost:${hook.port}/`, 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/latest', 'http://[fd00::1]/', 'http://224.0.0.1/']) {
        const errors = expectValidation(await h.inject({ method: 'POST', url: '/api/v1/webhooks', token: d.admin.token, payload: { url, events: ['*'] } }), 'url')
        assert.match(errors.url![0]!, /public address/, url)
      }
      // Created behind the check's back (or DNS changed since): the delivery refuses to connect.
      const { endpoint } = await h.helpdesk.webhooks.create(SYSTEM, { url: `http://localhost:${hook.port}/hook`, events: ['*'] })
      const literal = await h.helpdesk.webhooks.create(SYSTEM, { url: hook.url, events: ['*'] })
      await postTicket(h, d.alice.token, { category: d.billing })
      await h.helpdesk.jobs.runDue()
      assert.equal(hook.received.length, 0)
      for (const id of [endpoint.id, literal.endpoint.id]) {
        const [delivery] = (await deliveries(h, d.admin.token, id)).filter((x) => x.event_type === 'Tickets.TicketCreated')
        assert.deepEqual([delivery.status, delivery.attempts], ['failed', 1])
        assert.match(delivery.error, /not a public address/)
      }
    })

    it('signs with both secrets during a rotation overlap, then with the new one only', async (t) => {
      const h = await app(t, dialect)
      const d = await desk(h)
      const hook = await receiver(t)
      const endpoint = await createEndpoint(h, d.admin.token, { url: hook.url, events: ['Tickets.TicketCreated'] })
      const rotated = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/secret`, token: d.admin.token, payload: { overlap_seconds: 3600 } }), 200).data
      assert.notEqual(rotated.secret, endpoint.secret)
      await postTicket(h, d.alice.token, { category: d.billing })
      await h.helpdesk.jobs.runDue()
      const header = hook.received[0]!.headers['helpdesk-signature'] as string
      assert.equal(header.split(',').filter((p) => p.startsWith('v1=')).length, 2)
      for (const secret of [endpoint.secret, rotated.secret]) assert.ok(verifyWebhookSignature({ payload: hook.received[0]!.body, header, secret }))

      const again = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/secret`, token: d.admin.token, payload: { overlap_seconds: 0 } }), 200).data
      await postTicket(h, d.alice.token, { category: d.billing })
      await h.helpdesk.jobs.runDue()
      const last = hook.received[1]!
      const header2 = last.headers['helpdesk-signature'] as string
      assert.equal(header2.split(',').filter((p) => p.startsWith('v1=')).length, 1)
      assert.ok(verifyWebhookSignature({ payload: last.body, header: header2, secret: again.secret }))
      assert.equal(verifyWebhookSignature({ payload: last.body, header: header2, secret: rotated.secret }), false)
    })

    it('redelivers a delivery (same id and bytes) and any past event by id', async (t) => {
      const h = await app(t, dialect)
      const d = await desk(h)
      const hook = await receiver(t)
      const endpoint = await createEndpoint(h, d.admin.token, { url: hook.url, events: ['Tickets.TicketCreated'] })
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      await postComment(h, d.admin.token, ticket.id)
      await h.helpdesk.jobs.runDue()
      const [first] = await deliveries(h, d.admin.token, endpoint.id)
      const again = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/deliveries/${first.id}/redeliver`, token: d.admin.token }), 202).data
      assert.notEqual(again.id, first.id)
      assert.equal(again.status, 'pending')
      await h.helpdesk.jobs.runDue()
      assert.equal(hook.received.length, 2)
      assert.equal(hook.received[1]!.body, hook.received[0]!.body)
      assert.equal(hook.received[1]!.headers['helpdesk-event-id'], hook.received[0]!.headers['helpdesk-event-id'])

      // A CommentAdded the endpoint is not subscribed to, sent by its event id.
      const [logged] = (await h.store.eventLog.after(0, 100)).filter((e) => e.type === 'Tickets.CommentAdded')
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/redeliver`, token: d.admin.token, payload: { event_id: logged!.id } }), 202)
      await h.helpdesk.jobs.runDue()
      assert.equal(hook.received[2]!.headers['helpdesk-event-type'], 'Tickets.CommentAdded')
      assert.equal(hook.received[2]!.headers['helpdesk-event-id'], String(logged!.id))
      expectValidation(await h.inject({ method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/redeliver`, token: d.admin.token, payload: { event_id: 999999 } }), 'event_id')
      expectError(await h.inject({ method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/deliveries/999999/redeliver`, token: d.admin.token }), 404)
    })

    it('lists endpoints paged like every list, with filters and sorts', async (t) => {
      const h = await app(t, dialect)
      const d = await desk(h)
      const hook = await receiver(t)
      const a = await createEndpoint(h, d.admin.token, { url: `${hook.url}/a`, events: ['*'], description: 'Billing CRM' })
      const b = await createEndpoint(h, d.admin.token, { url: `${hook.url}/b`, events: ['*'], active: false })
      const all = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/webhooks', token: d.admin.token }), 200)
      assert.deepEqual(all.data.map((e: { id: number }) => e.id), [a.id, b.id])
      assert.equal(all.meta.total, 2)
      assert.equal(all.links.next, null)
      const paged = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/webhooks?per_page=1&sort=-id', token: d.admin.token }), 200)
      assert.deepEqual(paged.data.map((e: { id: number }) => e.id), [b.id])
      assert.match(paged.links.next, /page=2/)
      assert.ok(!JSON.stringify(paged).includes('secret'), 'no secret in a list')
      const inactive = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/webhooks?filter[active]=0', token: d.admin.token }), 200)
      assert.deepEqual(inactive.data.map((e: { id: number }) => e.id), [b.id])
      const described = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/webhooks?filter[description]=crm', token: d.admin.token }), 200)
      assert.deepEqual(described.data.map((e: { id: number }) => e.id), [a.id])
      expectError(await h.inject({ method: 'GET', url: '/api/v1/webhooks?sort=secret', token: d.admin.token }), 400)
    })

    it('validates endpoints, keeps them to administrators, and emits the new domain events', async (t) => {
      const h = await app(t, dialect)
      const d = await desk(h)
      const hook = await receiver(t)
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/webhooks', token: d.admin.token, payload: { url: 'ftp://x.example', events: ['*'] } }), 'url')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/webhooks', token: d.admin.token, payload: { url: hook.url, events: ['Tickets.Nope'] } }), 'events')
      expectError(await h.inject({ method: 'POST', url: '/api/v1/webhooks', token: d.agent.token, payload: { url: hook.url, events: ['*'] } }), 403)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/webhooks', token: d.alice.token }), 403)
      const endpoint = await createEndpoint(h, d.admin.token, { url: hook.url, events: ['*'] })
      const customer = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/customers', token: d.admin.token, payload: { first_name: 'C', last_name: 'D', email: 'cd@example.com', password: 'secret123', password_confirmation: 'secret123' } }), 201).data
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/customers/${customer.id}`, token: d.admin.token, payload: { company: 'ACME' } }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${customer.id}`, token: d.admin.token }), 200)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const comment = await postComment(h, d.admin.token, ticket.id)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/comments/${comment.id}`, token: d.admin.token, payload: { body: 'Edited.' } }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/comments/${comment.id}`, token: d.admin.token }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/tickets/${ticket.id}`, token: d.admin.token }), 200)
      await h.helpdesk.jobs.runDue()
      const types = hook.received.map((r) => r.headers['helpdesk-event-type'])
      for (const type of ['Customers.CustomerCreated', 'Customers.CustomerUpdated', 'Customers.CustomerDeleted', 'Tickets.TicketCreated',
        'Tickets.CommentAdded', 'Tickets.TicketUpdated', 'Tickets.CommentUpdated', 'Tickets.CommentDeleted', 'Tickets.TicketDeleted']) {
        assert.ok(types.includes(type), `${type} in ${types.join(', ')}`)
      }
      const updated = JSON.parse(hook.received.find((r) => r.headers['helpdesk-event-type'] === 'Customers.CustomerUpdated')!.body)
      assert.deepEqual([updated.data.customer.company, updated.data.changes], ['ACME', ['company']])
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/webhooks/${endpoint.id}`, token: d.admin.token }), 200)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/webhooks/${endpoint.id}`, token: d.admin.token }), 404)
      assert.deepEqual(expectStatus(await h.inject({ method: 'GET', url: '/api/v1/webhooks', token: d.admin.token }), 200).data, [])
    })
  })
})
