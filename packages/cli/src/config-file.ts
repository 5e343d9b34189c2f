import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'

/** A user mistake: printed as one line, exit code 1. */
export class CliError extends Error {}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = typeof LOG_LEVELS[number]

/** `rateLimit` as an object: the plugin's `RateLimitOptions` that can be written in a file. */
export interface RateLimitFileOptions {
  max?: number
  timeWindow?: number | string
  loginMax?: number
  keyPrefix?: string
  /** The web plugin's limit: knowledge-base pages and the sitemap per IP per window (0: none). */
  pageMax?: number
}

/** `uploadQuota`: the plugin's per-user quota of unlinked uploads. */
export interface UploadQuotaFileOptions {
  maxBytes?: number
  maxFiles?: number
}

/** `sessions`: the plugin's session lifetimes, in milliseconds (docs/security.md). */
export interface SessionsFileOptions {
  idleTimeoutMs?: number
  lifetimeMs?: number
  tokenIdleTimeoutMs?: number
}

/** `signIn`: the plugin's sign-in options (docs/sign-in.md). */
export interface SignInFileOptions {
  passwordResetMinutes?: number
  magicLinkMinutes?: number
  verificationHours?: number
  secondFactorMinutes?: number
  secretKey?: string
  issuer?: string
  ssoRecheckMinutes?: number
  publicUrl?: string
}

/** `mail` in a config file: the plugin's `mail` option plus the SMTP listener's port (docs/mail.md). */
export interface MailFileOptions {
  smtpUrl?: string
  from?: string
  replyTo?: string
  /** Inbound address -> category id. */
  inbound?: Record<string, number>
  publicUrl?: string
  /** The web console's public URL, for the ticket links in mail. */
  consoleUrl?: string
  /** authserv-ids whose Authentication-Results are believed (staff replies by mail). */
  trustedAuthServIds?: string[]
  templatesDir?: string
  inboundSecret?: string
  maxAttachmentBytes?: number
  rateLimitPerHour?: number
  /** `helpdesk serve` listens for SMTP on this port. */
  smtpPort?: number
  /** The SMTP listener's limits (each defaults to the listener's own, docs/mail.md). */
  smtpMaxBytes?: number
  smtpMaxBufferedBytes?: number
  smtpMaxClients?: number
  smtpMaxClientsPerIp?: number
  smtpIdleTimeoutMs?: number
  smtpDataTimeoutMs?: number
  /** PEM files of the listener's private key and certificate chain: STARTTLS is offered with both. */
  smtpTlsKey?: string
  smtpTlsCert?: string
  /** `helpdesk serve` polls this mailbox: `imaps://user:pass@host:993/INBOX`. */
  imapUrl?: string
  /** Stored mail is moved to this mailbox (otherwise flagged \Seen). */
  imapMoveTo?: string
}

/**
 * What `helpdesk.config.json` (or `helpdesk.config.ts`, default export) may
 * hold. Every key is optional; the plugin's options keep the plugin's names.
 */
export interface HelpdeskConfigFile {
  /** `sqlite:PATH` or `postgres://user:password@host:port/database`. */
  database?: string
  host?: string
  port?: number
  /** The plugin's `prefix`. */
  prefix?: string
  /** Requests a minute per token; `false` or `0` switches rate limiting off; an object for the plugin's finer options. */
  rateLimit?: number | false | RateLimitFileOptions
  /** The plugin's `rateLimit.redis`, as a URL. */
  redisUrl?: string
  /** The plugin's `storageDir`. */
  storageDir?: string
  /** The plugin's `registration`. */
  registration?: boolean
  /** The plugin's `uploadQuota`. */
  uploadQuota?: UploadQuotaFileOptions
  /** The plugin's `sessions`: idle timeout and absolute lifetime of sessions, idle timeout of personal tokens. */
  sessions?: SessionsFileOptions
  /** The plugin's `signIn`: link lifetimes, the secret key sealing stored secrets, SSO re-checks and callback base. */
  signIn?: SignInFileOptions
  /** Trust `X-Forwarded-*` from a reverse proxy or load balancer. */
  trustProxy?: boolean
  /** The public URL of the console and knowledge base (`https://help.example.com`): canonical links and the sitemap. */
  webUrl?: string
  logLevel?: LogLevel
  /** Serve the web console and the knowledge-base pages at `/` (`helpdesk serve`). */
  web?: boolean
  /** Mail both ways: see `MailFileOptions`. */
  mail?: MailFileOptions
}

