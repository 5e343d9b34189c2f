import { resolve } from 'node:path'
import { DEFAULT_UPLOAD_QUOTA, type SessionOptions, type SignInOptions, type UploadQuota } from '@helpdesk/core'
import type { HelpdeskMailOptions, HelpdeskPluginCommonOptions, HelpdeskServiceOptions, RateLimitOptions } from '@helpdesk/fastify'
import { checked, CliError, isLogLevel, isPrefix, isRedisUrl, isWebUrl, readConfigFile, SMTP_LIMITS, type HelpdeskConfigFile, type LogLevel, type MailFileOptions, type RateLimitFileOptions } from './config-file.js'

export { CliError, readConfigFile, type HelpdeskConfigFile } from './config-file.js'

/** The plugin options a configuration sets, under the plugin's own names and types. */
export type ConfiguredPluginOptions = Required<Pick<HelpdeskPluginCommonOptions, 'prefix'> & Pick<HelpdeskServiceOptions, 'registration' | 'storageDir'>> & {
  rateLimit: false | (RateLimitFileOptions & Pick<RateLimitOptions, 'redis'> & { max: number })
  uploadQuota: UploadQuota
  /** HELPDESK_SESSION_IDLE_MINUTES / HELPDESK_SESSION_LIFETIME_MINUTES / HELPDESK_TOKEN_IDLE_MINUTES over the file's `sessions`; absent: the defaults. */
  sessions?: SessionOptions
  /** HELPDESK_SECRET_KEY, HELPDESK_PASSWORD_RESET_MINUTES... over the file's `signIn` (docs/sign-in.md). */
  signIn?: SignInOptions
  /** HELPDESK_WEBHOOKS_ALLOW_PRIVATE_TARGETS: webhook deliveries to loopback and private addresses. */
  webhooks?: { allowPrivateTargets: boolean }
  /** Set when mail is configured (a sender, and an SMTP URL or inbound addresses). */
  mail?: HelpdeskMailOptions
}

/**
 * Everything `helpdesk` runs with. Precedence: command-line flags, then the
 * environment, then the config file (`--config FILE`, HELPDESK_CONFIG,
 * `helpdesk.config.json` or `helpdesk.config.ts`), then defaults.
 * docs/configuration.md lists every setting (a test checks it).
 */
export interface HelpdeskConfig {
  /** `sqlite:PATH` or `postgres://...` (--database, HELPDESK_DATABASE_URL, `database`). Default sqlite:./helpdesk.sqlite. */
  databaseUrl: string
  /** --host, HOST, `host`. Default 127.0.0.1. */
  host: string
  /** --port, PORT, `port`. Default 3000. */
  port: number
  /** Trust `X-Forwarded-For/-Proto/-Host` from a proxy (HELPDESK_TRUST_PROXY, `trustProxy`). Default false. */
  trustProxy: boolean
  /** The console's and knowledge base's public URL (HELPDESK_WEB_URL, `webUrl`): canonical links and the sitemap. Default none: neither. */
  webUrl: string | null
  /** The console's image proxy may fetch from loopback and private addresses (HELPDESK_IMAGE_PROXY_ALLOW_PRIVATE_TARGETS). Default false. */
  imageProxyAllowPrivateTargets: boolean
  /** LOG_LEVEL, `logLevel`; HELPDESK_QUIET=1 means `silent`. Default info. */
  logLevel: LogLevel
  /** Serve the web console at `/` (--no-web, HELPDESK_WEB, `web`). Default true. */
  web: boolean
  /** The Fastify plugin's options: what `helpdesk serve` registers the plugin with. */
  plugin: ConfiguredPluginOptions
  /** `helpdesk serve` listens for inbound mail over SMTP here (--smtp-port, HELPDESK_SMTP_PORT, `mail.smtpPort`); null: no listener. */
  smtpPort: number | null
  /** The SMTP listener's limits and certificate (HELPDESK_SMTP_*, `mail.smtp*`); what is not set keeps the listener's default. */
  smtp: SmtpListenerSettings
  /** `helpdesk serve` polls this IMAP mailbox for inbound mail (HELPDESK_IMAP_URL, `mail.imapUrl`); null: no poller. */
  imap: { url: string, moveTo?: string } | null
  /** Where the settings came from, for `helpdesk doctor`. */
  configFile: string | null
}

