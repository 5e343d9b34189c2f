import type { FastifyRequest } from 'fastify'
import type { AvatarResolver, Helpdesk, PasswordHasher, Store, User } from '@helpdesk/core'

/** What a host app's own session maps to: a help-desk user, its id, or its email. */
export type AuthenticateResult = User | { id: number } | { email: string } | null | undefined

export interface RateLimitOptions {
  /** Requests per window per token (per IP when anonymous). Default 600. */
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
}

/** Options of the Fastify plugin. */
export interface HelpdeskPluginOptions {
  /** The storage adapter (e.g. `createKnexStore({ url })`). Required unless `helpdesk` is given. */
  store?: Store
  /** Prebuilt services (`createHelpdesk(...)`); overrides `store`. */
  helpdesk?: Helpdesk
  /** Route prefix. Default `/api/v1`. */
  prefix?: string
  /**
   * Maps a host application's session to a help-desk user. Called before the
   * built-in bearer tokens; return null to fall back to them.
   */
  authenticate?: (request: FastifyRequest) => Promise<AuthenticateResult> | AuthenticateResult
  /** Rate limiting (CONTRACT §2). `false` switches it off and no rate-limit headers are sent. */
  rateLimit?: false | RateLimitOptions
  /** Allow `POST /auth/register`. Default true. */
  registration?: boolean
  /** Avatar URLs. Default Gravatar identicons. */
  avatar?: AvatarResolver
  /** Password hashing. Default argon2id. */
  hasher?: PasswordHasher
}