/** Checks one value; returns what it must be, or null when it is fine. */
export type Check = (value: unknown) => string | null

/** `value` when it passes `check`; otherwise a CliError naming where it came from (a flag, a variable). */
export function checked<T> (name: string, value: T, check: Check): T {
  const wanted = check(value)
  if (wanted !== null) throw new CliError(`${name} must be ${wanted}, got "${String(value)}"`)
  return value
}

/** Upper bounds of the SMTP listener's settings: a 1 GiB message, 100000 connections, the longest timer Node keeps (about 24.8 days). */
export const SMTP_LIMITS = { bytes: 2 ** 30, clients: 100_000, ms: 2 ** 31 - 1 } as const

const isInteger = (min: number, max: number): Check => (value) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? null : `an integer from ${min} to ${max}`
const isString: Check = (value) => typeof value === 'string' && value !== '' ? null : 'a non-empty string'
const isBoolean: Check = (value) => typeof value === 'boolean' ? null : 'true or false'
export const isPrefix: Check = (value) => typeof value === 'string' && /^\/[A-Za-z0-9._~\-/]*[^/]$/.test(value) ? null : 'a path like "/api/v1" (leading slash, no trailing slash)'
export const isRedisUrl: Check = (value) => typeof value === 'string' && /^rediss?:\/\//.test(value) ? null : 'a redis:// or rediss:// URL'
export const isWebUrl: Check = (value) => {
  let url: URL | null = null
  try { url = typeof value === 'string' ? new URL(value) : null } catch {}
  return url !== null && ['http:', 'https:'].includes(url.protocol) && url.search === '' && url.hash === '' && url.username === '' && url.password === ''
    ? null
    : 'an http:// or https:// URL without query or credentials, like "https://help.example.com"'
}
export const isLogLevel: Check = (value) => LOG_LEVELS.includes(value as LogLevel) ? null : `one of ${LOG_LEVELS.join(', ')}`
const isWindow: Check = (value) => (Number.isInteger(value) && (value as number) > 0) || (typeof value === 'string' && value !== '')
  ? null
  : 'milliseconds or a duration like "1 minute"'

const rateLimitKeys: Record<keyof RateLimitFileOptions, Check> = {
  max: isInteger(0, 1_000_000), timeWindow: isWindow, loginMax: isInteger(1, 1_000_000), keyPrefix: isString, pageMax: isInteger(0, 1_000_000)
}

const isRateLimit: Check = (value) => {
  if (value === false || isInteger(0, 1_000_000)(value) === null) return null
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a number, false, or an object with max, timeWindow, loginMax, keyPrefix, pageMax'
  for (const [key, inner] of Object.entries(value)) {
    const check = rateLimitKeys[key as keyof RateLimitFileOptions]
    if (check === undefined) return `an object with only max, timeWindow, loginMax, keyPrefix, pageMax (not "${key}")`
    const wanted = check(inner)
    if (wanted !== null) return `an object whose "${key}" is ${wanted}`
  }
  return null
}

const uploadQuotaKeys: Record<keyof UploadQuotaFileOptions, Check> = {
  maxBytes: isInteger(1, Number.MAX_SAFE_INTEGER), maxFiles: isInteger(1, 1_000_000)
}

const isUploadQuota: Check = (value) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'an object with maxBytes, maxFiles'
  for (const [key, inner] of Object.entries(value)) {
    const check = uploadQuotaKeys[key as keyof UploadQuotaFileOptions]
    if (check === undefined) return `an object with only maxBytes, maxFiles (not "${key}")`
    const wanted = check(inner)
    if (wanted !== null) return `an object whose "${key}" is ${wanted}`
  }
  return null
}

const sessionsKeys: Record<keyof SessionsFileOptions, Check> = {
  idleTimeoutMs: isInteger(0, Number.MAX_SAFE_INTEGER), lifetimeMs: isInteger(1, Number.MAX_SAFE_INTEGER), tokenIdleTimeoutMs: isInteger(0, Number.MAX_SAFE_INTEGER)
}