/** What the configuration sets of the SMTP listener's options (`SmtpListenerOptions` of `@helpdesk/mail`). */
export interface SmtpListenerSettings {
  maxBytes?: number
  maxBufferedBytes?: number
  maxClients?: number
  maxClientsPerIp?: number
  idleTimeoutMs?: number
  dataTimeoutMs?: number
  /** Absolute paths of the PEM private key and certificate chain, read when the listener starts: STARTTLS is offered with them. */
  tls?: { keyFile: string, certFile: string }
}

/** @deprecated The former name of `HelpdeskConfig`. */
export type CliConfig = HelpdeskConfig

export const DEFAULT_DATABASE_URL = 'sqlite:./helpdesk.sqlite'
export const DEFAULT_RATE_LIMIT = 600

/** Flags the commands share; each command declares the ones it takes. */
export interface ConfigFlags {
  database?: string | undefined
  host?: string | undefined
  port?: string | undefined
  prefix?: string | undefined
  /** `--no-rate-limit` sets this to false. */
  rateLimit?: boolean | undefined
  /** `--no-web` sets this to false. */
  web?: boolean | undefined
  config?: string | undefined
  smtpPort?: string | undefined
}

function integer (name: string, value: string | number, min: number, max: number): number {
  const text = String(value)
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new CliError(`${name} must be an integer from ${min} to ${max}, got "${text}"`)
  }
  return Number(text)
}

function bool (name: string, value: string): boolean {
  if (['1', 'true', 'yes', 'on'].includes(value)) return true
  if (['0', 'false', 'no', 'off'].includes(value)) return false
  throw new CliError(`${name} must be 0 or 1, got "${value}"`)
}

export function checkDatabaseUrl (url: string): string {
  if (!url.startsWith('sqlite:') && !/^postgres(ql)?:\/\//.test(url)) {
    throw new CliError(`unsupported database URL "${url}": use sqlite:PATH or postgres://user@host:port/database`)
  }
  return url
}

/** HELPDESK_UPLOAD_QUOTA_BYTES / HELPDESK_UPLOAD_QUOTA_FILES over the file's `uploadQuota` over the defaults (200 MB, 50 files). */
function uploadQuotaOf (env: NodeJS.ProcessEnv, file: HelpdeskConfigFile): UploadQuota {
  return {
    maxBytes: env.HELPDESK_UPLOAD_QUOTA_BYTES !== undefined
      ? integer('HELPDESK_UPLOAD_QUOTA_BYTES', env.HELPDESK_UPLOAD_QUOTA_BYTES, 1, Number.MAX_SAFE_INTEGER)
      : file.uploadQuota?.maxBytes ?? DEFAULT_UPLOAD_QUOTA.maxBytes,
    maxFiles: env.HELPDESK_UPLOAD_QUOTA_FILES !== undefined
      ? integer('HELPDESK_UPLOAD_QUOTA_FILES', env.HELPDESK_UPLOAD_QUOTA_FILES, 1, 1_000_000)
      : file.uploadQuota?.maxFiles ?? DEFAULT_UPLOAD_QUOTA.maxFiles
  }
}

const MINUTE_MS = 60_000

