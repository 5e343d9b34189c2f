import { ruleFor } from '../notifications/notification-rules.js'
import type { Notification } from '../notifications/notification.js'
import type { TicketPresence } from '../presence/presence.js'
import type { Store } from '../store.js'
import { formatDateTime, systemClock, type Clock } from '../time.js'
import { canSeeTicket, ticketScope } from '../tickets/ticket-policy.js'
import type { User } from '../users/user.js'
import type { EventNotifier } from './event-notifier.js'
import { receivesTicketChange, ticketStreamData, type StreamSourceEvent, type StreamViewer, type TicketStreamData } from './stream-rules.js'

/** What the stream reads of the event log (structurally `Store['eventLog']`). */
export interface StreamEventLog {
  /** Events with id > afterId, oldest first, at most `limit`. */
  after(afterId: number, limit: number): Promise<StreamSourceEvent[]>
  findByIds(ids: number[]): Promise<StreamSourceEvent[]>
  latestId(): Promise<number>
}

/** One message for one subscriber; the HTTP adapter turns it into SSE text. */
export type StreamMessage =
  | { kind: 'ticket', id: number, data: TicketStreamData }
  | { kind: 'notification', id: number, notification: Notification }
  | { kind: 'unread_count', id?: number, count: number }
  /**
   * Who else is on a ticket the viewer may see (staff only), after someone arrived, left or started or
   * stopped typing. No id: presence is not in the event log and is not replayed on resume.
   */
  | { kind: 'presence', presence: TicketPresence }
  /** The requested resume point is gone (too old, or unknown): reload, then follow the live stream. */
  | { kind: 'reset', message: string }

export interface EventStreamOptions {
  store: Store
  eventLog: StreamEventLog
  notifier: EventNotifier
  /** Open streams per user on this instance. Default 5. */
  maxConnectionsPerUser?: number
  /** Most events replayed on resume; further behind, the client is told to reset. Default 1,000. */
  resumeLimit?: number
  onError?: (error: unknown) => void
  /** Decides which presence rows are live. Default: the system clock. */
  clock?: Clock
}

export interface StreamSubscription {
  /** Recomputes what the user may see (after a role, permission or category change). */
  refresh(actor: User): Promise<void>
  close(): void
}

interface Subscriber {
  viewer: StreamViewer
  send: (message: StreamMessage) => void
  /** Live events that arrived while the backlog was being replayed. */
  pending: StreamSourceEvent[] | null
  sentNotifications: BoundedSet<string>
}

/**
 * The live event stream of one instance: every announced batch of event-log
 * ids is read once (one query), then each subscriber receives what the rules
 * let it see, judged from the scope cached when it connected. Notifications of
 * a batch (linked to their event by id) cost one query for all subscribers,
 * unread counts one more.
 */
export class EventStream {
  private readonly subscribers = new Set<Subscriber>()
  private readonly openPerUser = new Map<number, number>()
  private readonly seen = new BoundedSet<number>(10_000)
  private readonly maxPerUser: number
  private readonly resumeLimit: number
  private lastSeenId = 0
  private listening: Promise<() => Promise<void>> | null = null
  private work: Promise<void> = Promise.resolve()
  private stopped = false

  constructor (private readonly options: EventStreamOptions) {
    this.maxPerUser = options.maxConnectionsPerUser ?? 5
    this.resumeLimit = options.resumeLimit ?? 1000
  }

  get connections (): number { return this.subscribers.size }

