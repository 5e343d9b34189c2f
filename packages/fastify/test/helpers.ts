import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify'
import { createArgon2Hasher, createHelpdesk, createLocalFileStorage, Role, type Clock, type Helpdesk, type User, SYSTEM } from '@helpdesk/core'
import { createKnexStore, createTestDatabase, testDialects, type KnexStore } from '@helpdesk/store-knex'
import helpdeskPlugin, { frameworkErrors, type HelpdeskPluginCommonOptions, type HelpdeskServiceOptions } from '../src/index.js'

export { testDialects }

/** Cheap argon2id parameters: tests hash many passwords. */
export const testHasher = createArgon2Hasher({ memoryCost: 1024, timeCost: 1 })

export interface TestApp {
  app: FastifyInstance
  store: KnexStore
  /** The test database's URL, for a second instance on the same database. */
  databaseUrl: string
  helpdesk: Helpdesk
  /** Counts SQL statements issued while `fn` runs. */
  countQueries: <T>(fn: () => Promise<T>) => Promise<{ result: T, queries: number }>
  /** Creates a user of the role and returns it with a bearer token. */
  user: (role: 'admin' | 'agent' | 'customer', overrides?: Partial<{ email: string, first_name: string, last_name: string, password: string }>) => Promise<{ user: User, token: string, headers: Record<string, string> }>
  inject: (options: InjectOptions & { token?: string }) => ReturnType<FastifyInstance['inject']>
  /** Every route the plugin registered, as `METHOD /url` (HEAD routes left out). */
  routes: string[]
  /** The same routes with their options (schemas, config), for tests that derive requests from them. */
  routeOptions: RegisteredRoute[]
  /** This app's attachment directory: a temporary one, removed afterwards. */
  storageDir: string
}

/** A registered route as the onRoute hook saw it. */
export interface RegisteredRoute {
  method: string
  url: string
  schema: Record<string, unknown>
  config: Record<string, unknown>
}

let counter = 0

/**
 * What a test's app is built with: the plugin's options and the services' (createHelpdesk's), as if the plugin built them;
 * `clock` is the services' and the store's time (see `manualClock`).
 */
export type BuildAppOptions = HelpdeskPluginCommonOptions & HelpdeskServiceOptions & { clock?: Clock }

/** A clock tests move by hand (sessions' idle timeouts and lifetimes without waiting). */
export interface ManualClock extends Clock { advance: (ms: number) => void }

export function manualClock (start = Date.parse('2030-01-01T00:00:00Z')): ManualClock {
  let time = start
  return { now: () => new Date(time), advance: (ms) => { time += ms } }
}

/** A migrated database of `dialect` and an app with the plugin; both torn down after the test. */
export async function buildApp (t: TestContext, dialect: 'sqlite' | 'postgres', options: BuildAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(dialect)
  const store = createKnexStore({ url: db.url, ...(options.clock !== undefined ? { clock: options.clock } : {}) })
  await store.migrate()
  const storageDir = mkdtempSync(join(tmpdir(), 'helpdesk-files-'))
  // The services are prebuilt (tests call them directly): the service options go to createHelpdesk, the rest to the plugin.
  const { registration, hasher, marketplace, storageDir: _storageDir, fileStorage, tokenCache, mail, sessions, signIn, clock, ...pluginOptions } = options
  const helpdesk = createHelpdesk({
    store,
    ...(clock !== undefined ? { clock } : {}),
    ...(sessions !== undefined ? { sessions } : {}),
    ...(signIn !== undefined ? { signIn } : {}),
    hasher: hasher ?? testHasher,
    fileStorage: fileStorage ?? createLocalFileStorage(storageDir),
    ...(registration !== undefined ? { registration } : {}),
    ...(marketplace !== undefined ? { marketplace } : {}),
    ...(tokenCache !== undefined ? { tokenCache } : {}),
    ...(mail !== undefined ? { mail } : {})
  })
  const inbound = mail?.inboundSecret !== undefined ? { mail: { inboundSecret: mail.inboundSecret } } : {}
  const app = Fastify({ logger: false, frameworkErrors })
  const routes: string[] = []
  const routeOptions: RegisteredRoute[] = []
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue
      routes.push(`${method} ${route.url}`)
      routeOptions.push({ method, url: route.url, schema: (route.schema ?? {}) as Record<string, unknown>, config: (route.config ?? {}) as Record<string, unknown> })
    }
  })
  // No job runner unless a test asks for one: tests run jobs with `helpdesk.jobs.runDue()`, and a runner's polls would count as queries.
  await app.register(helpdeskPlugin, { helpdesk, rateLimit: false, workers: false, ...pluginOptions, ...inbound })
  await app.ready()
  t.after(async () => {
    await app.close()
    await store.close()
    await db.drop()
    rmSync(storageDir, { recursive: true, force: true })
  })
  let queries = 0
  store.knex.on('query', () => { queries++ })
  return {
    app,
    routes,
    routeOptions,
    storageDir,
    store,
    databaseUrl: db.url,
    helpdesk,
    async countQueries (fn) {
      const before = queries
      const result = await fn()
      return { result, queries: queries - before }
    },
    async user (role, overrides = {}) {
      counter++
      const input = {
        first_name: overrides.first_name ?? `First${counter}`,
        last_name: overrides.last_name ?? `Last${counter}`,
        email: overrides.email ?? `${role}${counter}-${Date.now()}@example.com`,
        password: overrides.password ?? 'secret123'
      }
      const user = role === 'customer'
        ? await helpdesk.customers.create(SYSTEM, input, false)
        : await helpdesk.agents.create(SYSTEM, input, role === 'admin' ? Role.Admin : Role.Agent, false)
      const { token } = await helpdesk.auth.createToken(user, 'test')
      return { user, token, headers: { authorization: `Bearer ${token}` } }
    },
    async inject (opts) {
      const { token, ...rest } = opts
      const headers = { ...(rest.headers ?? {}), ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) }
      return await app.inject({ ...rest, headers })
    }
  }
}

/** Runs `fn` as a describe-able suite once per configured dialect. */
export function eachDialect (fn: (dialect: 'sqlite' | 'postgres') => void): void {
  for (const dialect of testDialects()) fn(dialect)
}

/** True when the configured dialects include PostgreSQL (for suites that need two instances on one database). */
export function includesPostgres (): boolean {
  return testDialects().includes('postgres')
}

/**
 * A second app on `h`'s database (another instance of the service: its own
 * store, notifier and listening connection), listening on a loopback port;
 * closed after the test.
 */
export async function secondInstance (t: TestContext, h: TestApp): Promise<FastifyInstance> {
  const store = createKnexStore({ url: h.databaseUrl })
  const other = Fastify({ logger: false, frameworkErrors })
  await other.register(helpdeskPlugin, {
    helpdesk: createHelpdesk({ store, hasher: testHasher, fileStorage: createLocalFileStorage(h.storageDir) }),
    rateLimit: false
  })
  await other.listen({ host: '127.0.0.1', port: 0 })
  t.after(async () => { await other.close(); await store.close() })
  return other
}