/** The environment's session lifetimes (in minutes) over the file's `sessions` (in milliseconds); undefined when neither sets one. */
function sessionsOf (env: NodeJS.ProcessEnv, file: HelpdeskConfigFile): SessionOptions | undefined {
  const minutes = (name: string, min: number): number | undefined => {
    const value = env[name]
    return value === undefined ? undefined : integer(name, value, min, 100 * 365 * 24 * 60) * MINUTE_MS
  }
  const idleTimeoutMs = minutes('HELPDESK_SESSION_IDLE_MINUTES', 0) ?? file.sessions?.idleTimeoutMs
  const lifetimeMs = minutes('HELPDESK_SESSION_LIFETIME_MINUTES', 1) ?? file.sessions?.lifetimeMs
  const tokenIdleTimeoutMs = minutes('HELPDESK_TOKEN_IDLE_MINUTES', 0) ?? file.sessions?.tokenIdleTimeoutMs
  if (idleTimeoutMs === undefined && lifetimeMs === undefined && tokenIdleTimeoutMs === undefined) return undefined
  return {
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    ...(lifetimeMs !== undefined ? { lifetimeMs } : {}),
    ...(tokenIdleTimeoutMs !== undefined ? { tokenIdleTimeoutMs } : {})
  }
}

/** The environment's sign-in options over the file's `signIn`; undefined when neither sets one. */
function signInOf (env: NodeJS.ProcessEnv, file: HelpdeskConfigFile): SignInOptions | undefined {
  const number = (name: string, max: number): number | undefined => env[name] === undefined ? undefined : integer(name, env[name], 1, max)
  const secretKey = env.HELPDESK_SECRET_KEY ?? file.signIn?.secretKey
  if (secretKey !== undefined && secretKey.length < 16) throw new CliError('HELPDESK_SECRET_KEY must be at least 16 characters.')
  const options: SignInOptions = {
    ...file.signIn,
    ...definedOnly({
      passwordResetMinutes: number('HELPDESK_PASSWORD_RESET_MINUTES', 10_080),
      magicLinkMinutes: number('HELPDESK_MAGIC_LINK_MINUTES', 1440),
      verificationHours: number('HELPDESK_VERIFICATION_HOURS', 720),
      secondFactorMinutes: number('HELPDESK_SECOND_FACTOR_MINUTES', 60),
      ssoRecheckMinutes: number('HELPDESK_SSO_RECHECK_MINUTES', 1440),
      issuer: env.HELPDESK_TOTP_ISSUER,
      secretKey,
      publicUrl: file.signIn?.publicUrl ?? env.HELPDESK_PUBLIC_URL ?? file.mail?.publicUrl
    })
  }
  return Object.keys(options).length === 0 ? undefined : options
}

function definedOnly<T extends Record<string, unknown>> (values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>
}

/** Flags over HELPDESK_RATE_LIMIT / HELPDESK_LOGIN_RATE_LIMIT / HELPDESK_REDIS_URL over the file; 0 or false is off. */
function rateLimitOf (flags: ConfigFlags, env: NodeJS.ProcessEnv, file: HelpdeskConfigFile): ConfiguredPluginOptions['rateLimit'] {
  if (flags.rateLimit === false) return false
  const fromFile: RateLimitFileOptions = typeof file.rateLimit === 'object'
    ? file.rateLimit
    : { max: file.rateLimit === false ? 0 : file.rateLimit ?? DEFAULT_RATE_LIMIT }
  const max = env.HELPDESK_RATE_LIMIT !== undefined ? integer('HELPDESK_RATE_LIMIT', env.HELPDESK_RATE_LIMIT, 0, 1_000_000) : fromFile.max ?? DEFAULT_RATE_LIMIT
  if (max === 0) return false
  const loginMax = env.HELPDESK_LOGIN_RATE_LIMIT !== undefined
    ? integer('HELPDESK_LOGIN_RATE_LIMIT', env.HELPDESK_LOGIN_RATE_LIMIT, 1, 1_000_000)
    : fromFile.loginMax
  const redis = env.HELPDESK_REDIS_URL !== undefined ? checked('HELPDESK_REDIS_URL', env.HELPDESK_REDIS_URL, isRedisUrl) : file.redisUrl
  const pageMax = env.HELPDESK_PAGE_RATE_LIMIT !== undefined
    ? integer('HELPDESK_PAGE_RATE_LIMIT', env.HELPDESK_PAGE_RATE_LIMIT, 0, 1_000_000)
    : fromFile.pageMax
  return {
    ...fromFile,
    max,
    ...(pageMax !== undefined ? { pageMax } : {}),
    ...(loginMax !== undefined ? { loginMax } : {}),
    ...(redis !== undefined ? { redis } : {})
  }
}