  /**
   * Subscribes `actor`; null when the user already holds the maximum of open
   * streams. With `lastEventId`, what the user missed after it is replayed
   * from the event log first (or a `reset` when it is too far behind).
   */
  async open (actor: User, options: { lastEventId: number | null, send: (message: StreamMessage) => void }): Promise<StreamSubscription | null> {
    if (this.stopped) return null
    const open = this.openPerUser.get(actor.id) ?? 0
    if (open >= this.maxPerUser) return null
    this.openPerUser.set(actor.id, open + 1)
    let subscriber: Subscriber | null = null
    const release = (): void => {
      if (subscriber !== null) this.subscribers.delete(subscriber)
      const left = (this.openPerUser.get(actor.id) ?? 1) - 1
      if (left <= 0) this.openPerUser.delete(actor.id)
      else this.openPerUser.set(actor.id, left)
    }
    let closed = false
    const close = (): void => {
      if (closed) return
      closed = true
      release()
    }
    try {
      await this.start()
      subscriber = {
        viewer: { userId: actor.id, scope: await ticketScope(this.options.store, actor) },
        send: options.send,
        pending: [],
        sentNotifications: new BoundedSet(1000)
      }
      this.subscribers.add(subscriber)
      const counts = await this.options.store.notifications.unreadCounts([actor.id])
      options.send({ kind: 'unread_count', count: counts.get(actor.id) ?? 0 })
      const replayed = options.lastEventId !== null ? await this.replay(subscriber, options.lastEventId) : new Set<number>()
      const joining = subscriber
      // Through the batch queue, so live batches after this one reach the subscriber after it.
      await new Promise<void>((resolve) => {
        this.enqueue(async () => {
          try {
            const live = (joining.pending ?? []).filter((event) => !replayed.has(event.id))
            joining.pending = null
            await this.deliver(live, [joining], true)
          } finally {
            resolve()
          }
        })
      })
    } catch (error) {
      close()
      throw error
    }
    const own = subscriber
    return {
      refresh: async (fresh) => { own.viewer = { userId: fresh.id, scope: await ticketScope(this.options.store, fresh) } },
      close
    }
  }

  /** Stops listening; subscribers are not told (the HTTP adapter ends their responses). */
  async stop (): Promise<void> {
    this.stopped = true
    this.subscribers.clear()
    this.openPerUser.clear()
    const listening = this.listening
    this.listening = null
    if (listening !== null) {
      const unlisten = await listening.catch(() => null)
      if (unlisten !== null) await unlisten()
    }
    await this.work
  }

  private async start (): Promise<void> {
    if (this.listening === null) {
      this.listening = (async () => {
        this.lastSeenId = await this.options.eventLog.latestId()
        return await this.options.notifier.listen({
          ids: (ids) => { this.enqueue(async () => { await this.receive(ids) }) },
          resync: () => { this.enqueue(async () => { await this.catchUp() }) },
          presence: (ticketIds) => { this.enqueue(async () => { await this.deliverPresence(ticketIds) }) }
        })
      })()
      this.listening.catch(() => { this.listening = null })
    }
    await this.listening
  }

  /** Batches are handled one after the other, so each subscriber sees events in announcement order. */
  private enqueue (task: () => Promise<void>): void {
    this.work = this.work.then(task).catch((error) => { this.options.onError?.(error) })
  }

  private async receive (announced: number[]): Promise<void> {
    const ids = announced.filter((id) => !this.seen.has(id))
    for (const id of ids) {
      this.seen.add(id)
      if (id > this.lastSeenId) this.lastSeenId = id
    }
    if (ids.length === 0 || this.subscribers.size === 0) return
    const events = await this.options.eventLog.findByIds(ids)
    await this.deliver(events.sort((a, b) => a.id - b.id), [...this.subscribers])
  }

  private async catchUp (): Promise<void> {
    const events = await this.options.eventLog.after(this.lastSeenId, this.resumeLimit)
    await this.receive(events.map((event) => event.id))
  }

  private async replay (subscriber: Subscriber, lastEventId: number): Promise<Set<number>> {
    const latest = await this.options.eventLog.latestId()
    const missed = lastEventId <= latest ? await this.options.eventLog.after(lastEventId, this.resumeLimit + 1) : null
    if (missed === null || missed.length > this.resumeLimit) {
      subscriber.send({ kind: 'reset', message: 'The stream cannot resume from this event id: reload, then follow the stream.' })
      return new Set()
    }
    await this.deliver(missed, [subscriber], true)
    return new Set(missed.map((event) => event.id))
  }

