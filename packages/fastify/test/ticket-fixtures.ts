import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { noPermissions, type DomainEvent, type PermissionKey, type User } from '@helpdesk/core'
import type { TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'

type Person = Awaited<ReturnType<TestApp['user']>>

/** A help desk with two categories and the people the ticket rules tell apart. */
export interface Desk {
  admin: Person
  /** An agent of category `billing` only, without extra permissions. */
  agent: Person
  /** Two customers. */
  alice: Person
  bob: Person
  billing: number
  sales: number
}

export async function grant (h: TestApp, person: Person, ...keys: PermissionKey[]): Promise<void> {
  const permissions = { ...noPermissions(), ...Object.fromEntries(keys.map((k) => [k, true])) }
  const updated = await h.store.users.update(person.user.id, { permissions })
  if (updated !== null) person.user = updated
}

export async function desk (h: TestApp): Promise<Desk> {
  const admin = await h.user('admin', { first_name: 'Ada', last_name: 'Admin' })
  const agent = await h.user('agent', { first_name: 'Gus', last_name: 'Agent' })
  const alice = await h.user('customer', { first_name: 'Alice', last_name: 'Liddell', email: 'alice.liddell@example.com' })
  const bob = await h.user('customer', { first_name: 'Bob', last_name: 'Builder', email: 'bob@builders.test' })
  const billing = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories', token: admin.token, payload: { name: 'Billing' } }), 201).data.id as number
  const sales = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories', token: admin.token, payload: { name: 'Sales' } }), 201).data.id as number
  await h.store.users.setCategories(agent.user.id, [billing])
  return { admin, agent, alice, bob, billing, sales }
}

/** POST /tickets as `token`; returns the created ticket. */
export async function postTicket (h: TestApp, token: string, payload: Record<string, unknown>): Promise<any> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/tickets', token, payload: { title: 'Help', body: 'Please help.', ...payload } }), 201).data
}

/** POST /tickets/{id}/comments as `token`; returns the created comment. */
export async function postComment (h: TestApp, token: string, ticketId: number, payload: Record<string, unknown> = {}): Promise<any> {
  return expectStatus(await h.inject({
    method: 'POST', url: `/api/v1/tickets/${ticketId}/comments`, token, payload: { body: 'A reply.', type: 1, private: false, ...payload }
  }), 201).data
}

/** A multipart/form-data body with one file field. */
export function multipart (content: Buffer, filename = 'file.bin', contentType = 'application/octet-stream', field = 'file'): { payload: Buffer, headers: Record<string, string> } {
  const boundary = `----helpdesk${randomBytes(8).toString('hex')}`
  const disposition = /^[\x20-\x7e]*$/.test(filename)
    ? `filename="${filename}"`
    : `filename*=UTF-8''${encodeURIComponent(filename)}`
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; ${disposition}\r\nContent-Type: ${contentType}\r\n\r\n`)
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }
  }
}

/** POST /attachments as `token`; returns the response. */
export async function upload (h: TestApp, token: string, content: Buffer, filename?: string, contentType?: string) {
  const body = multipart(content, filename, contentType)
  return await h.inject({ method: 'POST', url: '/api/v1/attachments', token, headers: body.headers, payload: body.payload })
}

export async function uploadId (h: TestApp, token: string, content = Buffer.from('hello world\n'), filename = 'hello.txt'): Promise<string> {
  return expectStatus(await upload(h, token, content, filename, 'text/plain'), 201).data.id
}

/** The names of the files in the app's attachment directory. */
export function storedFiles (h: TestApp): string[] {
  return readdirSync(h.storageDir).sort()
}

/** Collects the domain events delivered after commit, for assertions. */
export function recordEvents (h: TestApp): DomainEvent[] {
  const events: DomainEvent[] = []
  h.helpdesk.events.subscribe((event) => { events.push(event) })
  return events
}

/** Lets after-commit subscribers run. */
export async function settle (): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
}

/** A 1x1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

export function idsOf (list: Array<{ id: number }>): number[] {
  return list.map((item) => item.id).sort((a, b) => a - b)
}

export type { Person, User }
