import knexFactory, { type Knex } from 'knex'
import { systemClock, type Clock, type Repositories, type Store } from '@helpdesk/core'
import type { Dialect } from './dialects/dialect.js'
import { dialectFor } from './dialects/index.js'
import { migrationSource } from './migrations/index.js'
import { createArticleRepository } from './repositories/article-repository.js'
import { createCannedResponseRepository } from './repositories/canned-response-repository.js'
import { createCategoryRepository } from './repositories/category-repository.js'
import { createCollectionRepository } from './repositories/collection-repository.js'
import { createCustomFieldRepository } from './repositories/custom-field-repository.js'
import { createCustomerNoteRepository } from './repositories/customer-note-repository.js'
import { createNotificationRepository } from './repositories/notification-repository.js'
import { createImportRepository } from './repositories/import-repository.js'
import { ReadMarks } from './repositories/read-marks.js'
import { ticketPublicSearchIndex, ticketSearchIndex, ticketStaffSearchIndex } from './repositories/ticket-search.js'
import type { RepositoryContext, TriggerListCache } from './repositories/repository-context.js'
import { createTokenRepository } from './repositories/token-repository.js'
import { createUserRepository } from './repositories/user-repository.js'
import { createAttachmentRepository } from './repositories/attachment-repository.js'
import { createDraftRepository } from './repositories/draft-repository.js'
import { createCommentRepository } from './repositories/comment-repository.js'
import { createTicketRepository, ticketReadsById } from './repositories/ticket-repository.js'
import { createEventLogRepository } from './repositories/event-log-repository.js'
import { createJobRepository } from './repositories/job-repository.js'
import { createMailRepository } from './repositories/mail-repository.js'
import { JobSignal } from './repositories/job-signal.js'
import { createSettingsRepository } from './repositories/settings-repository.js'
import { createAccountTokenRepository } from './repositories/account-token-repository.js'
import { createTwoFactorRepository } from './repositories/two-factor-repository.js'
import { createSsoRepository } from './repositories/sso-repository.js'
import { createSatisfactionRepository } from './repositories/satisfaction-repository.js'
import { createTicketMergeRepository } from './repositories/ticket-merge-repository.js'
import { createTicketHistoryRepository } from './repositories/ticket-history-repository.js'
import { createAuditLogRepository } from './repositories/audit-log-repository.js'
import { createSlaRepository } from './repositories/sla-repository.js'
import { createViewRepository } from './repositories/view-repository.js'
import { createMacroRepository } from './repositories/macro-repository.js'
import { createReportRepository } from './repositories/report-repository.js'
import { createTriggerRepository } from './repositories/trigger-repository.js'
import { createAutomationRepository } from './repositories/automation-repository.js'
import { createAssignmentRepository } from './repositories/assignment-repository.js'
import { createWebhookRepository } from './repositories/webhook-repository.js'
import { createPresenceRepository } from './repositories/presence-repository.js'
import { announcing, type StoreEventNotifier } from './notifiers/store-event-notifier.js'

export interface KnexStoreOptions {
  /** `sqlite:PATH`, `sqlite::memory:` or `postgres://user@host/db`. */
  url: string
  clock?: Clock
  /** Extra knex configuration merged over the dialect's defaults (pool sizes, debug). */
  knex?: Partial<Knex.Config>
}

/** Wraps every method of a repository so driver errors leave the store as domain errors. */
function translated<T extends object> (repository: T, dialect: Dialect, synchronous: ReadonlySet<PropertyKey> = new Set()): T {
  // One wrapper per method, made on first use: repositories sit on every request's path.
  const wrappers = new Map<PropertyKey, { method: unknown, wrapper: unknown }>()
  return new Proxy(repository, {
    get (target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown
      if (typeof value !== 'function' || synchronous.has(property)) return value
      const known = wrappers.get(property)
      if (known !== undefined && known.method === value) return known.wrapper
      const wrapper = async (...args: unknown[]): Promise<unknown> => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(receiver, args)
        } catch (error) {
          throw dialect.translateError(error) ?? error
        }
      }
      wrappers.set(property, { method: value, wrapper })
      return wrapper
    }
  })
}

/** Methods of a repository that are not async: they are not wrapped by `translated`. */
const synchronousMethods: Partial<Record<keyof Repositories, ReadonlySet<PropertyKey>>> = { jobs: new Set(['onEnqueued']) }

interface RepositoryHooks {
  /** Event-log ids were appended. */
  appended: (ids: number[]) => Promise<void>
  /** A job was enqueued. */
  enqueued: () => void
  /** Presence changed on these tickets. */
  presenceChanged: (ticketIds: number[]) => Promise<void>
  jobSignal: JobSignal
}

/** How each repository of the Store port is built on one connection (the pool or a transaction). */
const repositoryFactories: { [K in keyof Repositories]: (ctx: RepositoryContext, hooks: RepositoryHooks) => Repositories[K] } = {
  users: createUserRepository,
  tokens: createTokenRepository,
  categories: createCategoryRepository,
  customerNotes: createCustomerNoteRepository,
  customFields: createCustomFieldRepository,
  cannedResponses: createCannedResponseRepository,
  collections: createCollectionRepository,
  articles: createArticleRepository,
  notifications: createNotificationRepository,
  tickets: createTicketRepository,
  comments: createCommentRepository,
  attachments: createAttachmentRepository,
  drafts: createDraftRepository,
  imports: createImportRepository,
  eventLog: (ctx, hooks) => announcing(createEventLogRepository(ctx), hooks.appended),
  jobs: (ctx, hooks) => createJobRepository(ctx, { signal: hooks.jobSignal, enqueued: hooks.enqueued }),
  mail: createMailRepository,
  webhooks: createWebhookRepository,
  settings: createSettingsRepository,
  accountTokens: createAccountTokenRepository,
  twoFactor: createTwoFactorRepository,
  sso: createSsoRepository,
  satisfaction: createSatisfactionRepository,
  ticketHistory: createTicketHistoryRepository,
  ticketMerges: createTicketMergeRepository,
  auditLog: createAuditLogRepository,
  sla: createSlaRepository,
  macros: createMacroRepository,
  views: createViewRepository,
  reports: createReportRepository,
  triggers: createTriggerRepository,
  automations: createAutomationRepository,
  assignment: createAssignmentRepository,
  presence: (ctx, hooks) => createPresenceRepository(ctx, hooks.presenceChanged)
}

