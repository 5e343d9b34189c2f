import { SYSTEM } from '@helpdesk/core'
import type { Person } from '../ticket-fixtures.js'
import { PASSWORD, uploadBody, type AccessWorld, type ActorName, type Privilege } from './access-world.js'

/** One cell's caller and the world it acts in. */
export interface Cell {
  w: AccessWorld
  actor: ActorName
  /** Null for the anonymous caller. */
  person: Person | null
}

export interface CellRequest {
  /** Path below the prefix, e.g. `/tickets/12`. */
  url: string
  payload?: unknown
  headers?: Record<string, string>
  /** The bearer token; default the actor's own. */
  token?: string
}

/** A calendar of its own for a request that changes or deletes it. */
async function freshCalendar (w: AccessWorld): Promise<number> {
  return (await w.h.store.sla.createCalendar({ name: 'Matrix', time_zone: 'UTC', hours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }, holidays: [], twenty_four_seven: true })).id
}

/** Expected status per actor: anonymous, owner, other customer, agent, privileged agent, administrator. */
export type Expectation = readonly [number, number, number, number, number, number]

export interface AccessRow {
  /** `METHOD /path` as registered below the prefix; aliases of one handler as `PATCH|POST /path`. */
  route: string
  /** Which agent is the "privileged" column (see `Privilege`). */
  privileged: Privilege
  expect: Expectation
  /** The request of one cell; makes a fresh resource when the request consumes or re-scopes one. */
  request: (cell: Cell) => CellRequest | Promise<CellRequest>
  /** What a successful answer may reveal to this cell's caller: a problem, or null. */
  check?: (cell: Cell, body: unknown) => string | null
}

/** A received mail held on a fresh ticket of the owner's, from the owner's address. */
async function heldMail (w: AccessWorld): Promise<number> {
  const ticket = await w.fresh.ticket()
  const raw = Buffer.from(`From: ${w.owner.user.email}\r\nTo: support@example.com\r\nSubject: Matrix\r\n\r\nHeld.\r\n`)
  const id = await w.h.store.mail.createInbound({ dedupe_key: w.fresh.email(), message_id: null, sender: w.owner.user.email, recipient: null, subject: 'Matrix', raw })
  if (id === null) throw new Error('the held mail was not recorded')
  await w.h.store.mail.update(id, { status: 'held', ticket_id: ticket, error: 'Held for the access matrix.' })
  return id
}

/** A fresh single-sign-on provider (nothing is fetched from its issuer until someone signs in). */
async function ssoProvider (w: AccessWorld): Promise<number> {
  const slug = `m${w.fresh.email().replace(/\W/g, '').slice(0, 40).toLowerCase()}`
  const created = await w.h.store.sso.createProvider({
    slug, name: 'Matrix', issuer: 'https://sso.example.com', client_id: 'helpdesk', client_secret: null, scopes: 'openid', enabled: true,
    staff: true, customers: false, create_users: false, link_by_email: false, mapping: { claim: null, admin: [], agent: [], permissions: {}, categories: {} }
  })
  return created.id
}

function row (route: string, privileged: Privilege, expect: Expectation, request: AccessRow['request'], check?: AccessRow['check']): AccessRow {
  return { route, privileged, expect, request, ...(check !== undefined ? { check } : {}) }
}

/** Every person-shaped object (`id`, `type`, `first_name`) in a response body. */
function peopleIn (value: unknown, found: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) {
    for (const item of value) peopleIn(item, found)
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    if ('id' in record && 'type' in record && 'first_name' in record) found.push(record)
    for (const child of Object.values(record)) peopleIn(child, found)
  }
  return found
}

/**
 * CONTRACT §17: an embedded person carries `email`, null for a customer or anonymous caller
 * unless it is the caller; staff read every email.
 */
function emailsFollowContract (cell: Cell, body: unknown): string | null {
  const people = peopleIn(body)
  if (people.length === 0 && (cell.actor === 'owner' || cell.actor === 'other')) return 'no embedded person to check'
  for (const person of people) {
    if (!('email' in person)) return `person ${String(person.id)} without an email key`
    const visible = isStaff(cell) || person.id === cell.person?.user.id
    if (visible && typeof person.email !== 'string') return `person ${String(person.id)}'s email hidden from a caller who may read it`
    if (!visible && person.email !== null) return `person ${String(person.id)}'s email shown: ${String(person.email)}`
  }
  return null
}

/** `POST /tickets/bulk`'s one outcome: done for staff who see the ticket, "not found" for the agent outside its category. */
function bulkOutcomesFollowAccess (cell: Cell, body: unknown): string | null {
  const [outcome] = (body as { data: Array<{ status: string, error?: { code: string } }> }).data
  const expected = cell.actor === 'agent' ? 'HD_NOT_FOUND' : 'ok'
  const got = outcome?.status === 'ok' ? 'ok' : outcome?.error?.code
  return got === expected ? null : `bulk outcome ${String(got)}, expected ${expected}`
}

const isStaff = (cell: Cell): boolean => ['agent', 'privileged', 'admin'].includes(cell.actor)

// Columns:                  anon owner other agent priv admin
const EVERYONE: Expectation = [200, 200, 200, 200, 200, 200]
const SIGNED_IN: Expectation = [401, 200, 200, 200, 200, 200]
const ACCEPTED: Expectation = [202, 202, 202, 202, 202, 202]
const BAD_TOKEN: Expectation = [422, 422, 422, 422, 422, 422]
const SIGNED_IN_REFUSED: Expectation = [401, 422, 422, 422, 422, 422]
const NOT_FOUND: Expectation = [404, 404, 404, 404, 404, 404]
const ADMIN_CREATES: Expectation = [401, 403, 403, 403, 403, 201]
const SIGNED_IN_CREATES: Expectation = [401, 201, 201, 201, 201, 201]
const ADMIN_ONLY: Expectation = [401, 403, 403, 403, 403, 200]
const PERMITTED: Expectation = [401, 403, 403, 403, 200, 200]
const PERMITTED_CREATES: Expectation = [401, 403, 403, 403, 201, 201]
/** The owner's private ticket: its owner and staff who can see it; others are told it does not exist. */
const OWNER_AND_CATEGORY: Expectation = [401, 200, 404, 404, 200, 200]
/** A staff member's reply on the owner's ticket: the owner sees it but may not change it. */
const AUTHOR_ONLY: Expectation = [401, 403, 404, 404, 200, 200]
/** The owner's own notification or token: nobody else's business, administrators included. */
const OWNER_ONLY: Expectation = [401, 200, 404, 404, 404, 404]
/** The owner's public ticket: every signed-in caller who can see its category, and other customers. */
const PUBLIC_TICKET: Expectation = [401, 200, 200, 404, 200, 200]
/** A non-global canned response of the privileged agent. */
const CANNED_OWN: Expectation = [401, 403, 403, 404, 200, 200]