/** `support@example.com=1,sales@example.com=2` (HELPDESK_MAIL_INBOUND). */
function inboundOf (value: string): Record<string, number> {
  const map: Record<string, number> = {}
  for (const pair of value.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const match = /^([^\s@=]+@[^\s@=]+)=(\d+)$/.exec(pair)
    if (match?.[1] === undefined || match[2] === undefined) throw new CliError(`HELPDESK_MAIL_INBOUND must look like support@example.com=1,sales@example.com=2, got "${pair}"`)
    map[match[1].toLowerCase()] = Number(match[2])
  }
  return map
}

/** The environment over the file's `mail`; undefined when neither sets a sender. */
function mailOf (env: NodeJS.ProcessEnv, file: HelpdeskConfigFile, cwd: string): HelpdeskMailOptions | undefined {
  const {
    smtpPort: _port, imapUrl: _imap, imapMoveTo: _moveTo, smtpMaxBytes: _maxBytes, smtpMaxBufferedBytes: _buffered, smtpMaxClients: _clients,
    smtpMaxClientsPerIp: _perIp, smtpIdleTimeoutMs: _idle, smtpDataTimeoutMs: _data, smtpTlsKey: _key, smtpTlsCert: _cert, ...fromFile
  } = file.mail ?? {}
  const smtpUrl = env.HELPDESK_SMTP_URL ?? fromFile.smtpUrl
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) throw new CliError('HELPDESK_SMTP_URL must be an smtp:// or smtps:// URL')
  const from = env.HELPDESK_MAIL_FROM ?? fromFile.from
  const inbound = env.HELPDESK_MAIL_INBOUND !== undefined ? inboundOf(env.HELPDESK_MAIL_INBOUND) : fromFile.inbound
  if (from === undefined) {
    if (smtpUrl !== undefined || inbound !== undefined) throw new CliError('mail needs a sender: set HELPDESK_MAIL_FROM (or mail.from in the config file)')
    return undefined
  }
  const replyTo = env.HELPDESK_MAIL_REPLY_TO ?? fromFile.replyTo
  const publicUrl = env.HELPDESK_PUBLIC_URL ?? fromFile.publicUrl
  const consoleUrl = env.HELPDESK_CONSOLE_URL ?? fromFile.consoleUrl
  if (consoleUrl !== undefined && !/^https?:\/\//.test(consoleUrl)) throw new CliError('HELPDESK_CONSOLE_URL must be an http:// or https:// URL')
  const trustedAuthServIds = env.HELPDESK_MAIL_TRUSTED_AUTHSERV_IDS !== undefined
    ? env.HELPDESK_MAIL_TRUSTED_AUTHSERV_IDS.split(',').map((id) => id.trim()).filter((id) => id !== '')
    : fromFile.trustedAuthServIds
  const templatesDir = env.HELPDESK_MAIL_TEMPLATES ?? fromFile.templatesDir
  const inboundSecret = env.HELPDESK_MAIL_INBOUND_SECRET ?? fromFile.inboundSecret
  return {
    ...fromFile,
    from,
    ...(smtpUrl !== undefined ? { smtpUrl } : {}),
    ...(inbound !== undefined ? { inbound } : {}),
    ...(replyTo !== undefined ? { replyTo } : {}),
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(consoleUrl !== undefined ? { consoleUrl } : {}),
    ...(trustedAuthServIds !== undefined ? { trustedAuthServIds } : {}),
    ...(templatesDir !== undefined ? { templatesDir: resolve(cwd, templatesDir) } : {}),
    ...(inboundSecret !== undefined ? { inboundSecret } : {})
  }
}

