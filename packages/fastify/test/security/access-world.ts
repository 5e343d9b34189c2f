import { randomBytes } from 'node:crypto'
import { noPermissions, PERMISSION_KEYS, type PermissionKey } from '@helpdesk/core'
import type { TestApp } from '../helpers.js'
import { expectStatus } from '../http-assertions.js'
import { multipart, type Person } from '../ticket-fixtures.js'

/** The callers of the access matrix, in the order of each row's expectations. */
export const ACTORS = ['anonymous', 'owner', 'other', 'agent', 'privileged', 'admin'] as const
export type ActorName = typeof ACTORS[number]

/**
 * Which agent counts as "privileged" for a route: `category` is an agent of
 * the world's category without permissions; a permission key is an agent of
 * that category holding only that permission (`view_all_tickets`: without the
 * category, so the permission alone is what lets it in); `all` holds every
 * permission, to show that administrator-only routes stay closed to agents.
 */
export type Privilege = 'category' | PermissionKey | 'all'

export const PASSWORD = 'secret123'

/**
 * A help desk with one resource of each kind and the people the matrix tells
 * apart. Shared resources are only read or changed idempotently by the rows;
 * rows that consume or re-scope a resource make a fresh one per cell.
 */
export interface AccessWorld {
  h: TestApp
  admin: Person
  /** The customer who owns the tickets, uploads and notifications below. */
  owner: Person
  /** A customer with nothing of their own here. */
  other: Person
  /** An agent with no permission and no category. */
  agent: Person
  privileged: Record<Privilege, Person>
  /** The category of every ticket; every privileged agent but `view_all_tickets` is assigned to it. */
  category: number
  /** A category with nothing in it, renamed by the rows. */
  spareCategory: number
  /** The owner's private ticket, raised on their behalf by the administrator. */
  ticket: number
  /** A public reply on `ticket` by the `category` agent. */
  reply: number
  /** The owner's public ticket, assigned to the `category` agent, with a reply by that agent and one by the owner. */
  publicTicket: number
  /** One of the owner's notifications. */
  notification: string
  /** An upload of the owner, not linked to anything. */
  attachment: string
  /** A collection visible to logged-in users (2) and a draft article in it. */
  collection: number
  draft: number
  /** A published article in `collection`, written by the administrator. */
  published: number
  field: number
  /** A non-global canned response of the `category` agent. */
  cannedResponse: number
  /** An agent the administrator-only rows read and change. */
  staffTarget: Person
  /** An import job started by the administrator. */
  importJob: number
  fresh: FreshResources
}

/** Resources made anew for a cell whose request consumes or re-scopes one. */
export interface FreshResources {
  ticket: (options?: { private?: boolean }) => Promise<number>
  reply: (options?: { private?: boolean }) => Promise<number>
  customer: () => Promise<number>
  agent: () => Promise<number>
  note: () => Promise<number>
  category: () => Promise<number>
  field: () => Promise<number>
  cannedResponse: (global: boolean) => Promise<number>
  collection: () => Promise<number>
  article: () => Promise<number>
  attachment: () => Promise<string>
  token: (person: Person) => Promise<{ id: number, token: string }>
  /** A session (a password login's token) of the person. */
  session: (person: Person) => Promise<{ id: number, token: string }>
  email: () => string
}

export function uploadBody (content = 'hello world\n', name = 'hello.txt'): ReturnType<typeof multipart> {
  return multipart(Buffer.from(content), name, 'text/plain')
}

async function grantAgent (h: TestApp, keys: readonly PermissionKey[], categories: number[]): Promise<Person> {
  const person = await h.user('agent', { password: PASSWORD })
  const permissions = { ...noPermissions(), ...Object.fromEntries(keys.map((k) => [k, true])) }
  person.user = await h.store.users.update(person.user.id, { permissions }) ?? person.user
  await h.store.users.setCategories(person.user.id, categories)
  return person
}

