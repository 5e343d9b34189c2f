import type { DateTimeString } from '../time.js'

/** Stored role numbers: 1 and 2 are the spec's agent roles; customers are 3. */
export const Role = { Admin: 1, Agent: 2, Customer: 3 } as const
export type RoleNumber = typeof Role[keyof typeof Role]
export type UserType = 'admin' | 'agent' | 'customer'

export const UserStatus = { Active: 1, Unconfirmed: 2, Banned: 3 } as const
export type UserStatusNumber = typeof UserStatus[keyof typeof UserStatus]

/** Agent permission keys (CONTRACT §3). All default to false; administrators hold all. */
export const PERMISSION_KEYS = [
  'view_all_tickets', 'manage_customers', 'manage_articles', 'assign_tickets', 'delete_tickets'
] as const
export type PermissionKey = typeof PERMISSION_KEYS[number]
export type Permissions = Record<PermissionKey, boolean>

export const NOTIFICATION_SETTING_KEYS = ['new_ticket', 'new_comment', 'ticket_reassigned'] as const
export type NotificationSettingKey = typeof NOTIFICATION_SETTING_KEYS[number]
export type NotificationSettings = Record<NotificationSettingKey, boolean>

/** Field limits shared by every door (HTTP schemas, CLI, importers). */
export const LIMITS = {
  name: 250,
  password: 6,
  email: 255,
  company: 250,
  tokenName: 100
} as const

/** A user of any role. Secrets (password hash, token hashes) never live on this object. */
export interface User {
  id: number
  role: RoleNumber
  first_name: string
  last_name: string
  email: string
  company: string | null
  status: UserStatusNumber
  marketplace_username: string | null
  timezone: string | null
  permissions: Permissions
  /** Staff covering every category, present and future (migration 0027): they see and are assignable to every ticket. */
  all_categories: boolean
  notifications: NotificationSettings
  last_login_at: DateTimeString | null
  created_at: DateTimeString
  updated_at: DateTimeString
}

/**
 * What a resource embeds of a user (`include=user`, `author`, ...): the
 * person's name, email and role, read without their settings and permissions.
 */
export type PersonSummary = Pick<User, 'id' | 'role' | 'first_name' | 'last_name' | 'email'>

export function userType (user: Pick<User, 'role'>): UserType {
  return user.role === Role.Admin ? 'admin' : user.role === Role.Agent ? 'agent' : 'customer'
}

/** The role of a user type (the inverse of `userType`); null for any other word. */
export function roleFromType (type: UserType): RoleNumber
export function roleFromType (type: string): RoleNumber | null
export function roleFromType (type: string): RoleNumber | null {
  if (type === 'admin') return Role.Admin
  if (type === 'agent') return Role.Agent
  if (type === 'customer') return Role.Customer
  return null
}

export function isStaff (user: Pick<User, 'role'>): boolean {
  return user.role === Role.Admin || user.role === Role.Agent
}

export function isAdmin (user: Pick<User, 'role'>): boolean {
  return user.role === Role.Admin
}

export function noPermissions (): Permissions {
  return Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false])) as Permissions
}

export function defaultNotificationSettings (): NotificationSettings {
  return { new_ticket: true, new_comment: true, ticket_reassigned: true }
}

export function fullName (user: Pick<User, 'first_name' | 'last_name'>): string {
  return `${user.first_name} ${user.last_name}`.trim()
}

export function isValidRole (role: number): role is RoleNumber {
  return role === Role.Admin || role === Role.Agent || role === Role.Customer
}
