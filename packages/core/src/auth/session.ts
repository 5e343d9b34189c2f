import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

/**
 * How long tokens live, enforced by the server on every request (the rows'
 * `created_at` and `last_used_at`, shared by every instance). Sessions are the
 * tokens a password login issues: the console's cookie (`POST /auth/session`)
 * and the bearer tokens of `POST /auth/login` and `POST /auth/register`.
 * Personal tokens (`POST /auth/tokens`, the CLI) are long-lived credentials.
 */
export interface SessionOptions {
  /** Milliseconds a session may go unused before it ends; 0: no idle timeout. Default 24 hours. */
  idleTimeoutMs?: number
  /** Milliseconds a session lasts at most from its login, however much it is used. Default 14 days. */
  lifetimeMs?: number
  /** Milliseconds a personal token may go unused before it stops working; 0 (default): never. */
  tokenIdleTimeoutMs?: number
}

export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 24 * 60 * 60 * 1000
export const DEFAULT_SESSION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000

/**
 * A token's use is written to its row (`last_used_at`) at most this often per
 * instance, so requests cost no write; idle timeouts are checked with this
 * much slack, so a session never ends before its idle timeout, and at most
 * this much (and a second) after.
 */
export const LAST_USED_RESOLUTION_MS = 60_000

/** A session of the caller's, as `GET /auth/sessions` lists it. */
export interface Session {
  id: number
  /** `cookie`: the console's cookie; `bearer`: a token from `POST /auth/login` or `/auth/register`. */
  type: 'cookie' | 'bearer'
  created_at: DateTimeString
  /** The last request made with it, to the minute. */
  last_used_at: DateTimeString
  /** When it ends unless used again: its idle timeout, never after its absolute lifetime. */
  expires_at: DateTimeString
  /** The browser or client that logged in (`User-Agent`, cut to 255 characters), if it sent one. */
  user_agent: string | null
  /** The address the login came from. */
  ip: string | null
  /** Whether the request asking is made with this session. */
  current: boolean
}

/** A session row as the store keeps it. */
export interface SessionRecord {
  id: number
  name: string | null
  created_at: DateTimeString
  last_used_at: DateTimeString | null
  user_agent: string | null
  ip: string | null
}

/** Who logged in, recorded on the session to tell sessions apart (nothing more). */
export interface SessionClient {
  userAgent?: string | null | undefined
  ip?: string | null | undefined
}

/** The caller's API tokens (`GET /auth/tokens`, sessions included): paged like every list. */
export const apiTokenList = defineList({
  resource: 'API tokens',
  includes: [],
  sorts: ['id', 'created_at'],
  defaultSort: 'id',
  keyTypes: { id: 'int', created_at: 'datetime' },
  partialFilters: ['name'],
  exactFilters: []
})

export const sessionList = defineList({
  resource: 'sessions',
  includes: [],
  sorts: ['created_at', 'last_used_at'],
  defaultSort: '-last_used_at',
  keyTypes: { created_at: 'datetime', last_used_at: 'datetime' },
  partialFilters: [],
  exactFilters: []
})