const isSessions: Check = (value) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `an object with ${Object.keys(sessionsKeys).join(', ')}`
  for (const [key, inner] of Object.entries(value)) {
    const check = sessionsKeys[key as keyof SessionsFileOptions]
    if (check === undefined) return `an object with only ${Object.keys(sessionsKeys).join(', ')} (not "${key}")`
    const wanted = check(inner)
    if (wanted !== null) return `an object whose "${key}" is ${wanted}`
  }
  return null
}

const signInKeys: Record<keyof SignInFileOptions, Check> = {
  passwordResetMinutes: isInteger(1, 10_080),
  magicLinkMinutes: isInteger(1, 1440),
  verificationHours: isInteger(1, 720),
  secondFactorMinutes: isInteger(1, 60),
  secretKey: (value) => typeof value === 'string' && value.length >= 16 ? null : 'a string of at least 16 characters',
  issuer: isString,
  ssoRecheckMinutes: isInteger(1, 1440),
  publicUrl: (value) => typeof value === 'string' && /^https?:\/\//.test(value) ? null : 'an http:// or https:// URL'
}

const isSignIn: Check = (value) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `an object with ${Object.keys(signInKeys).join(', ')}`
  for (const [key, inner] of Object.entries(value)) {
    const check = signInKeys[key as keyof SignInFileOptions]
    if (check === undefined) return `an object with only ${Object.keys(signInKeys).join(', ')} (not "${key}")`
    const wanted = check(inner)
    if (wanted !== null) return `an object whose "${key}" is ${wanted}`
  }
  return null
}

const isInbound: Check = (value) => typeof value === 'object' && value !== null && !Array.isArray(value) &&
  Object.entries(value).every(([address, category]) => /^[^\s@]+@[^\s@]+$/.test(address) && Number.isInteger(category) && (category as number) > 0)
  ? null
  : 'an object mapping addresses to category ids, like {"support@example.com": 1}'

const mailKeys: Record<keyof MailFileOptions, Check> = {
  smtpUrl: (value) => typeof value === 'string' && /^smtps?:\/\//.test(value) ? null : 'an smtp:// or smtps:// URL',
  from: isString,
  replyTo: isString,
  inbound: isInbound,
  publicUrl: (value) => typeof value === 'string' && /^https?:\/\//.test(value) ? null : 'an http:// or https:// URL',
  consoleUrl: (value) => typeof value === 'string' && /^https?:\/\//.test(value) ? null : 'an http:// or https:// URL',
  trustedAuthServIds: (value) => Array.isArray(value) && value.every((v) => typeof v === 'string' && /^[^\s;]+$/.test(v)) ? null : 'a list of authserv-ids (host names), like ["mx.example.com"]',
  templatesDir: isString,
  inboundSecret: isString,
  maxAttachmentBytes: isInteger(0, 2 ** 31),
  rateLimitPerHour: isInteger(1, 1_000_000),
  smtpPort: isInteger(0, 65535),
  smtpMaxBytes: isInteger(1, SMTP_LIMITS.bytes),
  smtpMaxBufferedBytes: isInteger(1, Number.MAX_SAFE_INTEGER),
  smtpMaxClients: isInteger(1, SMTP_LIMITS.clients),
  smtpMaxClientsPerIp: isInteger(1, SMTP_LIMITS.clients),
  smtpIdleTimeoutMs: isInteger(1, SMTP_LIMITS.ms),
  smtpDataTimeoutMs: isInteger(1, SMTP_LIMITS.ms),
  smtpTlsKey: isString,
  smtpTlsCert: isString,
  imapUrl: (value) => typeof value === 'string' && /^imaps?:\/\//.test(value) ? null : 'an imap:// or imaps:// URL',
  imapMoveTo: isString
}

const isMail: Check = (value) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `an object with ${Object.keys(mailKeys).join(', ')}`
  for (const [key, inner] of Object.entries(value)) {
    const check = mailKeys[key as keyof MailFileOptions]
    if (check === undefined) return `an object with only ${Object.keys(mailKeys).join(', ')} (not "${key}")`
    const wanted = check(inner)
    if (wanted !== null) return `an object whose "${key}" is ${wanted}`
  }
  return null
}

