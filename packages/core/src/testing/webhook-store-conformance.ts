import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { parseListQuery } from '../list/list-query.js'
import type { Store } from '../store.js'
import { webhookDeliveryList, webhookList } from '../webhooks/webhook.js'
import type { NewWebhookEndpoint } from '../webhooks/webhook-store.js'
import { assertDistinct, type WithStore } from './conformance-support.js'

/** The contract of `WebhookRepository` (`webhooks/webhook-store.ts`): endpoints, their secrets and their deliveries. */
export function webhookStoreConformance (withStore: WithStore): void {
  describe('webhooks', () => {
    it('endpoints: created as given, found, listed oldest first, updated and deleted; a missing id gives null and false', async () => {
      await withStore(async ({ store, clock }) => {
        const first = await store.webhooks.create(endpoint({ events: ['Tickets.TicketCreated', 'Tickets.CommentAdded'], description: 'CRM' }))
        assert.deepEqual({ ...first, id: 0 }, {
          id: 0, url: 'https://hooks.example.com/in', events: ['Tickets.TicketCreated', 'Tickets.CommentAdded'], description: 'CRM', active: true,
          disabled_at: null, consecutive_failures: 0, failing_since: null, created_at: clock.at(), updated_at: clock.at()
        })
        const second = await store.webhooks.create(endpoint({ url: 'https://other.example.com/hook', events: ['*'], active: false }))
        assert.deepEqual(await store.webhooks.findById(first.id), first)
        assert.deepEqual((await store.webhooks.list()).map((e) => e.id), [first.id, second.id])
        clock.advance(1000)
        const updated = await store.webhooks.update(first.id, { url: 'https://hooks.example.com/v2', events: ['*'], description: null, active: false })
        assert.deepEqual(updated, { ...first, url: 'https://hooks.example.com/v2', events: ['*'], description: null, active: false, updated_at: clock.at() })
        assert.deepEqual(await store.webhooks.findById(first.id), updated)
        assert.equal(await store.webhooks.update(987654, { active: true }), null)
        assert.equal(await store.webhooks.findById(987654), null)
        assert.equal(await store.webhooks.delete(second.id), true)
        assert.equal(await store.webhooks.delete(second.id), false)
        assert.equal(await store.webhooks.findById(second.id), null)
        assert.deepEqual((await store.webhooks.list()).map((e) => e.id), [first.id])
      })
    })

    it('page() pages endpoints by the webhooks list\'s sorts and filters, secrets left out', async () => {
      await withStore(async ({ store }) => {
        const on = await store.webhooks.create(endpoint({ description: 'Billing CRM' }))
        const off = await store.webhooks.create(endpoint({ url: 'https://other.example.com/hook', active: false }))
        const page = await store.webhooks.page(parseListQuery(webhookList, { sort: '-id', per_page: '1' }))
        assert.deepEqual([page.items.map((e) => e.id), page.total], [[off.id], 2])
        assert.ok(!('secret' in page.items[0]!), 'no secret on a listed endpoint')
        assert.deepEqual((await store.webhooks.page(parseListQuery(webhookList, { filters: { active: '1' } }))).items.map((e) => e.id), [on.id])
        assert.deepEqual((await store.webhooks.page(parseListQuery(webhookList, { filters: { url: 'OTHER' } }))).items.map((e) => e.id), [off.id])
      })
    })

    it('active() lists the active endpoints only', async () => {
      await withStore(async ({ store }) => {
        const on = await store.webhooks.create(endpoint({}))
        const off = await store.webhooks.create(endpoint({ active: false }))
        const later = await store.webhooks.create(endpoint({}))
        assert.deepEqual((await store.webhooks.active()).map((e) => e.id).sort((a, b) => a - b), [on.id, later.id])
        await store.webhooks.update(off.id, { active: true })
        await store.webhooks.update(on.id, { active: false })
        assert.deepEqual((await store.webhooks.active()).map((e) => e.id).sort((a, b) => a - b), [off.id, later.id])
        assert.deepEqual(await store.transaction(async (tx) => (await tx.webhooks.active()).map((e) => e.id).sort((a, b) => a - b)), [off.id, later.id], 'inside a transaction too')
      })
    })

    it('secrets: the current one, and after a rotation the previous one until the given time; null and false for a missing endpoint', async () => {
      await withStore(async ({ store, clock }) => {
        const created = await store.webhooks.create(endpoint({ secret: 'whsec_first' }))
        assert.deepEqual(await store.webhooks.secretsOf(created.id), { current: 'whsec_first', previous: null, previous_expires_at: null })
        assert.equal(await store.webhooks.rotateSecret(created.id, 'whsec_second', clock.at(86_400_000)), true)
        assert.deepEqual(await store.webhooks.secretsOf(created.id), { current: 'whsec_second', previous: 'whsec_first', previous_expires_at: clock.at(86_400_000) })
        assert.equal(await store.webhooks.rotateSecret(created.id, 'whsec_third', clock.at(1000)), true)
        assert.deepEqual(await store.webhooks.secretsOf(created.id), { current: 'whsec_third', previous: 'whsec_second', previous_expires_at: clock.at(1000) })
        assert.equal(await store.webhooks.rotateSecret(987654, 'whsec_x', clock.at()), false)
        assert.equal(await store.webhooks.secretsOf(987654), null)
        assert.ok(!('secret' in (await store.webhooks.findById(created.id) as object)), 'an endpoint as read carries no secret')
      })
    })

    it('failure counters: consecutive failures, failing since, disabled at and active are kept as patched', async () => {
      await withStore(async ({ store, clock }) => {
        const created = await store.webhooks.create(endpoint({}))
        await store.webhooks.update(created.id, { consecutive_failures: 1, failing_since: clock.at() })
        await store.webhooks.update(created.id, { consecutive_failures: 2 })
        let found = await store.webhooks.findById(created.id)
        assert.equal(found?.consecutive_failures, 2)
        assert.equal(found?.failing_since, clock.at())
        await store.webhooks.update(created.id, { consecutive_failures: 3, active: false, disabled_at: clock.at(5000) })
        found = await store.webhooks.findById(created.id)
        assert.deepEqual([found?.consecutive_failures, found?.active, found?.disabled_at], [3, false, clock.at(5000)])
        await store.webhooks.update(created.id, { consecutive_failures: 0, failing_since: null, active: true, disabled_at: null })
        found = await store.webhooks.findById(created.id)
        assert.deepEqual([found?.consecutive_failures, found?.failing_since, found?.active, found?.disabled_at], [0, null, true, null])
      })
    })

    it('deliveries: created pending, ids in order; found and updated; the body is null until stored, or the body a redelivery was created with', async () => {
      await withStore(async ({ store, clock }) => {
        const hook = await store.webhooks.create(endpoint({}))
        const [e1, e2] = await events(store, 2)
        const ids = await store.webhooks.createDeliveries([
          { endpoint_id: hook.id, event_id: e1!, event_type: 'Tickets.TicketCreated' },
          { endpoint_id: hook.id, event_id: e2!, event_type: 'Tickets.CommentAdded', body: '{"resent":true}' }
        ])
        assert.equal(ids.length, 2)
        assertDistinct(ids, 'deliveries')
        assert.deepEqual(await store.webhooks.createDeliveries([]), [])
        const first = await store.webhooks.findDelivery(ids[0]!)
        assert.deepEqual(first, {
          id: ids[0], endpoint_id: hook.id, event_id: e1, event_type: 'Tickets.TicketCreated', status: 'pending', attempts: 0,
          response_status: null, duration_ms: null, error: null, next_attempt_at: first?.next_attempt_at ?? null, created_at: clock.at(), updated_at: clock.at()
        })
        assert.equal((await store.webhooks.findDelivery(ids[1]!))?.event_id, e2)
        assert.equal(await store.webhooks.bodyOf(ids[0]!), null)
        assert.equal(await store.webhooks.bodyOf(ids[1]!), '{"resent":true}')
        assert.equal(await store.webhooks.findDelivery(987654), null)

        clock.advance(2000)
        await store.webhooks.updateDelivery(ids[0]!, { body: '{"id":1}' })
        await store.webhooks.recordAttempts([{ delivery_id: ids[0]!, status: 'failed', response_status: 500, duration_ms: 120, error: 'HTTP 500', next_attempt_at: clock.at(60_000) }])
        assert.deepEqual(await store.webhooks.findDelivery(ids[0]!), {
          ...first, status: 'failed', attempts: 1, response_status: 500, duration_ms: 120, error: 'HTTP 500', next_attempt_at: clock.at(60_000), updated_at: clock.at()
        })
        assert.equal(await store.webhooks.bodyOf(ids[0]!), '{"id":1}', 'the stored body stays')
        await store.webhooks.updateDelivery(ids[0]!, { status: 'pending', error: null })
        assert.equal((await store.webhooks.findDelivery(ids[0]!))?.attempts, 1, 'a patch that is not an attempt leaves the attempts as they are')
      })
    })

    it('deliveryWork: the deliveries with their endpoint, secrets and body, in input order; those gone (or whose endpoint is) left out', async () => {
      await withStore(async ({ store }) => {
        const hook = await store.webhooks.create(endpoint({ secret: 'whsec_work' }))
        const [event] = await events(store, 1)
        const [id] = await store.webhooks.createDeliveries([{ endpoint_id: hook.id, event_id: event!, event_type: 'Tickets.TicketCreated', body: '{"a":1}' }])
        const work = await store.webhooks.deliveryWork([id!, 987654])
        assert.deepEqual(work, [{
          delivery: await store.webhooks.findDelivery(id!),
          endpoint: await store.webhooks.findById(hook.id),
          secrets: { current: 'whsec_work', previous: null, previous_expires_at: null },
          body: '{"a":1}'
        }])
        assert.deepEqual(await store.webhooks.deliveryWork([987654]), [])
        assert.deepEqual(await store.webhooks.deliveryWork([]), [])
        assert.equal(await store.webhooks.delete(hook.id), true)
        assert.deepEqual(await store.webhooks.deliveryWork([id!]), [], 'the endpoint is gone')
        assert.equal(await store.webhooks.findDelivery(id!), null, 'deleting an endpoint deletes its deliveries')
      })
    })

    it('listDeliveries: one endpoint\'s, newest first, filtered by status, one page with the total', async () => {
      await withStore(async ({ store }) => {
        const hook = await store.webhooks.create(endpoint({}))
        const other = await store.webhooks.create(endpoint({}))
        const [event] = await events(store, 1)
        const delivery = (endpointId: number) => ({ endpoint_id: endpointId, event_id: event!, event_type: 'Tickets.TicketCreated' })
        const ids = await store.webhooks.createDeliveries([delivery(hook.id), delivery(other.id), delivery(hook.id), delivery(hook.id)])
        await store.webhooks.updateDelivery(ids[2]!, { status: 'succeeded' })
        const page = async (endpointId: number, perPage: number, exact: Record<string, string[]> = {}, pageNumber = 1) =>
          await store.webhooks.listDeliveries(endpointId, { ...parseListQuery(webhookDeliveryList, {}), exact, perPage, page: pageNumber })
        const ids2 = (p: { items: Array<{ id: number }> }) => p.items.map((d) => d.id)
        const all = await page(hook.id, 10)
        assert.deepEqual(ids2(all), [ids[3], ids[2], ids[0]])
        assert.equal(all.total, 3)
        const first = await page(hook.id, 2)
        assert.deepEqual([ids2(first), first.total], [[ids[3], ids[2]], 3])
        assert.deepEqual(ids2(await page(hook.id, 2, {}, 2)), [ids[0]])
        assert.deepEqual(ids2(await page(hook.id, 10, { status: ['pending'] })), [ids[3], ids[0]])
        assert.deepEqual(ids2(await page(other.id, 10)), [ids[1]])
        assert.deepEqual(ids2(await page(987654, 10)), [])
      })
    })

    it('deleteDeliveriesBefore removes at most `limit` deliveries created before the time', async () => {
      await withStore(async ({ store, clock }) => {
        const hook = await store.webhooks.create(endpoint({}))
        const [event] = await events(store, 1)
        const delivery = { endpoint_id: hook.id, event_id: event!, event_type: 'Tickets.TicketCreated' }
        const old = await store.webhooks.createDeliveries([delivery, delivery, delivery])
        clock.advance(60_000)
        const [recent] = await store.webhooks.createDeliveries([delivery])
        assert.equal(await store.webhooks.deleteDeliveriesBefore(clock.at(), 2), 2)
        assert.equal(await store.webhooks.deleteDeliveriesBefore(clock.at(), 10), 1)
        assert.equal(await store.webhooks.deleteDeliveriesBefore(clock.at(), 10), 0)
        for (const id of old) assert.equal(await store.webhooks.findDelivery(id), null)
        assert.equal((await store.webhooks.findDelivery(recent!))?.id, recent)
      })
    })
  })
}

function endpoint (fields: Partial<NewWebhookEndpoint>): NewWebhookEndpoint {
  return { url: 'https://hooks.example.com/in', events: ['Tickets.TicketCreated'], description: null, active: true, secret: 'whsec_test', ...fields }
}

/** `count` events in the log, for deliveries to refer to. */
async function events (store: Store, count: number): Promise<number[]> {
  return await store.eventLog.append(Array.from({ length: count }, () => ({ type: 'Tickets.TicketCreated', actor_id: null, ticket_id: null, payload: {} })))
}
