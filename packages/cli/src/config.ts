import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * Settings every command shares. Precedence: command-line flags, then the
 * environment, then `helpdesk.config.json` (or `--config FILE`), then defaults.
 */
export interface CliConfig {
  /** `sqlite:PATH` or `postgres://...` (HELPDESK_DATABASE_URL, `database`). */
  databaseUrl: string
  /** HOST, `host`. Default 127.0.0.1. */
  host: string
  /** PORT, `port`. Default 3000. */
  port: number
  /** Requests a minute per token; 0 switches rate limiting off (HELPDESK_RATE_LIMIT, `rateLimit`). Default 600. */
  rateLimit: number
  /** Redis for rate-limit counters shared by several instances (HELPDESK_REDIS_URL, `redisUrl`). */
  redisUrl: string | undefined
  /** Where uploaded files are kept (HELPDESK_STORAGE_DIR, `storageDir`). Default ./storage. */
  storageDir: string
  /** Allow self-registration of customers (HELPDESK_REGISTRATION=0|1, `registration`). Default true. */
  registration: boolean
  /** Where the settings came from, for `helpdesk doctor`. */
  configFile: string | null
}

export const DEFAULT_DATABASE_URL = 'sqlite:./helpdesk.sqlite'
export const CONFIG_FILE = 'helpdesk.config.json'

/** A user mistake: printed as one line, exit code 1. */
export class CliError extends Error {}

export interface ConfigFlags {
  database?: string | undefined
  host?: string | undefined
  port?: string | undefined
  rateLimit?: boolean | undefined
  config?: string | undefined
}

type FileConfig = Partial<{
  database: string, host: string, port: number, rateLimit: number | false, redisUrl: string, storageDir: string, registration: boolean
}>

const fileKeys: Record<keyof FileConfig, 'string' | 'number' | 'boolean' | 'rate'> = {
  database: 'string', host: 'string', port: 'number', rateLimit: 'rate', redisUrl: 'string', storageDir: 'string', registration: 'boolean'
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

/** Reads and checks the config file; every problem names the file and the key. */
export function readConfigFile (path: string | undefined, cwd = process.cwd()): { file: string | null, config: FileConfig } {
  const file = resolve(cwd, path ?? CONFIG_FILE)
  if (!existsSync(file)) {
    if (path !== undefined) throw new CliError(`config file ${file} does not exist`)
    return { file: null, config: {} }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new CliError(`config file ${file} is not valid JSON: ${(error as Error).message}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CliError(`config file ${file} must hold a JSON object`)
  for (const [key, value] of Object.entries(parsed)) {
    const kind = fileKeys[key as keyof FileConfig]
    if (kind === undefined) throw new CliError(`config file ${file}: unknown key "${key}" (known: ${Object.keys(fileKeys).join(', ')})`)
    const ok = kind === 'rate' ? value === false || typeof value === 'number' : typeof value === kind
    if (!ok) throw new CliError(`config file ${file}: "${key}" must be ${kind === 'rate' ? 'a number or false' : `a ${kind}`}`)
  }
  return { file, config: parsed as FileConfig }
}

export function checkDatabaseUrl (url: string): string {
  if (!url.startsWith('sqlite:') && !/^postgres(ql)?:\/\//.test(url)) {
    throw new CliError(`unsupported database URL "${url}": use sqlite:PATH or postgres://user@host:port/database`)
  }
  return url
}

export function loadConfig (flags: ConfigFlags = {}, env = process.env): CliConfig {
  const { file, config } = readConfigFile(flags.config ?? env.HELPDESK_CONFIG)
  const rate = flags.rateLimit === false
    ? 0
    : env.HELPDESK_RATE_LIMIT !== undefined
      ? integer('HELPDESK_RATE_LIMIT', env.HELPDESK_RATE_LIMIT, 0, 1_000_000)
      : config.rateLimit === false ? 0 : integer('rateLimit', config.rateLimit ?? 600, 0, 1_000_000)
  return {
    databaseUrl: checkDatabaseUrl(flags.database ?? env.HELPDESK_DATABASE_URL ?? config.database ?? DEFAULT_DATABASE_URL),
    host: flags.host ?? env.HOST ?? config.host ?? '127.0.0.1',
    port: integer(flags.port !== undefined ? '--port' : env.PORT !== undefined ? 'PORT' : 'port', flags.port ?? env.PORT ?? config.port ?? 3000, 0, 65535),
    rateLimit: rate,
    redisUrl: env.HELPDESK_REDIS_URL ?? config.redisUrl,
    storageDir: resolve(env.HELPDESK_STORAGE_DIR ?? config.storageDir ?? './storage'),
    registration: env.HELPDESK_REGISTRATION !== undefined ? bool('HELPDESK_REGISTRATION', env.HELPDESK_REGISTRATION) : config.registration ?? true,
    configFile: file
  }
}

/** The database URL for commands that need nothing else. */
export function databaseUrl (flag: string | undefined, env = process.env): string {
  return loadConfig({ database: flag }, env).databaseUrl
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
