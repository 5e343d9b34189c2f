import type { ApiToken } from './auth/api-token.js'
import type { Category, CategoryCountScope, CategoryInput } from './categories/category.js'
import type { CannedResponseRepository } from './canned-responses/canned-response-store.js'
import type { CustomFieldRepository } from './fields/custom-field-store.js'
import type { ArticleRepository, CollectionRepository } from './knowledge-base/knowledge-base-store.js'
import type { ListQuery, Page } from './list/list-query.js'
import type { ImportRepository } from './imports/import-store.js'
import type { EventLogRepository } from './event-log/event-log.js'
import type { JobRepository } from './jobs/job.js'
import type { MailRepository } from './mail/mail-store.js'
import type { WebhookRepository } from './webhooks/webhook-store.js'
import type { NotificationRepository } from './notifications/notification-store.js'
import type { EventNotifier } from './stream/event-notifier.js'
import type { AttachmentRepository, CommentRepository, TicketRepository } from './tickets/ticket-store.js'
import type { CustomerNote } from './users/customer-note.js'
import type {
  NotificationSettings, Permissions, RoleNumber, User, UserStatusNumber
} from './users/user.js'

/**
 * The storage port. Every method is async and takes plain objects.
 * Conventions for every repository:
 * - `find*` returns null when nothing matches; it never throws NotFoundError.
 * - `update*`/`delete*` of a missing id return null/false.
 * - A unique violation surfaces as a ValidationError on the field (e.g. `email`).
 * - List methods return one page and the total; requested includes are loaded
 *   in batch (one query per include, whatever the page size) and attached to
 *   each item under the include's key (`tickets-count` -> `tickets_count`).
 */
export interface Store {
  /**
   * Runs `fn` in one transaction: everything it writes commits together or not
   * at all. Nested calls join the outer transaction.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>
  readonly users: UserRepository
  readonly tokens: TokenRepository
  readonly categories: CategoryRepository
  readonly customerNotes: CustomerNoteRepository
  readonly customFields: CustomFieldRepository
  readonly cannedResponses: CannedResponseRepository
  readonly collections: CollectionRepository
  readonly articles: ArticleRepository
  readonly notifications: NotificationRepository
  readonly imports: ImportRepository
  readonly tickets: TicketRepository
  readonly comments: CommentRepository
  readonly attachments: AttachmentRepository
  /** Every committed domain event, in order (the outbox of the channels). */
  readonly eventLog: EventLogRepository
  /** Background jobs, enqueued in the transaction of the change that asks for them. */
  readonly jobs: JobRepository
  /** Mail threads, sent and received mail, participants and opt-outs. */
  readonly mail: MailRepository
  /** Webhook endpoints and their deliveries. */
  readonly webhooks: WebhookRepository
  /** Announces committed event-log ids to every instance (the live event stream's signal). */
  readonly eventNotifier: EventNotifier
  /** Checks the database answers. */
  ping(): Promise<void>
  /**
   * Reorganises indexes after bulk writes (seeding, large imports): search
   * indexes compacted, the query planner's statistics refreshed. Safe at any
   * time; takes seconds on millions of rows.
   */
  optimize(): Promise<void>
  close(): Promise<void>
}

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
  'permissions' | 'notifications' | 'last_login_at'
>> & { password_hash?: string | null }

export type UserKind = 'customer' | 'agent'

/** A list item: the entity plus whatever includes were asked for. */
export type WithIncludes<T> = T & Record<string, unknown>

export interface UserRepository {
  findById(id: number): Promise<User | null>
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
  /** Ids of staff (admins, and agents of `categoryId` when given) for notifications. */
  staffIds(filter: { admins?: boolean, categoryId?: number, permission?: keyof Permissions }): Promise<number[]>
  /** The notification settings of those of `ids` that exist, in one query. */
  notificationSettingsOf(ids: number[]): Promise<Array<{ id: number, notifications: NotificationSettings }>>
}

export interface TokenRepository {
  create(token: { user_id: number, name: string | null, token_hash: string }): Promise<ApiToken>
  /**
   * Creates the token unless the user already holds `max` tokens whose name is
   * not `except` (then null, nothing written). Concurrent calls for one user
   * are serialised (the user's row is locked first), so the cap holds.
   */
  createCapped(token: { user_id: number, name: string | null, token_hash: string }, limit: { max: number, except: string }): Promise<ApiToken | null>
  /**
   * Deletes the user's tokens named `name` but the newest `keep`, bumping the
   * auth revision when any went (they stop working at once); returns how many went.
   */
  pruneNamed(userId: number, name: string, keep: number): Promise<number>
  /**
   * The owner of a token hash, or null. Banned users' tokens resolve to their
   * user; callers check status. `authRevision` is `revision()` as read by the
   * same statement.
   */
  findUserByHash(tokenHash: string): Promise<{ token: ApiToken, user: User, authRevision: number } | null>
  listForUser(userId: number): Promise<ApiToken[]>
  /** Deletes a token of this user; false when it is not theirs or missing. */
  deleteForUser(userId: number, tokenId: number): Promise<boolean>
  deleteAllForUser(userId: number): Promise<void>
  /**
   * The auth revision: a number shared by every instance through the database
   * that changes in the same transaction as any token deletion, any update or
   * deletion of a user (a login's `last_login_at` alone aside) and any change
   * of an agent's categories. Whoever caches token lookups (or what follows
   * from them) trusts an entry only under the revision it was read with.
   */
  revision(): Promise<number>
}

export interface CategoryRepository {
  findById(id: number): Promise<Category | null>
  /** The ids among `ids` that exist. */
  existingIds(ids: number[]): Promise<number[]>
  /** `counts`: what the count includes may count for the caller. */
  list(query: ListQuery, counts: CategoryCountScope): Promise<Page<WithIncludes<Category>>>
  view(id: number, query: ListQuery, counts: CategoryCountScope): Promise<WithIncludes<Category> | null>
  listByIds(ids: number[]): Promise<Category[]>
  create(input: CategoryInput & { order: number }): Promise<Category>
  update(id: number, patch: Partial<CategoryInput>): Promise<Category | null>
  delete(id: number): Promise<boolean>
  /** True while tickets or article collections still use the category. */
  isInUse(id: number): Promise<boolean>
  nextOrder(): Promise<number>
  setOrder(positions: Map<number, number>): Promise<void>
}

export interface CustomerNoteRepository {
  create(note: { customer_id: number, creator_id: number, text: string }): Promise<CustomerNote>
  list(customerId: number, query: ListQuery): Promise<Page<WithIncludes<CustomerNote>>>
  findById(id: number): Promise<CustomerNote | null>
  delete(id: number): Promise<boolean>
}
