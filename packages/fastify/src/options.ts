import type { FastifyRequest } from 'fastify'
import type { WebhookDeliveryOptions } from '@helpdesk/webhooks'
import type { ImapPollerOptions, SmtpListenerOptions } from '@helpdesk/mail'
import type { AvatarResolver, DomainEvent, FileStorage, Helpdesk, MailSettings, MailTransport, MarketplaceVerifier, PasswordHasher, SessionOptions, SignInOptions, Store, TokenCacheOptions, UploadQuota, User } from '@helpdesk/core'

/** What a host app's own session maps to: a help-desk user, its id, or its email. */
export type AuthenticateResult = User | { id: number } | { email: string } | null | undefined

export interface RateLimitOptions {
  /** Requests per window per user, whatever token or session they use (per IP when anonymous). Default 600. */
  max?: number
  /** Window in milliseconds or a string like '1 minute'. Default one minute. */
  timeWindow?: number | string
  /** Login attempts per email and IP per window. Default 10. */
  loginMax?: number
  /**
   * A shared counter store so several instances enforce one limit: an ioredis
   * client or a Redis URL (`redis://127.0.0.1:6379`). In memory when absent.
   */
  redis?: string | import('ioredis').Redis
  /** Prefix of the counter keys in Redis, to keep apps (or environments) sharing one Redis apart. Default `helpdesk-rl:`. */
  keyPrefix?: string
}

/** The live event stream (`GET /events`, docs/event-stream.md). */
export interface EventStreamPluginOptions {
  /** Open streams per user on one instance; past it 429. Default 5. */
  maxConnectionsPerUser?: number
  /** Milliseconds between heartbeat comments on an idle stream. Default 20,000. */
  heartbeatMs?: number
}

/** Mail both ways (docs/mail.md): core's `MailSettings` plus how to send and who may post raw mail. */
export interface HelpdeskMailOptions extends MailSettings {
  /** Where mail is sent: `smtp://user:pass@host:587` or `smtps://...`. Without it (or `transport`) no mail is sent. */
  smtpUrl?: string
  /** A transport of your own instead of `smtpUrl`. */
  transport?: MailTransport
  /** A secret that lets a mail provider's inbound-parse webhook `POST /mail/inbound` (header `X-Helpdesk-Inbound-Secret`). */
  inboundSecret?: string
}

/**
 * The inbound mail doors this process runs (docs/mail.md), started where the job runner is (the plugin's
 * `onReady`) and closed with the app. Mail they receive goes to `helpdesk.mail.inbound`; their errors go to
 * the app's logger. They are doors, like HTTP: `workers: false` leaves them running (leave them out to receive
 * no mail here).
 */
export interface InboundMailWorkerOptions {
  /** Receive mail over SMTP: the listener's port (0: any free one), host, limits and TLS key and certificate. */
  smtp?: Omit<SmtpListenerOptions, 'inbound' | 'onError'>
  /** Poll an IMAP mailbox (`imaps://user:pass@host/INBOX`), moving stored mail to `moveTo` when given. */
  imap?: Omit<ImapPollerOptions, 'inbound' | 'onError'>
}

/** The options of the plugin with or without a prebuilt `helpdesk`: how the HTTP door behaves. */
export interface HelpdeskPluginCommonOptions {
  /** Route prefix. Default `/api/v1`. */
  prefix?: string
  /**
   * Maps a host application's session to a help-desk user. Called before the
   * built-in bearer tokens; return null to fall back to them.
   */
  authenticate?: (request: FastifyRequest) => Promise<AuthenticateResult> | AuthenticateResult
  /** Rate limiting (CONTRACT §2). `false` switches it off and no rate-limit headers are sent. */
  rateLimit?: false | RateLimitOptions
  /** Avatar URLs. Default Gravatar identicons. */
  avatar?: AvatarResolver
  /**
   * What one user may hold in uploads not yet linked to a ticket or comment
   * (they are removed after 24 h): `maxBytes` (default 200 MB) and `maxFiles`
   * (default 50). Past it `POST /attachments` answers 422 on `file`.
   */
  uploadQuota?: Partial<UploadQuota>
  /**
   * Called with every domain event after its transaction committed (never for
   * a change that rolled back): the place for webhooks, e-mail or streams.
   * Errors are logged and counted (`/ready`), never returned to the request
   * that caused the event.
   */
  onEvent?: (event: DomainEvent) => void | Promise<void>
  /** The live event stream (`GET /events`): connection cap and heartbeat. */
  eventStream?: EventStreamPluginOptions
  /**
   * Run background jobs (imports, upload pruning, webhook deliveries...) in
   * this process: the plugin starts `helpdesk.jobs` when the app is ready and
   * stops it (waiting for jobs under way) on close. Default true. Set false
   * when other processes run the jobs (they share the database): jobs are
   * still enqueued, just not run here. An object sets the fallback poll.
   */
  workers?: boolean | { pollMs?: number }
  /** Webhook delivery (docs/webhooks.md): SSRF guard, timeout, retries, when endpoints are switched off. */
  webhooks?: WebhookDeliveryOptions
  /**
   * Receive mail in this process: an SMTP listener and/or an IMAP poller, started and stopped with the
   * workers (docs/embedding.md). `app.helpdeskInbound` holds them once the app is ready (the listener's port).
   */
  inboundMail?: InboundMailWorkerOptions
}

