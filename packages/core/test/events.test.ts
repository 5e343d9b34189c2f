import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { EventBus, type DomainEvent } from '../src/events.js'
import type { Store } from '../src/store.js'

const tick = async (): Promise<void> => { for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve)) }
/** Outside any transaction `emit` delivers at once; the store is never touched without recorders. */
const noStore = {} as Store

describe('EventBus subscriber errors', () => {
  it('counts each throwing or rejecting subscriber and hands it to onError once; the others still run', async () => {
    const bus = new EventBus()
    const heard: Array<[string, string]> = []
    const seen: string[] = []
    bus.onError = (error, event) => { heard.push([(error as Error).message, event.type]) }
    bus.subscribe(() => { throw new Error('sync') })
    bus.subscribe(async () => { throw new Error('async') })
    bus.subscribe((event) => { seen.push(event.type) })
    const event: DomainEvent = { type: 'Test.Happened', actor_id: null }
    await bus.emit(noStore, event)
    await tick()
    assert.deepEqual(seen, ['Test.Happened'])
    assert.deepEqual(heard.sort(), [['async', 'Test.Happened'], ['sync', 'Test.Happened']])
    assert.equal(bus.subscriberErrors, 2)
  })

  it('still counts when onError itself throws, without an unhandled rejection', async () => {
    const bus = new EventBus()
    const unhandled: unknown[] = []
    const listener = (reason: unknown): void => { unhandled.push(reason) }
    process.on('unhandledRejection', listener)
    try {
      bus.onError = () => { throw new Error('the logger broke') }
      bus.subscribe(() => { throw new Error('subscriber') })
      await bus.emit(noStore, { type: 'Test.Happened', actor_id: null })
      await tick()
      assert.equal(bus.subscriberErrors, 1)
      assert.deepEqual(unhandled, [])
    } finally {
      process.off('unhandledRejection', listener)
    }
  })
})