/** HELPDESK_SMTP_* over the file's `mail.smtp*` (the listener's limits and certificate); unset ones are left out. */
function smtpListenerOf (env: NodeJS.ProcessEnv, file: HelpdeskConfigFile, cwd: string): SmtpListenerSettings {
  const settings: SmtpListenerSettings = {}
  // [option, its variable's name and value (read as env.NAME, so the docs test sees it), its key under `mail`, largest value]
  const limits: Array<[keyof Omit<SmtpListenerSettings, 'tls'>, string, string | undefined, keyof MailFileOptions, number]> = [
    ['maxBytes', 'HELPDESK_SMTP_MAX_BYTES', env.HELPDESK_SMTP_MAX_BYTES, 'smtpMaxBytes', SMTP_LIMITS.bytes],
    ['maxBufferedBytes', 'HELPDESK_SMTP_MAX_BUFFERED_BYTES', env.HELPDESK_SMTP_MAX_BUFFERED_BYTES, 'smtpMaxBufferedBytes', Number.MAX_SAFE_INTEGER],
    ['maxClients', 'HELPDESK_SMTP_MAX_CLIENTS', env.HELPDESK_SMTP_MAX_CLIENTS, 'smtpMaxClients', SMTP_LIMITS.clients],
    ['maxClientsPerIp', 'HELPDESK_SMTP_MAX_CLIENTS_PER_IP', env.HELPDESK_SMTP_MAX_CLIENTS_PER_IP, 'smtpMaxClientsPerIp', SMTP_LIMITS.clients],
    ['idleTimeoutMs', 'HELPDESK_SMTP_IDLE_TIMEOUT_MS', env.HELPDESK_SMTP_IDLE_TIMEOUT_MS, 'smtpIdleTimeoutMs', SMTP_LIMITS.ms],
    ['dataTimeoutMs', 'HELPDESK_SMTP_DATA_TIMEOUT_MS', env.HELPDESK_SMTP_DATA_TIMEOUT_MS, 'smtpDataTimeoutMs', SMTP_LIMITS.ms]
  ]
  for (const [option, variable, value, key, max] of limits) {
    if (value !== undefined) settings[option] = integer(variable, value, 1, max)
    else if (file.mail?.[key] !== undefined) settings[option] = file.mail[key] as number
  }
  const keyFile = env.HELPDESK_SMTP_TLS_KEY ?? file.mail?.smtpTlsKey
  const certFile = env.HELPDESK_SMTP_TLS_CERT ?? file.mail?.smtpTlsCert
  if ((keyFile === undefined) !== (certFile === undefined)) {
    throw new CliError('STARTTLS needs both a key and a certificate: set HELPDESK_SMTP_TLS_KEY and HELPDESK_SMTP_TLS_CERT (or mail.smtpTlsKey and mail.smtpTlsCert)')
  }
  if (keyFile !== undefined && certFile !== undefined) settings.tls = { keyFile: resolve(cwd, keyFile), certFile: resolve(cwd, certFile) }
  return settings
}