/**
 * Every route of the API and who may call it. The access-matrix test drives
 * each cell over HTTP, and fails when a registered route has no row here.
 */
export const accessTable: AccessRow[] = [
  row('GET /openapi.json', 'category', EVERYONE, () => ({ url: '/openapi.json' })),
  row('GET /health', 'category', EVERYONE, () => ({ url: '/health' })),
  row('GET /ready', 'category', EVERYONE, () => ({ url: '/ready' })),

  // Auth
  row('POST /auth/login', 'category', EVERYONE, ({ w, person }) => ({ url: '/auth/login', payload: { email: (person ?? w.owner).user.email, password: PASSWORD } })),
  row('POST /auth/register', 'category', [201, 201, 201, 201, 201, 201], ({ w }) => ({
    url: '/auth/register', payload: { first_name: 'New', last_name: 'Customer', email: w.fresh.email(), password: PASSWORD, password_confirmation: PASSWORD }
  })),
  row('POST /auth/logout', 'category', SIGNED_IN, async ({ w, person }) => ({
    url: '/auth/logout', ...(person !== null ? { token: (await w.fresh.token(person)).token } : {})
  })),
  row('GET /auth/me', 'category', SIGNED_IN, () => ({ url: '/auth/me' })),
  // The console's cookie session (bearer callers get their user and no CSRF token; logout without a cookie only clears it)
  row('POST /auth/session', 'category', EVERYONE, ({ w, person }) => ({ url: '/auth/session', payload: { email: (person ?? w.owner).user.email, password: PASSWORD } })),
  row('GET /auth/session', 'category', SIGNED_IN, () => ({ url: '/auth/session' })),
  row('DELETE /auth/session', 'category', EVERYONE, () => ({ url: '/auth/session' })),
  row('GET /auth/tokens', 'category', SIGNED_IN, () => ({ url: '/auth/tokens' })),
  row('POST /auth/tokens', 'category', SIGNED_IN_CREATES, () => ({ url: '/auth/tokens', payload: { name: 'cli' } })),
  row('DELETE /auth/tokens/:id', 'category', OWNER_ONLY, async ({ w }) => ({ url: `/auth/tokens/${(await w.fresh.token(w.owner)).id}` })),
  // A person's own sessions (password logins); ending another person's session is a 404, administrators included.
  row('GET /auth/sessions', 'category', SIGNED_IN, () => ({ url: '/auth/sessions' })),
  row('DELETE /auth/sessions', 'category', SIGNED_IN, () => ({ url: '/auth/sessions' })),
  row('DELETE /auth/sessions/:id', 'category', OWNER_ONLY, async ({ w }) => ({ url: `/auth/sessions/${(await w.fresh.session(w.owner)).id}` })),
  // Getting in without a password (docs/sign-in.md): anyone may ask; the answer never says whether the address is known.
  row('POST /auth/password/forgot', 'category', ACCEPTED, ({ w, person }) => ({ url: '/auth/password/forgot', payload: { email: (person ?? w.owner).user.email } })),
  row('POST /auth/magic-link', 'category', ACCEPTED, ({ w, person }) => ({ url: '/auth/magic-link', payload: { email: (person ?? w.owner).user.email } })),
  // Links and challenges: a made-up token is a 422 on `token` (or `challenge`) for everyone; who calls changes nothing.
  row('POST /auth/password/reset', 'category', BAD_TOKEN, () => ({ url: '/auth/password/reset', payload: { token: 'hd_made-up', password: 'new-password' } })),
  row('POST /auth/magic-link/session', 'category', BAD_TOKEN, () => ({ url: '/auth/magic-link/session', payload: { token: 'hd_made-up' } })),
  row('POST /auth/email/verify', 'category', BAD_TOKEN, () => ({ url: '/auth/email/verify', payload: { token: 'hd_made-up' } })),
  row('POST /auth/two-factor/enrolment-challenge', 'category', BAD_TOKEN, () => ({ url: '/auth/two-factor/enrolment-challenge', payload: { challenge: 'hd_made-up' } })),
  row('POST /auth/session/two-factor', 'category', BAD_TOKEN, () => ({ url: '/auth/session/two-factor', payload: { challenge: 'hd_made-up', code: '123456' } })),
  row('POST /auth/login/two-factor', 'category', BAD_TOKEN, () => ({ url: '/auth/login/two-factor', payload: { challenge: 'hd_made-up', code: '123456' } })),
  // Your own address and second factor: signed in; everyone here is confirmed and without two-factor, hence the 422s.
  row('POST /auth/email/verification', 'category', SIGNED_IN_REFUSED, () => ({ url: '/auth/email/verification' })),
  row('GET /auth/two-factor', 'category', SIGNED_IN, () => ({ url: '/auth/two-factor' })),
  row('POST /auth/two-factor/enrolment', 'category', SIGNED_IN, () => ({ url: '/auth/two-factor/enrolment' })),
  row('POST /auth/two-factor/confirmation', 'category', SIGNED_IN_REFUSED, () => ({ url: '/auth/two-factor/confirmation', payload: { code: 'not-a-code' } })),
  row('POST /auth/two-factor/recovery-codes', 'category', SIGNED_IN_REFUSED, () => ({ url: '/auth/two-factor/recovery-codes', payload: { code: '123456' } })),
  row('DELETE /auth/two-factor', 'category', SIGNED_IN_REFUSED, () => ({ url: '/auth/two-factor', payload: { code: '123456' } })),
  row('DELETE /auth/two-factor/users/:userId', 'category', ADMIN_ONLY, ({ w }) => ({ url: `/auth/two-factor/users/${w.owner.user.id}` })),
  // Single sign-on: the buttons are public; the flow's redirects answer 404 for an unknown provider; providers are administrators'.
  row('GET /auth/sso/providers', 'category', EVERYONE, () => ({ url: '/auth/sso/providers' })),
  row('GET /auth/sso/:slug/start', 'category', NOT_FOUND, () => ({ url: '/auth/sso/nowhere/start' })),
  row('GET /auth/sso/:slug/callback', 'category', NOT_FOUND, () => ({ url: '/auth/sso/nowhere/callback?code=x&state=y' })),
  row('GET /sso/providers', 'category', ADMIN_ONLY, () => ({ url: '/sso/providers' })),
  row('POST /sso/providers', 'category', ADMIN_CREATES, ({ w }) => ({
    url: '/sso/providers', payload: { slug: `p${w.fresh.email().replace(/\W/g, '').slice(0, 40).toLowerCase()}`, name: 'Matrix', issuer: 'https://sso.example.com', client_id: 'helpdesk' }
  })),
  row('GET /sso/providers/:id', 'category', ADMIN_ONLY, async ({ w }) => ({ url: `/sso/providers/${await ssoProvider(w)}` })),
  row('PATCH /sso/providers/:id', 'category', ADMIN_ONLY, async ({ w }) => ({ url: `/sso/providers/${await ssoProvider(w)}`, payload: { enabled: false } })),
  row('DELETE /sso/providers/:id', 'category', ADMIN_ONLY, async ({ w }) => ({ url: `/sso/providers/${await ssoProvider(w)}` })),
  // Administrator settings (database-kept: every instance reads the same).
  row('GET /settings', 'category', ADMIN_ONLY, () => ({ url: '/settings' })),
  row('GET /audit-log', 'category', ADMIN_ONLY, () => ({ url: '/audit-log' })),
  row('PATCH /settings', 'category', ADMIN_ONLY, () => ({ url: '/settings', payload: { 'auth.sso_only_staff': false } })),
  // Reports: staff (agents see their categories' figures), unless reports.admins_only.
  row('GET /reports/:metric', 'category', [401, 403, 403, 200, 200, 200], () => ({ url: '/reports/volume?from=2026-01-01&to=2026-01-31' })),
  row('GET /reports/tickets', 'category', [401, 403, 403, 200, 200, 200], () => ({ url: '/reports/tickets?from=2026-01-01&to=2026-01-31' })),

  // Customers: administrators and agents with manage_customers; the owner is the customer the row reads.
  row('GET /customers', 'manage_customers', PERMITTED, () => ({ url: '/customers' })),
  row('GET /customers/:id', 'manage_customers', PERMITTED, ({ w }) => ({ url: `/customers/${w.owner.user.id}` })),
  row('POST /customers', 'manage_customers', PERMITTED_CREATES, ({ w }) => ({
    url: '/customers', payload: { first_name: 'New', last_name: 'Customer', email: w.fresh.email(), password: PASSWORD, password_confirmation: PASSWORD }
  })),
  row('PATCH|POST /customers/:id', 'manage_customers', PERMITTED, ({ w }) => ({ url: `/customers/${w.owner.user.id}`, payload: { company: 'Acme' } })),
  row('DELETE /customers/:id', 'manage_customers', PERMITTED, async ({ w }) => ({ url: `/customers/${await w.fresh.customer()}` })),
  row('GET /customers/:id/notifications', 'manage_customers', PERMITTED, ({ w }) => ({ url: `/customers/${w.owner.user.id}/notifications` })),
  row('PATCH|POST|PUT /customers/:id/notifications', 'manage_customers', PERMITTED, ({ w }) => ({
    url: `/customers/${w.owner.user.id}/notifications`, payload: { new_ticket: true }
  })),
  row('GET /customers/:id/notes', 'manage_customers', PERMITTED, ({ w }) => ({ url: `/customers/${w.owner.user.id}/notes` })),
  row('POST /customers/:id/notes', 'manage_customers', PERMITTED_CREATES, ({ w }) => ({ url: `/customers/${w.owner.user.id}/notes`, payload: { note: 'Called us.' } })),
  row('DELETE /customers/:customer_id/notes/:note_id', 'manage_customers', PERMITTED, async ({ w }) => ({
    url: `/customers/${w.owner.user.id}/notes/${await w.fresh.note()}`
  })),

  // Agents: administrators only, whatever an agent's permissions.
  row('GET /agents', 'all', ADMIN_ONLY, () => ({ url: '/agents' })),
  row('GET /agents/:id', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/agents/${w.staffTarget.user.id}` })),
  row('POST /agents', 'all', [401, 403, 403, 403, 403, 201], ({ w }) => ({
    url: '/agents', payload: { first_name: 'New', last_name: 'Agent', email: w.fresh.email(), password: PASSWORD, password_confirmation: PASSWORD }
  })),
  row('PATCH|POST|PUT /agents/:id', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/agents/${w.staffTarget.user.id}`, payload: { last_name: 'Renamed' } })),
  row('DELETE /agents/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/agents/${await w.fresh.agent()}` })),
  row('GET /agents/:id/permissions', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/agents/${w.staffTarget.user.id}/permissions` })),
  row('PATCH|POST|PUT /agents/:id/permissions', 'all', ADMIN_ONLY, ({ w }) => ({
    url: `/agents/${w.staffTarget.user.id}/permissions`, payload: { delete_tickets: false }
  })),
  row('GET /agents/:id/notifications', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/agents/${w.staffTarget.user.id}/notifications` })),
  row('PATCH|POST|PUT /agents/:id/notifications', 'all', ADMIN_ONLY, ({ w }) => ({
    url: `/agents/${w.staffTarget.user.id}/notifications`, payload: { new_comment: true }
  })),
  row('GET /agents/:id/coverage', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/agents/${w.staffTarget.user.id}/coverage` })),
  row('PUT|PATCH /agents/:id/coverage', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/agents/${w.staffTarget.user.id}/coverage`, payload: { all_categories: false } })),
  row('GET /agents/:id/categories', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/agents/${w.staffTarget.user.id}/categories` })),
  row('PUT /agents/:id/categories', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/agents/${w.staffTarget.user.id}/categories`, payload: { categories: [] } })),

  // Categories: anyone signed in reads; administrators manage.
  row('GET /categories', 'all', SIGNED_IN, () => ({ url: '/categories' })),
  row('GET /categories/:id', 'all', SIGNED_IN, ({ w }) => ({ url: `/categories/${w.category}` })),
  row('POST /categories', 'all', [401, 403, 403, 403, 403, 201], () => ({ url: '/categories', payload: { name: 'New' } })),
  row('POST /categories/order', 'all', ADMIN_ONLY, ({ w }) => ({ url: '/categories/order', payload: { order: [w.category, w.spareCategory] } })),
  row('PATCH|POST|PUT /categories/:id', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/categories/${w.spareCategory}`, payload: { name: 'Spare' } })),
  row('DELETE /categories/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/categories/${await w.fresh.category()}` })),

  // Notifications: the caller's own; another's id is missing, not forbidden.
  row('GET /notifications', 'category', SIGNED_IN, () => ({ url: '/notifications' })),
  // `poll=true`: the stream answers what is pending and ends, so one request per cell suffices.
  row('GET /events', 'category', SIGNED_IN, () => ({ url: '/events?poll=true' })),
  row('GET /notifications/:id', 'category', OWNER_ONLY, ({ w }) => ({ url: `/notifications/${w.notification}` })),
  row('POST /notifications/:id/read', 'category', OWNER_ONLY, ({ w }) => ({ url: `/notifications/${w.notification}/read` })),
  row('DELETE /notifications/:id/read', 'category', OWNER_ONLY, ({ w }) => ({ url: `/notifications/${w.notification}/read` })),
  row('GET /notifications/:id/unread', 'category', SIGNED_IN, ({ w }) => ({ url: `/notifications/${w.notification}/unread` })),
  row('DELETE /notifications/:id/unread', 'category', SIGNED_IN, ({ w }) => ({ url: `/notifications/${w.notification}/unread` })),

  // Imports: administrators; nobody else learns a job exists.
  row('GET /imports/:id', 'all', [401, 404, 404, 404, 404, 200], ({ w }) => ({ url: `/imports/${w.importJob}` })),
  row('POST /imports', 'all', [401, 403, 403, 403, 403, 202], () => {
    const body = uploadBody('{"type": "category", "id": "matrix", "name": "Imported"}\n', 'one.jsonl')
    return { url: '/imports', payload: body.payload, headers: body.headers }
  }),

  // Mail: the records are for administrators; raw mail is posted by administrators or a caller with the inbound secret
  // (not configured here); unsubscribing needs the token of a mail, so an unknown one is missing for everyone.
  row('GET /mail/messages', 'all', ADMIN_ONLY, () => ({ url: '/mail/messages' })),
  row('GET /mail/inbound', 'all', ADMIN_ONLY, () => ({ url: '/mail/inbound' })),
  row('GET /mail/inbound/:id/raw', 'all', ADMIN_ONLY, async ({ w }) => {
    const id = await w.h.store.mail.createInbound({
      dedupe_key: w.fresh.email(), message_id: null, sender: 'x@example.com', recipient: null, subject: 'Matrix', raw: Buffer.from('Subject: Matrix\r\n\r\nx\r\n')
    })
    return { url: `/mail/inbound/${id}/raw` }
  }),
  row('POST /mail/inbound', 'all', [401, 403, 403, 403, 403, 200], () => ({
    url: '/mail/inbound', headers: { 'content-type': 'message/rfc822' }, payload: 'From: x@example.com\r\nTo: y@example.com\r\nSubject: Matrix\r\n\r\nHello.\r\n'
  })),
  // Held mail (a sender not verified) is released or discarded by administrators.
  row('POST /mail/inbound/:id/release', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/mail/inbound/${await heldMail(w)}/release`, payload: {} })),
  row('POST /mail/inbound/:id/discard', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/mail/inbound/${await heldMail(w)}/discard` })),
  row('POST /mail/unsubscribe/:token', 'all', [404, 404, 404, 404, 404, 404], () => ({ url: `/mail/unsubscribe/${'0'.repeat(40)}` })),

  // Custom fields: administrators only.
  row('GET /fields', 'all', ADMIN_ONLY, () => ({ url: '/fields' })),
  row('GET /fields/:id', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/fields/${w.field}` })),
  row('POST /fields', 'all', [401, 403, 403, 403, 403, 201], () => ({ url: '/fields', payload: { title: 'Order number', type: 'text' } })),
  row('PATCH|POST /fields/:id', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/fields/${w.field}`, payload: { placeholder: 'e.g. 42' } })),
  row('DELETE /fields/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/fields/${await w.fresh.field()}` })),

  // Canned responses: staff; a non-global one is its creator's (the privileged agent) and administrators'.
  row('GET /canned-responses', 'category', [401, 403, 403, 200, 200, 200], () => ({ url: '/canned-responses' })),
  row('GET /canned-responses/:id', 'category', CANNED_OWN, ({ w }) => ({ url: `/canned-responses/${w.cannedResponse}` })),
  row('POST /canned-responses', 'category', [401, 403, 403, 201, 201, 201], () => ({ url: '/canned-responses', payload: { name: 'Hi', body: 'Hello', global: false } })),
  row('PATCH|POST /canned-responses/:id', 'category', CANNED_OWN, ({ w }) => ({ url: `/canned-responses/${w.cannedResponse}`, payload: { name: 'Greeting' } })),
  row('DELETE /canned-responses/:id', 'category', CANNED_OWN, async ({ w }) => ({ url: `/canned-responses/${await w.fresh.cannedResponse(false)}` })),
  // A global one: every agent sees it, only its creator and administrators delete it.
  row('DELETE /canned-responses', 'category', [401, 403, 403, 403, 200, 200], async ({ w }) => ({
    url: '/canned-responses', payload: { responses: [await w.fresh.cannedResponse(true)] }
  })),
  row('GET /canned-responses/:id/placeholders/:ticket_id', 'category', CANNED_OWN, ({ w }) => ({
    url: `/canned-responses/${w.cannedResponse}/placeholders/${w.ticket}`
  })),

  // Macros: staff; a personal macro is its owner's alone (administrators included), a shared one administrators manage.
  row('GET /macros', 'category', [401, 403, 403, 200, 200, 200], () => ({ url: '/macros' })),
  row('GET /macros/:id', 'category', [401, 403, 403, 404, 200, 404], async ({ w }) => ({
    url: `/macros/${(await w.h.helpdesk.macros.create(w.privileged.category.user, { name: 'Mine', actions: [{ type: 'set_status', value: 2 }] })).id}`
  })),
  row('POST /macros', 'category', [401, 403, 403, 201, 201, 201], () => ({ url: '/macros', payload: { name: 'Mine', actions: [{ type: 'set_status', value: 2 }] } })),
  row('PATCH|POST /macros/:id', 'category', [401, 403, 403, 403, 403, 200], async ({ w }) => ({
    url: `/macros/${(await w.h.helpdesk.macros.create(w.admin.user, { name: 'Shared', shared: true, actions: [{ type: 'set_status', value: 2 }] })).id}`,
    payload: { name: 'Renamed' }
  })),
  row('DELETE /macros/:id', 'category', [401, 403, 403, 403, 403, 200], async ({ w }) => ({
    url: `/macros/${(await w.h.helpdesk.macros.create(w.admin.user, { name: 'Shared', shared: true, actions: [{ type: 'set_status', value: 2 }] })).id}`
  })),
  row('GET /views', 'category', [401, 403, 403, 200, 200, 200], () => ({ url: '/views?include=count' })),
  row('GET /views/:id', 'category', [401, 403, 403, 404, 200, 404], async ({ w }) => ({
    url: `/views/${(await w.h.helpdesk.views.create(w.privileged.category.user, { name: 'Mine', filters: { status: '1' } })).id}`
  })),
  row('POST /views', 'category', [401, 403, 403, 201, 201, 201], () => ({ url: '/views', payload: { name: 'Mine', filters: { status: '1,2' } } })),
  row('PATCH|POST /views/:id', 'category', [401, 403, 403, 403, 200, 200], async ({ w }) => ({
    url: `/views/${(await w.h.helpdesk.views.create(w.privileged.category.user, { name: 'Team', shared: true })).id}`,
    payload: { name: 'Team view' }
  })),
  row('DELETE /views/:id', 'category', [401, 403, 403, 403, 200, 200], async ({ w }) => ({
    url: `/views/${(await w.h.helpdesk.views.create(w.privileged.category.user, { name: 'Team', shared: true })).id}`
  })),
  row('POST /tickets/:id/macros/:macro_id', 'category', [401, 403, 403, 404, 200, 200], async ({ w }) => ({
    url: `/tickets/${await w.fresh.ticket()}/macros/${(await w.h.helpdesk.macros.create(w.admin.user, { name: 'Urgent', shared: true, actions: [{ type: 'set_priority', value: 'urgent' }] })).id}`
  })),

  // Triggers: administrators alone.
  row('GET /triggers', 'all', ADMIN_ONLY, () => ({ url: '/triggers' })),
  row('GET /triggers/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/triggers/${(await freshTrigger(w))}` })),
  row('POST /triggers', 'all', [401, 403, 403, 403, 403, 201], () => ({ url: '/triggers', payload: { name: 'T', active: false, events: ['ticket.created'], actions: [{ type: 'set_priority', value: 'high' }] } })),
  row('POST /triggers/dry-run', 'all', ADMIN_ONLY, () => ({ url: '/triggers/dry-run', payload: { conditions: { all: [{ field: 'priority', operator: 'is', value: 'high' }] } } })),
  row('PUT /triggers/order', 'all', ADMIN_ONLY, async ({ w }) => ({ url: '/triggers/order', payload: { ids: [await freshTrigger(w)] } })),
  row('PATCH|POST /triggers/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/triggers/${await freshTrigger(w)}`, payload: { name: 'Renamed' } })),
  row('DELETE /triggers/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/triggers/${await freshTrigger(w)}` })),

  // Automations: administrators alone.
  row('GET /automations', 'all', ADMIN_ONLY, () => ({ url: '/automations' })),
  row('GET /automations/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/automations/${await freshAutomation(w)}` })),
  row('POST /automations', 'all', [401, 403, 403, 403, 403, 201], () => ({ url: '/automations', payload: { name: 'A', active: false, time_condition: { anchor: 'created', hours: 1 }, actions: [{ type: 'set_priority', value: 'high' }] } })),
  row('PATCH|POST /automations/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/automations/${await freshAutomation(w)}`, payload: { name: 'Renamed' } })),
  row('DELETE /automations/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/automations/${await freshAutomation(w)}` })),

  // Assignment rules: administrators; availability: staff read it, each agent (or an administrator) switches it.
  row('GET /categories/:id/assignment', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/categories/${w.category}/assignment` })),
  row('PUT /categories/:id/assignment', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/categories/${w.category}/assignment`, payload: { mode: 'manual' } })),
  row('GET /agents/:id/availability', 'all', [401, 403, 403, 200, 200, 200], ({ w }) => ({ url: `/agents/${w.admin.user.id}/availability` })),
  row('PUT /agents/:id/availability', 'all', ADMIN_ONLY, ({ w }) => ({ url: `/agents/${w.admin.user.id}/availability`, payload: { available: true } })),
  row('GET /auth/me/availability', 'all', [401, 404, 404, 200, 200, 200], () => ({ url: '/auth/me/availability' })),
  row('PUT /auth/me/availability', 'all', [401, 404, 404, 200, 200, 200], () => ({ url: '/auth/me/availability', payload: { available: true } })),

  // Knowledge base: read by visibility (the collection is for logged-in users, the article a draft); managed with manage_articles.
  row('GET /article-collections', 'manage_articles', EVERYONE, () => ({ url: '/article-collections' })),
  row('GET /article-collections/:id', 'manage_articles', [404, 200, 200, 200, 200, 200], ({ w }) => ({ url: `/article-collections/${w.collection}` })),
  row('POST /article-collections', 'manage_articles', PERMITTED_CREATES, ({ w }) => ({
    url: '/article-collections', payload: { category_id: w.category, name: 'New', visibility: 2 }
  })),
  row('POST /article-collections/order', 'manage_articles', PERMITTED, ({ w }) => ({ url: '/article-collections/order', payload: { order: [w.collection] } })),
  row('POST /article-collections/visibility', 'manage_articles', PERMITTED, ({ w }) => ({
    url: '/article-collections/visibility', payload: { collections: [w.collection], visibility: 2 }
  })),
  row('POST /article-collections/category', 'manage_articles', PERMITTED, ({ w }) => ({
    url: '/article-collections/category', payload: { collections: [w.collection], category: w.category }
  })),
  row('POST|PATCH /article-collections/:id', 'manage_articles', PERMITTED, ({ w }) => ({ url: `/article-collections/${w.collection}`, payload: { name: 'Guides' } })),
  row('DELETE /article-collections/:id', 'manage_articles', PERMITTED, async ({ w }) => ({ url: `/article-collections/${await w.fresh.collection()}` })),
  row('GET /articles', 'manage_articles', EVERYONE, () => ({ url: '/articles' })),
  row('GET /articles/:id', 'manage_articles', [404, 404, 404, 200, 200, 200], ({ w }) => ({ url: `/articles/${w.draft}` })),
  // A published article for signed-in readers: its author's email for staff only.
  row('GET /articles/:id', 'manage_articles', [404, 200, 200, 200, 200, 200], ({ w }) => ({ url: `/articles/${w.published}?include=author` }), emailsFollowContract),
  row('POST /articles', 'manage_articles', PERMITTED_CREATES, ({ w }) => ({
    url: '/articles', payload: { title: 'New', body: 'Text.', category: w.category, collection: w.collection, status: 'draft' }
  })),
  row('POST /articles/order', 'manage_articles', PERMITTED, ({ w }) => ({ url: '/articles/order', payload: { order: [w.draft] } })),
  row('PATCH|POST /articles/:id', 'manage_articles', PERMITTED, ({ w }) => ({ url: `/articles/${w.draft}`, payload: { title: 'Renamed' } })),
  row('DELETE /articles/:id', 'manage_articles', PERMITTED, async ({ w }) => ({ url: `/articles/${await w.fresh.article()}` })),

  // Tickets: the owner and the staff of its category; a private ticket does not exist for anyone else.
  row('GET /tickets', 'category', SIGNED_IN, () => ({ url: '/tickets' })),
  row('GET /tickets/:id', 'category', OWNER_AND_CATEGORY, ({ w }) => ({ url: `/tickets/${w.ticket}` })),
  row('GET /tickets/:id', 'view_all_tickets', OWNER_AND_CATEGORY, ({ w }) => ({ url: `/tickets/${w.ticket}` })),
  // A public ticket with its people: another customer reads it, without anybody's email.
  row('GET /tickets/:id', 'category', PUBLIC_TICKET, ({ w }) => ({ url: `/tickets/${w.publicTicket}?include=user,creator,agent` }), emailsFollowContract),
  row('GET /tickets', 'category', SIGNED_IN, () => ({ url: '/tickets?include=user,creator,agent&per_page=100' }), emailsFollowContract),
  row('POST /tickets', 'category', SIGNED_IN_CREATES, (cell) => ({
    url: '/tickets',
    payload: { category: cell.w.category, title: 'Broken', body: 'It broke.', ...(isStaff(cell) ? { customer_id: cell.w.owner.user.id } : {}) }
  })),
  row('POST|PATCH /tickets/:id', 'category', OWNER_AND_CATEGORY, async ({ w }) => ({ url: `/tickets/${await w.fresh.ticket()}`, payload: { title: 'Renamed' } })),
  row('PUT /tickets/:id/privacy', 'category', OWNER_AND_CATEGORY, async ({ w }) => ({ url: `/tickets/${await w.fresh.ticket()}/privacy` })),
  // A public ticket: the other customer reads it but may not make it private.
  row('DELETE /tickets/:id/privacy', 'category', [401, 200, 403, 404, 200, 200], async ({ w }) => ({ url: `/tickets/${await w.fresh.ticket({ private: false })}/privacy` })),
  // Presence (collision detection): staff who may see the ticket; its owner sees it, so 403; others 404.
  row('GET /tickets/:id/presence', 'category', [401, 403, 404, 404, 200, 200], ({ w }) => ({ url: `/tickets/${w.ticket}/presence` })),
  row('PUT /tickets/:id/presence', 'category', [401, 403, 404, 404, 200, 200], ({ w }) => ({ url: `/tickets/${w.ticket}/presence`, payload: { state: 'viewing' } })),
  row('PUT /tickets/:id/presence', 'view_all_tickets', [401, 403, 403, 404, 200, 200], ({ w }) => ({ url: `/tickets/${w.publicTicket}/presence`, payload: { state: 'typing' } })),
  row('DELETE /tickets/:id/presence', 'category', [401, 403, 404, 404, 200, 200], ({ w }) => ({ url: `/tickets/${w.ticket}/presence` })),
  row('PUT /tickets/:id/agents', 'assign_tickets', [401, 403, 404, 404, 200, 200], async ({ w }) => ({
    url: `/tickets/${await w.fresh.ticket()}/agents`, payload: { agent: w.privileged.category.user.id }
  })),
  row('PUT /tickets/:id/agents', 'category', [401, 403, 404, 404, 403, 200], async ({ w }) => ({
    url: `/tickets/${await w.fresh.ticket()}/agents`, payload: { agent: w.privileged.category.user.id }
  })),
  row('DELETE /tickets/:id/agents', 'assign_tickets', [401, 403, 404, 404, 200, 200], async ({ w }) => ({ url: `/tickets/${await w.fresh.ticket()}/agents` })),
  row('DELETE /tickets/:id/agents', 'category', [401, 403, 404, 404, 403, 200], async ({ w }) => ({ url: `/tickets/${await w.fresh.ticket()}/agents` })),
  row('GET /tickets/:id/assignees', 'assign_tickets', [401, 403, 404, 404, 200, 200], ({ w }) => ({ url: `/tickets/${w.ticket}/assignees` })),
  row('GET /tickets/:id/assignees', 'category', [401, 403, 404, 404, 403, 200], ({ w }) => ({ url: `/tickets/${w.ticket}/assignees` })),
  row('DELETE /tickets/:id', 'delete_tickets', [401, 403, 404, 404, 200, 200], async ({ w }) => ({ url: `/tickets/${await w.fresh.ticket()}` })),
  // Bulk actions are staff's: customers are refused whole; each ticket is then checked as its own route would, so the agent
  // outside the category gets 200 with a "not found" outcome for it and the ticket stays as it was.
  row('POST /tickets/bulk', 'category', [401, 403, 403, 200, 200, 200], async ({ w }) => ({
    url: '/tickets/bulk', payload: { ids: [await w.fresh.ticket()], action: { status: 2 } }
  }), bulkOutcomesFollowAccess),
  // Merge and split: staff who see both tickets; the owner sees them but may not (403); others do not see them (404).
  row('POST /tickets/:id/merge', 'category', [401, 403, 404, 404, 200, 200], async ({ w }) => ({
    url: `/tickets/${await w.fresh.ticket()}/merge`, payload: { target_id: await w.fresh.ticket() }
  })),
  row('POST /tickets/:id/unmerge', 'category', [401, 403, 404, 404, 200, 200], async ({ w }) => {
    const source = await w.fresh.ticket()
    await w.h.helpdesk.ticketMerges.merge(w.admin.user, source, { target_id: await w.fresh.ticket() })
    return { url: `/tickets/${source}/unmerge` }
  }),
  row('POST /tickets/:id/split', 'category', [401, 403, 404, 404, 201, 201], async ({ w }) => {
    const ticket = await w.fresh.ticket()
    const comment = await w.h.helpdesk.comments.create(w.admin.user, ticket, { body: 'Split me.', type: 1 })
    return { url: `/tickets/${ticket}/split`, payload: { comment_ids: [comment.id] } }
  }),
  // History: the owner (public changes) and staff who see the ticket; another customer reading a public ticket gets 404.
  row('GET /tickets/:id/history', 'category', OWNER_AND_CATEGORY, ({ w }) => ({ url: `/tickets/${w.ticket}/history` })),
  row('GET /tickets/:id/history', 'category', [401, 200, 404, 404, 200, 200], ({ w }) => ({ url: `/tickets/${w.publicTicket}/history` })),
  // Satisfaction: the owner and staff see a ticket's ratings (another customer reading a public ticket is refused); only the owner rates.
  row('GET /tickets/:id/satisfaction', 'category', OWNER_AND_CATEGORY, ({ w }) => ({ url: `/tickets/${w.ticket}/satisfaction` })),
  row('GET /tickets/:id/satisfaction', 'category', [401, 200, 403, 404, 200, 200], ({ w }) => ({ url: `/tickets/${w.publicTicket}/satisfaction` })),
  row('PUT /tickets/:id/satisfaction', 'category', [401, 200, 404, 404, 403, 403], async ({ w }) => {
    const id = await w.fresh.ticket()
    await w.h.helpdesk.tickets.update(w.admin.user, id, { status: 3 })
    return { url: `/tickets/${id}/satisfaction`, payload: { rating: 'good' } }
  }),
  // A closing mail's link is its own authority: a made-up token is not one of ours, whoever sends it.
  row('POST /satisfaction/link', 'all', NOT_FOUND, () => ({ url: '/satisfaction/link', payload: { token: `1.1.1.1.1.${'0'.repeat(32)}` } })),
  row('PUT /satisfaction/link', 'all', NOT_FOUND, () => ({ url: '/satisfaction/link', payload: { token: `1.1.1.1.1.${'0'.repeat(32)}`, rating: 'good' } })),

  // Comments follow their ticket; changing one is for its author (the privileged agent) and administrators.
  row('GET /tickets/:ticket_id/comments', 'category', OWNER_AND_CATEGORY, ({ w }) => ({ url: `/tickets/${w.ticket}/comments` })),
  row('POST /tickets/:ticket_id/comments', 'category', [401, 201, 404, 404, 201, 201], ({ w }) => ({
    url: `/tickets/${w.ticket}/comments`, payload: { body: 'More.', type: 1, private: false }
  })),
  row('GET /tickets/:ticket_id/comments', 'category', PUBLIC_TICKET, ({ w }) => ({ url: `/tickets/${w.publicTicket}/comments?include=user` }), emailsFollowContract),
  row('GET /comments/:id', 'category', OWNER_AND_CATEGORY, ({ w }) => ({ url: `/comments/${w.reply}` })),
  row('PATCH /comments/:id', 'category', AUTHOR_ONLY, ({ w }) => ({ url: `/comments/${w.reply}`, payload: { body: 'Edited.' } })),
  row('DELETE /comments/:id', 'category', AUTHOR_ONLY, async ({ w }) => ({ url: `/comments/${await w.fresh.reply()}` })),
  row('PUT /comments/:id/privacy', 'category', AUTHOR_ONLY, async ({ w }) => ({ url: `/comments/${await w.fresh.reply({ private: true })}/privacy` })),
  row('DELETE /comments/:id/privacy', 'category', AUTHOR_ONLY, async ({ w }) => ({ url: `/comments/${await w.fresh.reply()}/privacy` })),

  // Drafts: each person keeps their own on a ticket they may comment on; no one reads another's (the check).
  row('PUT /tickets/:ticket_id/draft', 'category', OWNER_AND_CATEGORY, ({ w, actor }) => ({
    url: `/tickets/${w.ticket}/draft`, payload: { body: `Draft of ${actor}.`, type: 1, attachments: [] }
  }), ({ actor }, body) => (body as { data: { body: string } }).data.body === `Draft of ${actor}.` ? null : 'saved another draft than the caller\'s'),
  row('GET /tickets/:ticket_id/draft', 'category', OWNER_AND_CATEGORY, ({ w }) => ({ url: `/tickets/${w.ticket}/draft` }), ({ actor }, body) => {
    const draft = (body as { data: { body: string } | null }).data
    return draft === null || draft.body === `Draft of ${actor}.` ? null : `read someone else's draft: ${draft.body}`
  }),
  row('GET /drafts', 'category', SIGNED_IN, () => ({ url: '/drafts?include=ticket' }), ({ actor }, body) => {
    const others = (body as { data: Array<{ body: string }> }).data.filter((draft) => draft.body !== `Draft of ${actor}.`)
    return others.length === 0 ? null : `listed someone else's drafts: ${others.map((d) => d.body).join(', ')}`
  }),
  row('DELETE /tickets/:ticket_id/draft', 'category', OWNER_AND_CATEGORY, ({ w }) => ({ url: `/tickets/${w.ticket}/draft` })),

  // Attachments: the uploader (the owner) and staff see an unlinked upload; its uploader and administrators delete it.
  row('POST /attachments', 'category', SIGNED_IN_CREATES, () => {
    const body = uploadBody()
    return { url: '/attachments', payload: body.payload, headers: body.headers }
  }),
  row('GET /attachments/:id', 'category', [401, 200, 404, 200, 200, 200], ({ w }) => ({ url: `/attachments/${w.attachment}` })),
  row('GET /attachments/:id/download', 'category', [401, 200, 404, 200, 200, 200], ({ w }) => ({ url: `/attachments/${w.attachment}/download` })),
  row('DELETE /attachments/:id', 'category', [401, 200, 404, 403, 403, 200], async ({ w }) => ({ url: `/attachments/${await w.fresh.attachment()}` })),

  // SLA calendars and policies: administrators only; a ticket's clocks: staff who see the ticket.
  row('GET /sla/calendars', 'all', ADMIN_ONLY, () => ({ url: '/sla/calendars' })),
  row('GET /sla/calendars/:id', 'all', ADMIN_ONLY, () => ({ url: '/sla/calendars/1' })),
  row('POST /sla/calendars', 'all', [401, 403, 403, 403, 403, 201], () => ({ url: '/sla/calendars', payload: { name: 'Matrix', time_zone: 'UTC', twenty_four_seven: true } })),
  row('PATCH /sla/calendars/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/sla/calendars/${await freshCalendar(w)}`, payload: { name: 'Edited' } })),
  row('DELETE /sla/calendars/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/sla/calendars/${await freshCalendar(w)}` })),
  row('POST /sla/calendars/:id/holidays/ical', 'all', ADMIN_ONLY, async ({ w }) => ({
    url: `/sla/calendars/${await freshCalendar(w)}/holidays/ical`,
    payload: { ical: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART;VALUE=DATE:20261225\r\nSUMMARY:X\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n', from_year: 2026, to_year: 2026 }
  })),
  row('GET /sla/policies', 'all', ADMIN_ONLY, () => ({ url: '/sla/policies' })),
  row('GET /sla/policies/:id', 'all', ADMIN_ONLY, () => ({ url: '/sla/policies/1' })),
  row('POST /sla/policies', 'all', [401, 403, 403, 403, 403, 201], () => ({ url: '/sla/policies', payload: { name: 'Matrix', calendar_id: 1 } })),
  row('PATCH /sla/policies/:id', 'all', ADMIN_ONLY, () => ({ url: '/sla/policies/1', payload: { warning_minutes: 30 } })),
  row('DELETE /sla/policies/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/sla/policies/${(await w.h.store.sla.createPolicy({
    name: 'Doomed', conditions: {}, first_response_minutes: null, next_response_minutes: null, resolution_minutes: null, calendar_id: 1, warning_minutes: null, warnings_follow_calendar: true
  })).id}` })),
  row('POST /sla/policies/order', 'all', ADMIN_ONLY, async ({ w }) => ({
    url: '/sla/policies/order', payload: { order: (await w.h.store.sla.allPolicies()).filter((p) => !p.is_default).map((p) => p.id) }
  })),
  row('GET /tickets/:id/sla', 'category', [401, 403, 403, 404, 200, 200], ({ w }) => ({ url: `/tickets/${w.ticket}/sla` })),

  // Webhooks: administrators only. Endpoints are made switched off (nothing is sent) at a public literal address.
  row('GET /webhooks', 'all', ADMIN_ONLY, () => ({ url: '/webhooks' })),
  row('POST /webhooks', 'all', [401, 403, 403, 403, 403, 201], () => ({ url: '/webhooks', payload: { url: HOOK_URL, events: ['*'], active: false } })),
  row('GET /webhooks/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/webhooks/${await freshWebhook(w)}` })),
  row('PATCH /webhooks/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/webhooks/${await freshWebhook(w)}`, payload: { description: 'Edited' } })),
  row('DELETE /webhooks/:id', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/webhooks/${await freshWebhook(w)}` })),
  row('POST /webhooks/:id/secret', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/webhooks/${await freshWebhook(w)}/secret`, payload: {} })),
  row('GET /webhooks/:id/deliveries', 'all', ADMIN_ONLY, async ({ w }) => ({ url: `/webhooks/${await freshWebhook(w)}/deliveries` })),
  row('POST /webhooks/:id/deliveries/:delivery_id/redeliver', 'all', [401, 403, 403, 403, 403, 202], async ({ w }) => {
    const id = await freshWebhook(w)
    const [eventId] = await w.h.store.eventLog.append([{ type: 'Tickets.TicketUpdated', actor_id: null, ticket_id: null, payload: {} }])
    const [deliveryId] = await w.h.store.webhooks.createDeliveries([{ endpoint_id: id, event_id: eventId!, event_type: 'Tickets.TicketUpdated' }])
    return { url: `/webhooks/${id}/deliveries/${deliveryId}/redeliver` }
  }),
  row('POST /webhooks/:id/redeliver', 'all', [401, 403, 403, 403, 403, 202], async ({ w }) => {
    const [eventId] = await w.h.store.eventLog.append([{ type: 'Tickets.TicketUpdated', actor_id: null, ticket_id: null, payload: {} }])
    return { url: `/webhooks/${await freshWebhook(w)}/redeliver`, payload: { event_id: eventId } }
  })
]

const HOOK_URL = 'https://93.184.216.34/hook'

async function freshTrigger (w: AccessWorld): Promise<number> {
  return (await w.h.helpdesk.triggers.create(w.admin.user, { name: 'Inactive', active: false, events: ['ticket.created'], actions: [{ type: 'set_priority', value: 'high' }] })).id
}

async function freshAutomation (w: AccessWorld): Promise<number> {
  return (await w.h.helpdesk.automations.create(w.admin.user, { name: 'Inactive', active: false, time_condition: { anchor: 'created', hours: 1 }, actions: [{ type: 'set_priority', value: 'high' }] })).id
}

async function freshWebhook (w: AccessWorld): Promise<number> {
  return (await w.h.helpdesk.webhooks.create(SYSTEM, { url: HOOK_URL, events: ['*'], active: false })).endpoint.id
}

/** `PATCH|POST /x` -> `PATCH /x`, `POST /x`. */
export function routesOf (accessRow: AccessRow): string[] {
  const [methods = '', path = ''] = accessRow.route.split(' ')
  return methods.split('|').map((method) => `${method} ${path}`)
}