export async function buildAccessWorld (h: TestApp): Promise<AccessWorld> {
  const { helpdesk } = h
  const admin = await h.user('admin', { password: PASSWORD })
  const owner = await h.user('customer', { password: PASSWORD })
  const other = await h.user('customer', { password: PASSWORD })
  const agent = await h.user('agent', { password: PASSWORD })
  const staffTarget = await h.user('agent', { password: PASSWORD })
  const category = (await helpdesk.categories.create(admin.user, { name: 'Access' })).id
  const spareCategory = (await helpdesk.categories.create(admin.user, { name: 'Spare' })).id

  const privileged = {
    category: await grantAgent(h, [], [category]),
    all: await grantAgent(h, PERMISSION_KEYS, [category])
  } as Record<Privilege, Person>
  for (const key of PERMISSION_KEYS) privileged[key] = await grantAgent(h, [key], key === 'view_all_tickets' ? [] : [category])
  const author = privileged.category

  let counter = 0
  const unique = (): string => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}${counter++}`
  const ticket = async (options: { private?: boolean } = {}): Promise<number> =>
    (await helpdesk.tickets.create(admin.user, { category, title: 'Access', body: 'Body.', customer_id: owner.user.id, private: options.private ?? true })).id
  const sharedTicket = await ticket()
  const reply = async (options: { private?: boolean } = {}): Promise<number> =>
    (await helpdesk.comments.create(author.user, sharedTicket, { body: 'A reply.', type: 1, private: options.private ?? false })).id
  const collection = async (): Promise<number> =>
    (await helpdesk.collections.create(admin.user, { category_id: category, name: `Collection ${unique()}`, visibility: 2 })).id
  const sharedCollection = await collection()
  const article = async (): Promise<number> =>
    (await helpdesk.articles.create(admin.user, { title: `Draft ${unique()}`, body: 'Body.', category, collection: sharedCollection, status: 'draft' })).id
  const attachment = async (): Promise<string> => {
    const body = uploadBody()
    return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/attachments', token: owner.token, headers: body.headers, payload: body.payload }), 201).data.id
  }
  const fresh: FreshResources = {
    ticket,
    reply,
    customer: async () => (await h.user('customer')).user.id,
    agent: async () => (await h.user('agent')).user.id,
    note: async () => (await helpdesk.customers.addNote(admin.user, owner.user.id, 'A note.')).id,
    category: async () => (await helpdesk.categories.create(admin.user, { name: `Category ${unique()}` })).id,
    field: async () => (await helpdesk.customFields.create(admin.user, { title: `Field ${unique()}`, type: 'text' })).id,
    cannedResponse: async (global) => (await helpdesk.cannedResponses.create(author.user, { name: `Canned ${unique()}`, body: 'Hello {{ ticket.id }}', global })).id,
    collection,
    article,
    attachment,
    token: async (person) => {
      const issued = await helpdesk.auth.createToken(person.user, 'matrix')
      return { id: issued.id, token: issued.token }
    },
    session: async (person) => {
      const { token } = await helpdesk.auth.login(person.user.email, PASSWORD)
      return { id: (await helpdesk.auth.authenticate(token))?.tokenId ?? 0, token }
    },
    email: () => `new-${unique()}@example.com`
  }

  const publicTicket = await ticket({ private: false })
  await helpdesk.tickets.assign(admin.user, publicTicket, author.user.id)
  await helpdesk.comments.create(author.user, publicTicket, { body: 'Staff reply.', type: 1, private: false })
  await helpdesk.comments.create(owner.user, publicTicket, { body: 'Owner reply.', type: 1, private: false })

  const notifications = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/notifications', token: owner.token }), 200).data as Array<{ id: string }>
  if (notifications[0] === undefined) throw new Error('the owner has no notification to read')
  const importJob = await helpdesk.imports.enqueue(admin.user, { fileName: 'one.jsonl', content: '{"type": "category", "id": "c-1", "name": "Imported"}\n' })

  return {
    h,
    admin,
    owner,
    other,
    agent,
    privileged,
    category,
    spareCategory,
    ticket: sharedTicket,
    reply: await reply(),
    publicTicket,
    notification: notifications[0].id,
    attachment: await attachment(),
    collection: sharedCollection,
    draft: await article(),
    published: (await helpdesk.articles.create(admin.user, { title: 'Published', body: 'Body.', category, collection: sharedCollection, status: 'published' })).id,
    field: await fresh.field(),
    cannedResponse: await fresh.cannedResponse(false),
    staffTarget,
    importJob: importJob.id,
    fresh
  }
}

/** The person behind a cell's actor for a row (null for anonymous). */
export function personOf (world: AccessWorld, actor: ActorName, privilege: Privilege): Person | null {
  switch (actor) {
    case 'anonymous': return null
    case 'owner': return world.owner
    case 'other': return world.other
    case 'agent': return world.agent
    case 'privileged': return world.privileged[privilege]
    case 'admin': return world.admin
  }
}