/** KnexStore's base: the repositories as readonly fields, which getters on KnexStore's prototype build. */
const RepositoryFields = class {} as new () => Readonly<Repositories>

/** The Store port on knex. Holds either the root connection pool or one open transaction. */
export class KnexStore extends RepositoryFields implements Store {
  /** Set when this transaction enqueued jobs: runners are woken once it commits. */
  private jobsEnqueued = false
  /** Event-log ids this transaction appended: announced once, just before it commits. */
  private readonly appendedEventIds: number[] = []
  /** What each repository is built from (by the getters the static block below defines). */
  private readonly repositoryContext: RepositoryContext
  private readonly repositoryHooks: RepositoryHooks

  constructor (
    readonly knex: Knex,
    readonly dialect: Dialect,
    readonly clock: Clock,
    private readonly inTransaction = false,
    private readonly readMarks = new ReadMarks(knex, dialect),
    private readonly jobSignal = new JobSignal(knex, dialect),
    readonly eventNotifier: StoreEventNotifier = dialect.eventNotifier(knex),
    private readonly triggerList: TriggerListCache = { entry: null }
  ) {
    super()
    this.repositoryContext = { db: knex, dialect, clock, readMarks, ticketsById: inTransaction ? undefined : ticketReadsById(knex, dialect), triggerList }
    this.repositoryHooks = {
      appended: async (ids) => {
        if (inTransaction) this.appendedEventIds.push(...ids)
        else await eventNotifier.announce(knex, ids)
      },
      enqueued: () => { if (inTransaction) this.jobsEnqueued = true; else jobSignal.fire() },
      presenceChanged: async (ticketIds) => { await eventNotifier.announcePresence(knex, ticketIds) },
      jobSignal
    }
  }

  /** Repository `name` on this store's connection, built on first use (a transaction, one per write, touches a few). */
  static {
    for (const name of Object.keys(repositoryFactories) as Array<keyof Repositories>) {
      Object.defineProperty(KnexStore.prototype, name, {
        configurable: true,
        enumerable: true,
        get (this: KnexStore) {
          const repository = translated(repositoryFactories[name](this.repositoryContext, this.repositoryHooks), this.dialect, synchronousMethods[name])
          Object.defineProperty(this, name, { value: repository, enumerable: true, writable: false, configurable: false })
          return repository
        }
      })
    }
  }

  async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return await fn(this)
    try {
      let tx: KnexStore | undefined
      const result = await this.dialect.transaction(this.knex, async (trx) => {
        tx = new KnexStore(trx, this.dialect, this.clock, true, this.readMarks, this.jobSignal, this.eventNotifier, this.triggerList)
        const value = await fn(tx)
        if (tx.appendedEventIds.length > 0) await this.eventNotifier.announce(trx, tx.appendedEventIds)
        return value
      })
      if (tx?.jobsEnqueued === true) this.jobSignal.fire()
      return result
    } catch (error) {
      throw this.dialect.translateError(error) ?? error
    }
  }

  async ping (): Promise<void> {
    try {
      await this.knex.raw('select 1')
    } catch (error) {
      throw this.dialect.translateError(error) ?? error
    }
  }

  async optimize (): Promise<void> {
    await this.dialect.fullText.optimize(this.knex, ticketSearchIndex, ['users'])
    await this.dialect.fullText.optimize(this.knex, ticketPublicSearchIndex, [])
    await this.dialect.fullText.optimize(this.knex, ticketStaffSearchIndex, [])
  }

  /** Applies pending migrations; returns the names applied. */
  async migrate (): Promise<string[]> {
    const [, applied] = await this.knex.migrate.latest({ migrationSource }) as [number, string[]]
    return applied
  }

  /** Releases the migration lock an interrupted migration left held (only when no other process is migrating). */
  async releaseMigrationLock (): Promise<void> {
    await this.knex.migrate.forceFreeMigrationsLock({ migrationSource })
  }

  /** Names of migrations not applied yet. */
  async pendingMigrations (): Promise<string[]> {
    const [, pending] = await this.knex.migrate.list({ migrationSource }) as [unknown, Array<{ name: string } | string>]
    return pending.map((m) => typeof m === 'string' ? m : m.name)
  }

  async close (): Promise<void> {
    await this.readMarks.settled()
    await this.jobSignal.close()
    await this.knex.destroy()
  }
}

export function createKnexStore (options: KnexStoreOptions): KnexStore {
  const dialect = dialectFor(options.url)
  // knex prints pool and driver warnings to the console by itself; errors reach callers as domain errors instead.
  const quiet = { warn: () => {}, error: () => {}, deprecate: () => {}, debug: () => {} }
  const knex = knexFactory({ ...dialect.knexConfig(options.url), log: quiet, ...options.knex })
  return new KnexStore(knex, dialect, options.clock ?? systemClock)
}
