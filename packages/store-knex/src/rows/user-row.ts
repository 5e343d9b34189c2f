import { noPermissions, type NewUser, type Permissions, type PersonSummary, type User, type UserPatch } from '@helpdesk/core'
import { bool, parseJson } from './row-values.js'

export interface UserRow {
  id: number
  role: number
  first_name: string
  last_name: string
  email: string
  company: string | null
  status: number
  password_hash: string | null
  marketplace_username: string | null
  timezone: string | null
  permissions: string
  all_categories: number | boolean
  notify_new_ticket: number | boolean
  notify_new_comment: number | boolean
  notify_ticket_reassigned: number | boolean
  last_login_at: string | null
  created_at: string
  updated_at: string
}

/** The columns a User is built from: never `password_hash`. */
export const userColumns = [
  'id', 'role', 'first_name', 'last_name', 'email', 'company', 'status', 'marketplace_username', 'timezone',
  'permissions', 'all_categories', 'notify_new_ticket', 'notify_new_comment', 'notify_ticket_reassigned', 'last_login_at',
  'created_at', 'updated_at'
].map((c) => `users.${c}`)

/** The columns a PersonSummary (a user embedded by an include) is built from. */
export const personColumns = ['id', 'role', 'first_name', 'last_name', 'email'].map((c) => `users.${c}`)

export function personFromRow (row: Pick<UserRow, 'id' | 'role' | 'first_name' | 'last_name' | 'email'>): PersonSummary {
  return { id: row.id, role: row.role as PersonSummary['role'], first_name: row.first_name, last_name: row.last_name, email: row.email }
}

export function userFromRow (row: Omit<UserRow, 'password_hash'>): User {
  return {
    id: row.id,
    role: row.role as User['role'],
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    company: row.company,
    status: row.status as User['status'],
    marketplace_username: row.marketplace_username,
    timezone: row.timezone,
    permissions: { ...noPermissions(), ...parseJson<Partial<Permissions>>(row.permissions, {}) },
    all_categories: bool(row.all_categories),
    notifications: {
      new_ticket: bool(row.notify_new_ticket),
      new_comment: bool(row.notify_new_comment),
      ticket_reassigned: bool(row.notify_ticket_reassigned)
    },
    last_login_at: row.last_login_at,
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

export function rowFromNewUser (user: NewUser, now: string): Omit<UserRow, 'id'> {
  return {
    role: user.role,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    company: user.company ?? null,
    status: user.status,
    password_hash: user.password_hash,
    marketplace_username: user.marketplace_username ?? null,
    timezone: user.timezone ?? null,
    permissions: JSON.stringify(user.permissions ?? noPermissions()),
    all_categories: false,
    notify_new_ticket: true,
    notify_new_comment: true,
    notify_ticket_reassigned: true,
    last_login_at: null,
    created_at: now,
    updated_at: now
  }
}

export function rowFromUserPatch (patch: UserPatch, now: string): Partial<UserRow> {
  const { permissions, notifications, ...rest } = patch
  const row: Partial<UserRow> = { ...rest, updated_at: now }
  if (permissions !== undefined) row.permissions = JSON.stringify(permissions)
  if (notifications !== undefined) {
    row.notify_new_ticket = notifications.new_ticket
    row.notify_new_comment = notifications.new_comment
    row.notify_ticket_reassigned = notifications.ticket_reassigned
  }
  return row
}