  /**
   * Presence changed on these tickets: staff subscribers who may see a ticket get who else is on it now
   * (two queries for all of them: the tickets' facts and the live rows).
   */
  private async deliverPresence (announced: number[]): Promise<void> {
    const staff = [...this.subscribers].filter((subscriber) => 'all' in subscriber.viewer.scope.comments)
    const ticketIds = [...new Set(announced)]
    if (staff.length === 0 || ticketIds.length === 0) return
    const now = formatDateTime((this.options.clock ?? systemClock).now())
    const [tickets, entries] = await Promise.all([
      this.options.store.presence.ticketFacts(ticketIds),
      this.options.store.presence.liveOf(ticketIds, now)
    ])
    for (const ticket of tickets) {
      const present = entries.filter((entry) => entry.ticket_id === ticket.id)
      for (const subscriber of staff) {
        if (!this.subscribers.has(subscriber) || !canSeeTicket(subscriber.viewer.scope.tickets, ticket)) continue
        subscriber.send({ kind: 'presence', presence: { ticket_id: ticket.id, now, entries: present.filter((entry) => entry.user.id !== subscriber.viewer.userId) } })
      }
    }
  }

  /** `now`: deliver even to a subscriber still replaying (its replay or its queued live events). */
  private async deliver (events: StreamSourceEvent[], to: Subscriber[], now = false): Promise<void> {
    if (events.length === 0) return
    const ready = to.filter((subscriber) => {
      if (now || subscriber.pending === null) return true
      subscriber.pending.push(...events)
      return false
    })
    if (ready.length === 0) return
    const lastId = events[events.length - 1]?.id ?? 0
    // Ticket changes first: they need no further query. One message object per event, shared by
    // its receivers (the HTTP adapter serialises it once).
    const changes = events.flatMap((event) => {
      const data = ticketStreamData(event)
      return data === null ? [] : [{ event, message: { kind: 'ticket' as const, id: event.id, data } }]
    })
    for (const subscriber of ready) {
      if (!this.subscribers.has(subscriber)) continue
      for (const { event, message } of changes) {
        if (receivesTicketChange(event, subscriber.viewer)) subscriber.send(message)
      }
    }
    const notifications = await this.notificationsOf(events, ready)
    for (const subscriber of ready) {
      if (!this.subscribers.has(subscriber)) continue
      const own = notifications.byUser.get(subscriber.viewer.userId) ?? []
      let sent = false
      for (const notification of own) {
        if (subscriber.sentNotifications.has(notification.id)) continue
        subscriber.sentNotifications.add(notification.id)
        subscriber.send({ kind: 'notification', id: lastId, notification })
        sent = true
      }
      const count = notifications.unread.get(subscriber.viewer.userId)
      if (sent && count !== undefined) subscriber.send({ kind: 'unread_count', id: lastId, count })
    }
  }

  /** The subscribers' notifications written by these events (one query) and, for those who got some, unread counts (one more). */
  private async notificationsOf (events: StreamSourceEvent[], to: Subscriber[]): Promise<{ byUser: Map<number, Notification[]>, unread: Map<number, number> }> {
    const byUser = new Map<number, Notification[]>()
    const causes = events.filter((event) => ruleFor(event.type) !== null).map((event) => event.id)
    if (causes.length === 0) return { byUser, unread: new Map() }
    const userIds = [...new Set(to.map((subscriber) => subscriber.viewer.userId))]
    for (const { notification } of await this.options.store.notifications.forEvents(userIds, causes)) {
      const list = byUser.get(notification.user_id) ?? []
      list.push(notification)
      byUser.set(notification.user_id, list)
    }
    const unread = byUser.size > 0 ? await this.options.store.notifications.unreadCounts([...byUser.keys()]) : new Map<number, number>()
    return { byUser, unread }
  }
}

/** A set that forgets its oldest entries past `capacity`. */
class BoundedSet<T> {
  private readonly items = new Set<T>()
  constructor (private readonly capacity: number) {}
  has (item: T): boolean { return this.items.has(item) }
  add (item: T): void {
    this.items.add(item)
    if (this.items.size > this.capacity) {
      const oldest = this.items.values().next()
      if (oldest.done !== true) this.items.delete(oldest.value)
    }
  }
}
