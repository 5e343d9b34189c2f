import { resolve } from 'node:path'

/** Settings every command shares, from flags first, then the environment, then defaults (CONTRACT §14). */
export interface CliConfig {
  databaseUrl: string
  host: string
  port: number
  /** Requests a minute per token; 0 switches rate limiting off. */
  rateLimit: number
  redisUrl: string | undefined
  storageDir: string
}

export const DEFAULT_DATABASE_URL = 'sqlite:./helpdesk.sqlite'

export class CliError extends Error {}

function integer (name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new CliError(`${name} must be an integer from ${min} to ${max}, got "${value}"`)
  }
  return Number(value)
}

export function databaseUrl (flag: string | undefined, env = process.env): string {
  const url = flag ?? env.HELPDESK_DATABASE_URL ?? DEFAULT_DATABASE_URL
  if (!url.startsWith('sqlite:') && !/^postgres(ql)?:\/\//.test(url)) {
    throw new CliError(`unsupported database URL "${url}": use sqlite:PATH or postgres://user@host:port/database`)
  }
  return url
}

export function loadConfig (flags: { database?: string, host?: string, port?: string, rateLimit?: boolean }, env = process.env): CliConfig {
  const rateLimitEnv = env.HELPDESK_RATE_LIMIT
  return {
    databaseUrl: databaseUrl(flags.database, env),
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    port: integer('port', flags.port ?? env.PORT ?? '3000', 0, 65535),
    rateLimit: flags.rateLimit === false ? 0 : rateLimitEnv !== undefined ? integer('HELPDESK_RATE_LIMIT', rateLimitEnv, 0, 1_000_000) : 600,
    redisUrl: env.HELPDESK_REDIS_URL,
    storageDir: resolve(env.HELPDESK_STORAGE_DIR ?? './storage')
  }
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