function imapOf (env: NodeJS.ProcessEnv, file: HelpdeskConfigFile): HelpdeskConfig['imap'] {
  const url = env.HELPDESK_IMAP_URL ?? file.mail?.imapUrl
  if (url === undefined) return null
  if (!/^imaps?:\/\//.test(url)) throw new CliError('HELPDESK_IMAP_URL must be an imap:// or imaps:// URL')
  const moveTo = env.HELPDESK_IMAP_MOVE_TO ?? file.mail?.imapMoveTo
  return { url, ...(moveTo !== undefined ? { moveTo } : {}) }
}

function logLevelOf (env: NodeJS.ProcessEnv, file: HelpdeskConfigFile): LogLevel {
  if (env.HELPDESK_QUIET !== undefined && bool('HELPDESK_QUIET', env.HELPDESK_QUIET)) return 'silent'
  return env.LOG_LEVEL !== undefined ? checked('LOG_LEVEL', env.LOG_LEVEL, isLogLevel) as LogLevel : file.logLevel ?? 'info'
}

/** Reads flags, the environment and the config file into one checked configuration; a bad value throws a one-line CliError. */
export function loadConfig (flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): HelpdeskConfig {
  const { file, config } = readConfigFile(flags.config ?? env.HELPDESK_CONFIG, cwd)
  const portName = flags.port !== undefined ? '--port' : env.PORT !== undefined ? 'PORT' : 'port'
  const smtpPortName = flags.smtpPort !== undefined ? '--smtp-port' : env.HELPDESK_SMTP_PORT !== undefined ? 'HELPDESK_SMTP_PORT' : 'mail.smtpPort'
  const smtpPort = flags.smtpPort ?? env.HELPDESK_SMTP_PORT ?? config.mail?.smtpPort
  const mail = mailOf(env, config, cwd)
  const prefixName = flags.prefix !== undefined ? '--prefix' : env.HELPDESK_PREFIX !== undefined ? 'HELPDESK_PREFIX' : 'prefix'
  const sessions = sessionsOf(env, config)
  const signIn = signInOf(env, config)
  return {
    databaseUrl: checkDatabaseUrl(flags.database ?? env.HELPDESK_DATABASE_URL ?? config.database ?? DEFAULT_DATABASE_URL),
    host: flags.host ?? env.HOST ?? config.host ?? '127.0.0.1',
    port: integer(portName, flags.port ?? env.PORT ?? config.port ?? 3000, 0, 65535),
    trustProxy: env.HELPDESK_TRUST_PROXY !== undefined ? bool('HELPDESK_TRUST_PROXY', env.HELPDESK_TRUST_PROXY) : config.trustProxy ?? false,
    webUrl: env.HELPDESK_WEB_URL !== undefined ? checked('HELPDESK_WEB_URL', env.HELPDESK_WEB_URL, isWebUrl) : config.webUrl ?? null,
    imageProxyAllowPrivateTargets: env.HELPDESK_IMAGE_PROXY_ALLOW_PRIVATE_TARGETS !== undefined
      ? bool('HELPDESK_IMAGE_PROXY_ALLOW_PRIVATE_TARGETS', env.HELPDESK_IMAGE_PROXY_ALLOW_PRIVATE_TARGETS)
      : false,
    logLevel: logLevelOf(env, config),
    web: flags.web === false ? false : env.HELPDESK_WEB !== undefined ? bool('HELPDESK_WEB', env.HELPDESK_WEB) : config.web ?? true,
    plugin: {
      prefix: checked(prefixName, flags.prefix ?? env.HELPDESK_PREFIX ?? config.prefix ?? '/api/v1', isPrefix),
      rateLimit: rateLimitOf(flags, env, config),
      storageDir: resolve(cwd, env.HELPDESK_STORAGE_DIR ?? config.storageDir ?? './storage'),
      registration: env.HELPDESK_REGISTRATION !== undefined ? bool('HELPDESK_REGISTRATION', env.HELPDESK_REGISTRATION) : config.registration ?? true,
      uploadQuota: uploadQuotaOf(env, config),
      ...(sessions !== undefined ? { sessions } : {}),
      ...(signIn !== undefined ? { signIn } : {}),
      ...(env.HELPDESK_WEBHOOKS_ALLOW_PRIVATE_TARGETS !== undefined
        ? { webhooks: { allowPrivateTargets: bool('HELPDESK_WEBHOOKS_ALLOW_PRIVATE_TARGETS', env.HELPDESK_WEBHOOKS_ALLOW_PRIVATE_TARGETS) } }
        : {}),
      ...(mail !== undefined ? { mail } : {})
    },
    smtpPort: smtpPort !== undefined ? integer(smtpPortName, smtpPort, 0, 65535) : null,
    smtp: smtpListenerOf(env, config, cwd),
    imap: imapOf(env, config),
    configFile: file
  }
}

/** The database URL for commands that need nothing else. */
export function databaseUrl (flag: string | undefined, env = process.env, configPath?: string): string {
  return loadConfig({ database: flag, config: configPath }, env).databaseUrl
}

/** A database URL safe to print: no password. */
export function redact (url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return url
  }
}
