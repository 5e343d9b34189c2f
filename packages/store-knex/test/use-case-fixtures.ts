import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import assert from 'node:assert/strict'
import {
  createArgon2Hasher, createHelpdesk, createLocalFileStorage, noPermissions, notificationList, parseListQuery, Role,
  type Comment, type CommentInput, type Helpdesk, type PermissionKey, type Ticket, type TicketInput, type User, SYSTEM } from '@helpdesk/core'
import type { KnexStore } from '../src/index.js'
import { migratedStore } from './test-store.js'

/**
 * Service-level use cases: the services of `createHelpdesk` on a real store,
 * no HTTP in between. The people and categories the ticket rules tell apart.
 */
export interface Desk {
  helpdesk: Helpdesk
  store: KnexStore
  admin: User
  /** An agent of `billing` only, without extra permissions. */
  agent: User
  /** Two customers. */
  alice: User
  bob: User
  billing: number
  sales: number
}

/** Cheap argon2id parameters: the desk hashes a few passwords. */
const hasher = createArgon2Hasher({ memoryCost: 1024, timeCost: 1 })
let counter = 0

/** A helpdesk on a fresh migrated database of `dialect` with the desk's people; all torn down after the test. */
export async function deskOn (t: TestContext, dialect: 'sqlite' | 'postgres'): Promise<Desk> {
  const store = await migratedStore(t, dialect)
  const files = mkdtempSync(join(tmpdir(), 'helpdesk-use-cases-'))
  t.after(() => { rmSync(files, { recursive: true, force: true }) })
  const helpdesk = createHelpdesk({ store, hasher, fileStorage: createLocalFileStorage(files) })
  const admin = await person(helpdesk, 'admin', 'Ada', 'Admin')
  const agent = await person(helpdesk, 'agent', 'Gus', 'Agent')
  const alice = await person(helpdesk, 'customer', 'Alice', 'Liddell')
  const bob = await person(helpdesk, 'customer', 'Bob', 'Builder')
  const billing = (await helpdesk.categories.create(admin, { name: 'Billing' })).id
  const sales = (await helpdesk.categories.create(admin, { name: 'Sales' })).id
  await helpdesk.agents.setCategories(admin, agent.id, [billing])
  return { helpdesk, store, admin, agent, alice, bob, billing, sales }
}

/** A new user of `role`, created as the services do. */
export async function person (helpdesk: Helpdesk, role: 'admin' | 'agent' | 'customer', first = 'First', last = `Last${++counter}`): Promise<User> {
  const input = { first_name: first, last_name: last, email: `${role}${++counter}-${first.toLowerCase()}@use-cases.test`, password: 'secret123' }
  return role === 'customer'
    ? await helpdesk.customers.create(SYSTEM, input, false)
    : await helpdesk.agents.create(SYSTEM, input, role === 'admin' ? Role.Admin : Role.Agent, false)
}

/** The user with `keys` granted (a fresh object: nothing remembered about the old one). */
export async function grant (d: Desk, user: User, ...keys: PermissionKey[]): Promise<User> {
  const permissions = { ...noPermissions(), ...Object.fromEntries(keys.map((k) => [k, true])) }
  const updated = await d.store.users.update(user.id, { permissions })
  assert.ok(updated !== null)
  return updated
}

/** A ticket raised by `actor` (title "Help" unless given). */
export async function ticket (d: Desk, actor: User, input: Partial<TicketInput> & { category: number }): Promise<Ticket> {
  return await d.helpdesk.tickets.create(actor, { title: 'Help', body: 'Please help.', ...input })
}

/** A comment by `actor`: a public reply unless `input` says otherwise. */
export async function comment (d: Desk, actor: User, ticketId: number, input: Partial<CommentInput> = {}): Promise<Comment> {
  return await d.helpdesk.comments.create(actor, ticketId, { body: 'A reply.', type: 1, private: false, ...input })
}

/** The stored ticket (no visibility applied). */
export async function stored (d: Desk, id: number): Promise<Ticket> {
  const found = await d.store.tickets.findById(id)
  assert.ok(found !== null, `ticket ${id} exists`)
  return found
}

/** The types of `user`'s notifications, newest first. */
export async function notificationTypes (d: Desk, user: User): Promise<string[]> {
  return (await notificationsOf(d, user)).map((n) => n.type)
}

export async function notificationsOf (d: Desk, user: User) {
  return (await d.helpdesk.notifications.list(user, parseListQuery(notificationList, { per_page: 100 }))).items
}

export function sortedIds (items: ReadonlyArray<{ id: number }>): number[] {
  return items.map((item) => item.id).sort((a, b) => a - b)
}
