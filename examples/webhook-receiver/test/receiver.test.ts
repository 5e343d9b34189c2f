import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { signWebhookPayload } from '@helpdesk/core'
import { createReceiver, type WebhookEvent } from '../src/receiver.js'

describe('the example webhook receiver', () => {
  it('accepts signed deliveries once per event id and refuses bad or stale signatures', async (t) => {
    const handled: WebhookEvent[] = []
    const server = createReceiver({ secrets: ['whsec_test'], onEvent: (event) => { handled.push(event) } })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    t.after(() => { server.close() })
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    const body = JSON.stringify({ id: 7, type: 'Tickets.TicketCreated', created_at: '2026-01-31 14:05:00', data: { actor_id: 1 } })
    const now = Math.floor(Date.now() / 1000)
    const send = async (signature: string): Promise<number> =>
      (await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'helpdesk-signature': signature } })).status

    assert.equal(await send(signWebhookPayload(body, ['whsec_test'], now)), 204)
    assert.equal(await send(signWebhookPayload(body, ['whsec_test'], now)), 204, 'a retry is acknowledged')
    assert.equal(handled.length, 1, 'and not handled twice')
    assert.equal(await send(signWebhookPayload(body, ['whsec_other'], now)), 400)
    assert.equal(await send(signWebhookPayload(body, ['whsec_test'], now - 3600)), 400, 'a replayed old signature')
    assert.equal(await send(signWebhookPayload(body, ['whsec_new', 'whsec_test'], now)), 204, 'a rotation overlap: one of two matches')
  })
})