/**
 * What the services are built with when the plugin builds them (`store`
 * given): the plugin passes these to `createHelpdesk`. With a prebuilt
 * `helpdesk` they belong to `createHelpdesk` and passing them to the plugin is
 * a type error (and a start-up error for JavaScript callers).
 */
export interface HelpdeskServiceOptions {
  /** Allow `POST /auth/register`. Default true. */
  registration?: boolean
  /** Password hashing. Default argon2id. */
  hasher?: PasswordHasher
  /**
   * Verifies marketplace purchase codes (CONTRACT §15): grants knowledge-base
   * levels 3 and 4 to customers with valid codes on their tickets, and enforces
   * categories' `purchase_verification` on ticket creation. Without it those
   * levels are staff-only and nothing is enforced.
   */
  marketplace?: MarketplaceVerifier
  /** Directory of attachment files. Default `./storage`, relative to the working directory. */
  storageDir?: string
  /**
   * Where attachment files live instead of `storageDir` (e.g. object storage,
   * needed by several instances).
   */
  fileStorage?: FileStorage
  /** Caching of bearer-token lookups (revocations always apply at once). Default 10 s, 10,000 tokens. */
  tokenCache?: TokenCacheOptions
  /**
   * How long sessions (password logins: the console's cookie, `POST /auth/login`) and personal
   * tokens live, enforced on every request: `idleTimeoutMs` (default 24 h), `lifetimeMs` (default
   * 14 days; the cookie's Max-Age follows it), `tokenIdleTimeoutMs` (personal tokens; default 0, never).
   */
  sessions?: SessionOptions
  /**
   * Mail: notifications sent by SMTP (queued as `mail.send` jobs, sent by the
   * job runner, which the plugin runs unless `workers` is false) and tickets
   * from mail (`POST /mail/inbound`).
   */
  mail?: HelpdeskMailOptions
  /**
   * Signing in (docs/sign-in.md): lifetimes of password-reset, magic and verification links, of a
   * sign-in waiting for its second factor, the secret key that seals stored secrets, the SSO re-check interval.
   */
  signIn?: SignInOptions
}

/** The plugin builds the services on `store` (`createHelpdesk({ store, ...HelpdeskServiceOptions })`). */
export interface HelpdeskPluginStoreOptions extends HelpdeskPluginCommonOptions, HelpdeskServiceOptions {
  /** The storage adapter (e.g. `createKnexStore({ url })`). */
  store: Store
  helpdesk?: never
}

/** The plugin serves services built by the host (`createHelpdesk(...)`), as they are. */
export interface HelpdeskPluginPrebuiltOptions extends HelpdeskPluginCommonOptions, PrebuiltExcluded {
  /** Prebuilt services (`createHelpdesk(...)`), for a host that also calls them outside HTTP. */
  helpdesk: Helpdesk
  store?: never
  /** Only the HTTP side of mail: the inbound-parse secret. The mail settings go to `createHelpdesk({ mail })`. */
  mail?: Pick<HelpdeskMailOptions, 'inboundSecret'>
}

/** The service options, each forbidden next to a prebuilt `helpdesk` (they belong to `createHelpdesk`). */
type PrebuiltExcluded = { [K in Exclude<keyof HelpdeskServiceOptions, 'mail'>]?: never }

/**
 * Options of the Fastify plugin: either `store` (the plugin builds the
 * services, with `HelpdeskServiceOptions`) or a prebuilt `helpdesk` (whose
 * services were built with `createHelpdesk`), plus the common options.
 */
export type HelpdeskPluginOptions = HelpdeskPluginStoreOptions | HelpdeskPluginPrebuiltOptions
