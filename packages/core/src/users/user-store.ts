import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type {
  NotificationSettings, Permissions, PersonSummary, RoleNumber, User, UserStatusNumber
} from './user.js'

export interface NewUser {
  role: RoleNumber
  first_name: string
  last_name: string
  email: string
  company?: string | null
  status: UserStatusNumber
  password_hash: string | null
  marketplace_username?: string | null
  timezone?: string | null
  permissions?: Permissions
}

export type UserPatch = Partial<Pick<User,
  'first_name' | 'last_name' | 'email' | 'company' | 'status' | 'marketplace_username' | 'timezone' |
  'permissions' | 'notifications' | 'last_login_at' | 'all_categories'
>> & { password_hash?: string | null }

export type UserKind = 'customer' | 'agent'

/** Storage port for users of every role (part of `Store`, same conventions). */
export interface UserRepository {
  findById(id: number): Promise<User | null>
  /** The users of `ids` that exist, in the order of `ids`: one query whatever their number. */
  findMany(ids: readonly number[]): Promise<User[]>
  /** Case-insensitive. */
  findByEmail(email: string): Promise<User | null>
  /** The stored password hash, for the auth service only. */
  findPasswordHash(id: number): Promise<string | null>
  create(user: NewUser): Promise<User>
  /** Inserts many (seeding, bulk imports) in batches; returns their ids in input order. */
  createMany(users: NewUser[]): Promise<number[]>
  update(id: number, patch: UserPatch): Promise<User | null>
  delete(id: number): Promise<boolean>
  /** Customers (role 3) or staff (roles 1 and 2). */
  list(kind: UserKind, query: ListQuery): Promise<Page<WithIncludes<User>>>
  /** One user of the kind, with the includes of `query`. */
  view(kind: UserKind, id: number, query: ListQuery): Promise<WithIncludes<User> | null>
  setNotificationSettings(id: number, settings: NotificationSettings): Promise<void>
  /** Ids of the categories the agent is assigned to. */
  categoryIds(agentId: number): Promise<number[]>
  /** Replaces the agent's categories. */
  setCategories(agentId: number, categoryIds: number[]): Promise<void>
  /** Adds the category to each of the agents (a category's creation). */
  addAgentsToCategory(categoryId: number, agentIds: number[]): Promise<void>
  /**
   * The active staff of a category, whom its tickets may be assigned to:
   * administrators, agents covering all categories or holding
   * `view_all_tickets`, and the agents of the category. One query.
   */
  staffOfCategory(categoryId: number): Promise<PersonSummary[]>
  /** Ids of staff (admins, and agents of `categoryId` — with those covering all categories — when given) for notifications. */
  staffIds(filter: { admins?: boolean, categoryId?: number, permission?: keyof Permissions }): Promise<number[]>
  /** The notification settings of those of `ids` that exist, in one query. */
  notificationSettingsOf(ids: number[]): Promise<Array<{ id: number, notifications: NotificationSettings }>>
}
