import type { Store } from './store.js'

/**
 * Domain events. Services emit them inside the transaction of the change that
 * caused them: `recorders` run in that transaction (e.g. writing notification
 * rows, an outbox), `subscribers` run after it committed and never for a
 * change that rolled back.
 */
export interface DomainEvent {
  type: string
  /** The user who caused it, or null for system events. */
  actor_id: number | null
  [key: string]: unknown
}

/**
 * Records one event inside its transaction. `many`, when a recorder has it,
 * records the events of one bulk change together (`EventBus.emitMany`).
 */
export type EventRecorder = ((tx: Store, event: DomainEvent) => Promise<void>) & {
  many?: (tx: Store, events: readonly DomainEvent[]) => Promise<void>
}
export type EventSubscriber = (event: DomainEvent) => void | Promise<void>

export class EventBus {
  private readonly recorders: EventRecorder[] = []
  private readonly subscribers: EventSubscriber[] = []
  private readonly pending = new WeakMap<Store, DomainEvent[]>()

  /** Runs inside the emitting transaction; a throw rolls the change back. Registering a recorder again has no effect. */
  record (recorder: EventRecorder): void {
    if (!this.recorders.includes(recorder)) this.recorders.push(recorder)
  }

  /** Runs after commit. Errors are reported through `onError`, never thrown at the caller. */
  subscribe (subscriber: EventSubscriber): () => void {
    this.subscribers.push(subscriber)
    return () => {
      const i = this.subscribers.indexOf(subscriber)
      if (i >= 0) this.subscribers.splice(i, 1)
    }
  }

  private failures = 0

  /** Hears of every subscriber that threw or rejected (after it was counted); the Fastify plugin logs them. */
  onError: (error: unknown, event: DomainEvent) => void = () => {}

  /** How many times a subscriber threw or rejected since this bus was made (`/ready` shows it). */
  get subscriberErrors (): number {
    return this.failures
  }

  /** Emits inside a transaction opened by `transaction()` below. */
  async emit (tx: Store, event: DomainEvent): Promise<void> {
    for (const recorder of this.recorders) await recorder(tx, event)
    const queue = this.pending.get(tx)
    if (queue !== undefined) queue.push(event)
    else this.deliver([event])
  }

  /**
   * Emits the events of one bulk change (e.g. customers created in a batch),
   * in order, inside a transaction opened by `transaction()`: each recorder
   * takes them all at once when it can (`EventRecorder.many`), else one by one.
   */
  async emitMany (tx: Store, events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return
    for (const recorder of this.recorders) {
      if (recorder.many !== undefined) await recorder.many(tx, events)
      else for (const event of events) await recorder(tx, event)
    }
    const queue = this.pending.get(tx)
    if (queue !== undefined) queue.push(...events)
    else this.deliver([...events])
  }

  /** Opens a transaction whose emitted events reach subscribers once it commits. */
  async transaction<T>(store: Store, fn: (tx: Store) => Promise<T>): Promise<T> {
    let events: DomainEvent[] = []
    const result = await store.transaction(async (tx) => {
      const outer = this.pending.get(tx)
      if (outer !== undefined) return await fn(tx)
      events = []
      this.pending.set(tx, events)
      try {
        return await fn(tx)
      } finally {
        this.pending.delete(tx)
      }
    })
    this.deliver(events)
    return result
  }

  private failed (error: unknown, event: DomainEvent): void {
    this.failures++
    try {
      this.onError(error, event)
    } catch {
      // A failing error handler must not become an unhandled rejection; the failure is counted.
    }
  }

  private deliver (events: DomainEvent[]): void {
    for (const event of events) {
      for (const subscriber of this.subscribers) {
        Promise.resolve().then(async () => { await subscriber(event) }).catch((error: unknown) => { this.failed(error, event) })
      }
    }
  }
}
