import type { User } from '@helpdesk/core'
import type { TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'

/** Creates a category over HTTP (as an administrator) and returns its id. */
export async function createCategory (h: TestApp, token: string, name: string): Promise<number> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories', token, payload: { name } }), 201).data.id
}

/** A ticket owned by `owner` in `category`, raised by `staff` through the ticket service. */
export async function createTicket (h: TestApp, staff: User, owner: User, category: number, title = 'Help'): Promise<number> {
  const ticket = await h.helpdesk.tickets.create(staff, { category, title, body: 'Please help.', customer_id: owner.id })
  return ticket.id
}

/** Assigns the ticket to `agent` and, with `closed`, closes it (status 3). */
export async function assignTicket (h: TestApp, admin: User, ticketId: number, agent: User, closed = false): Promise<void> {
  await h.helpdesk.tickets.assign(admin, ticketId, agent.id)
  if (closed) await h.helpdesk.tickets.update(admin, ticketId, { status: 3 })
}
