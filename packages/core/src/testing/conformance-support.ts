import assert from 'node:assert/strict'
import type { ListQuery } from '../list/list-query.js'
import type { Store } from '../store.js'
import type { NewTicket } from '../tickets/ticket-store.js'
import type { TicketScope } from '../tickets/ticket-policy.js'
import { formatDateTime, type Clock, type DateTimeString } from '../time.js'
import type { NewUser } from '../users/user-store.js'
import { Role } from '../users/user.js'

/** A clock the suite moves by hand: it stands still between `advance` calls (leases, retry times and retention without waiting). */
export interface ConformanceClock extends Clock {
  advance(ms: number): void
  /** `now` moved by `ms`, as the store writes times. */
  at(ms?: number): DateTimeString
}

/** A clock standing at the current second (whole seconds, so every time the store writes is predictable). */
export function conformanceClock (): ConformanceClock {
  let now = Math.floor(Date.now() / 1000) * 1000
  return {
    now: () => new Date(now),
    advance: (ms) => { now += ms },
    at: (ms = 0) => formatDateTime(new Date(now + ms))
  }
}

/** What the adapter's factory is given: the store it makes must take "now" from `clock`. */
export interface ConformanceContext {
  clock: ConformanceClock
}

/** A fresh, migrated, empty store for one test, and how to dispose of it. */
export interface ConformanceStore {
  store: Store
  close(): Promise<void>
  /**
   * Statements the store has sent so far, if the adapter can tell: then the
   * suite also checks that list includes are loaded in batch (a page of 12
   * costs what a page of 3 costs).
   */
  statements?: () => number
}

/** Runs `fn` on a fresh store (with the clock it reads), closed afterwards whatever happens. */
export type WithStore = (fn: (s: ConformanceStore & ConformanceContext) => Promise<void>) => Promise<void>

export const at = '2024-01-01 00:00:00'

export function person (role: number, email: string): NewUser {
  return { role: role as NewUser['role'], first_name: 'Test', last_name: 'Person', email, status: 1, password_hash: null }
}

export function newTicket (userId: number, categoryId: number, fields: Partial<NewTicket> = {}): NewTicket {
  return { user_id: userId, creator_id: userId, category_id: categoryId, status: 1, private: false, title: 'A ticket', body: '<p>Body</p>', additional: {}, created_at: at, ...fields }
}

export function query (partial: Record<string, string> = {}): ListQuery {
  return { include: [], sort: [{ field: 'id', desc: false }], partial, exact: {}, page: 1, perPage: 100 }
}

export function everything (viewerId: number): TicketScope {
  return { tickets: { all: true }, comments: { all: true }, viewerId }
}

/** A customer's ticket in a new category: what mail and webhook rows refer to. */
export async function aTicket (store: Store, email = 'owner@example.com'): Promise<{ ownerId: number, ticketId: number }> {
  const owner = await store.users.create(person(Role.Customer, email))
  const category = await store.categories.create({ name: `Category of ${email}`, order: 1 })
  const ticket = await store.tickets.create(newTicket(owner.id, category.id))
  return { ownerId: owner.id, ticketId: ticket.id }
}

export const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

/** Each id once, and how many there were. */
export function assertDistinct (ids: readonly number[], what: string): void {
  assert.equal(new Set(ids).size, ids.length, `${what}: no id twice (${ids.join(', ')})`)
}