const fileKeys: Record<keyof HelpdeskConfigFile, Check> = {
  database: isString,
  host: isString,
  port: isInteger(0, 65535),
  prefix: isPrefix,
  rateLimit: isRateLimit,
  redisUrl: isRedisUrl,
  storageDir: isString,
  registration: isBoolean,
  uploadQuota: isUploadQuota,
  sessions: isSessions,
  signIn: isSignIn,
  trustProxy: isBoolean,
  webUrl: isWebUrl,
  logLevel: isLogLevel,
  web: isBoolean,
  mail: isMail
}

/** The keys a config file may hold, for docs and error messages. */
export const CONFIG_FILE_KEYS = Object.keys(fileKeys) as Array<keyof HelpdeskConfigFile>

/** Looked for in the working directory, in this order, when neither `--config` nor HELPDESK_CONFIG names a file. */
export const CONFIG_FILES = ['helpdesk.config.json', 'helpdesk.config.ts'] as const

/** Checks a parsed config; every problem names the file and the key. */
export function checkConfigFile (file: string, parsed: unknown): HelpdeskConfigFile {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CliError(`config file ${file} must hold an object`)
  const config: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(parsed)) {
    const check = fileKeys[key as keyof HelpdeskConfigFile]
    if (check === undefined) throw new CliError(`config file ${file}: unknown key "${key}" (known: ${CONFIG_FILE_KEYS.join(', ')})`)
    // A .ts config may leave a key undefined (`database: process.env.DATABASE_URL`): that is no setting.
    if (value === undefined) continue
    const wanted = check(value)
    if (wanted !== null) throw new CliError(`config file ${file}: "${key}" must be ${wanted}, got ${JSON.stringify(value)}`)
    config[key] = value
  }
  return config as HelpdeskConfigFile
}

/** The file's text, or a one-line error that says why it cannot be read. */
function readText (file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new CliError(`config file ${file} does not exist`)
    if (code === 'EACCES' || code === 'EPERM') throw new CliError(`config file ${file} cannot be read (permission denied): make it readable by the user running helpdesk`)
    if (code === 'EISDIR') throw new CliError(`config file ${file} is a directory: give the path of a .json or .ts file`)
    throw new CliError(`config file ${file} cannot be read: ${(error as Error).message}`)
  }
}

function parseJson (file: string): unknown {
  const text = readText(file)
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new CliError(`config file ${file} is not valid JSON: ${(error as Error).message}`)
  }
}

/** A `.ts` config is compiled by tsx, loaded only when such a file is used. */
function loadTypeScript (file: string): unknown {
  let tsx: { require: (id: string, from: string) => { default?: unknown } }
  try {
    tsx = createRequire(import.meta.url)('tsx/cjs/api') as typeof tsx
  } catch {
    throw new CliError(`config file ${file} needs tsx to load: install it (npm install --save-dev tsx) or use helpdesk.config.json`)
  }
  try {
    const loaded = tsx.require(file, import.meta.url)
    return loaded.default ?? loaded
  } catch (error) {
    throw new CliError(`config file ${file} could not be loaded: ${(error as Error).message.split('\n')[0] ?? ''}`)
  }
}

/** Finds, reads and checks the config file. `path` (from `--config` or HELPDESK_CONFIG) must exist when given. */
export function readConfigFile (path: string | undefined, cwd = process.cwd()): { file: string | null, config: HelpdeskConfigFile } {
  let file: string
  if (path !== undefined) {
    file = resolve(cwd, path)
    readText(file)
  } else {
    const present = CONFIG_FILES.map((name) => resolve(cwd, name)).filter((f) => existsSync(f))
    if (present.length > 1) throw new CliError(`both ${present.join(' and ')} exist: keep one`)
    if (present[0] === undefined) return { file: null, config: {} }
    file = present[0]
  }
  const parsed = /\.[cm]?ts$/.test(file) ? loadTypeScript(file) : parseJson(file)
  return { file, config: checkConfigFile(file, parsed) }
}
