import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify'
import { createArgon2Hasher, createHelpdesk, createLocalFileStorage, noPermissions, Role, type Helpdesk, type User, SYSTEM } from '@helpdesk/core'
import helpdeskApi, { frameworkErrors } from '@helpdesk/fastify'
import { createKnexStore, createTestDatabase, testDialects, type KnexStore } from '@helpdesk/store-knex'
import helpdeskWeb, { type HelpdeskWebOptions } from '../../src/server/index.js'

export { testDialects }

export interface WebTestApp {
  app: FastifyInstance
  store: KnexStore
  /** The test database's URL, for another store on it. */
  databaseUrl: string
  helpdesk: Helpdesk
  /** A user of the role with a bearer token (for setting up data through the API). */
  user: (role: 'admin' | 'agent' | 'customer', permissions?: Partial<ReturnType<typeof noPermissions>>) => Promise<{ user: User, token: string, email: string }>
  /** A session cookie header for the user (logs in through `POST /api/v1/auth/session`). */
  sessionCookie: (email: string) => Promise<string>
  api: (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) => Promise<any>
  /** Counts SQL statements this app's store issues while `fn` runs. */
  countQueries: <T>(fn: () => Promise<T>) => Promise<{ result: T, queries: number }>
  /** Another instance on the same database (its own store, services, API and console plugin), closed after the test. */
  anotherInstance: (web?: HelpdeskWebOptions) => Promise<{ app: FastifyInstance, store: KnexStore }>
}

const hasher = createArgon2Hasher({ memoryCost: 1024, timeCost: 1 })
const PASSWORD = 'secret123'
let counter = 0

/** A migrated database, the API at /api/v1 and the console plugin; torn down after the test. */
async function instance (helpdesk: Helpdesk, web: HelpdeskWebOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, frameworkErrors, trustProxy: true })
  await app.register(helpdeskApi, { helpdesk, rateLimit: false })
  await app.register(helpdeskWeb, web)
  await app.ready()
  return app
}

export async function buildWebApp (t: TestContext, dialect: 'sqlite' | 'postgres', web: HelpdeskWebOptions = {}): Promise<WebTestApp> {
  const db = await createTestDatabase(dialect)
  const store = createKnexStore({ url: db.url })
  await store.migrate()
  const storageDir = mkdtempSync(join(tmpdir(), 'helpdesk-web-'))
  const helpdesk = createHelpdesk({ store, hasher, fileStorage: createLocalFileStorage(storageDir) })
  const app = await instance(helpdesk, web)
  const others: Array<{ app: FastifyInstance, store: KnexStore }> = []
  t.after(async () => {
    for (const other of others) {
      await other.app.close()
      await other.store.close()
    }
    await app.close()
    await store.close()
    await db.drop()
    rmSync(storageDir, { recursive: true, force: true })
  })
  let queries = 0
  store.knex.on('query', () => { queries++ })
  const api: WebTestApp['api'] = async (method, url, token, payload) => {
    const res = await app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return res.json().data
  }
  return {
    app,
    store,
    databaseUrl: db.url,
    helpdesk,
    api,
    async countQueries (fn) {
      const before = queries
      const result = await fn()
      return { result, queries: queries - before }
    },
    async anotherInstance (otherWeb = web) {
      const otherStore = createKnexStore({ url: db.url })
      const other = { app: await instance(createHelpdesk({ store: otherStore, hasher, fileStorage: createLocalFileStorage(storageDir) }), otherWeb), store: otherStore }
      others.push(other)
      return other
    },
    async user (role, permissions) {
      counter++
      const email = `${role}${counter}-${Date.now()}@example.com`
      const input = { first_name: `First${counter}`, last_name: `Last${counter}`, email, password: PASSWORD }
      let user = role === 'customer'
        ? await helpdesk.customers.create(SYSTEM, input, false)
        : await helpdesk.agents.create(SYSTEM, input, role === 'admin' ? Role.Admin : Role.Agent, false)
      if (permissions !== undefined) user = (await store.users.update(user.id, { permissions: { ...noPermissions(), ...permissions } }))!
      const { token } = await helpdesk.auth.createToken(user, 'test')
      return { user, token, email }
    },
    async sessionCookie (email) {
      const res = await app.inject({ method: 'POST', url: '/api/v1/auth/session', payload: { email, password: PASSWORD } })
      assert.equal(res.statusCode, 200, res.body)
      return String(res.headers['set-cookie']).split(';')[0]!
    }
  }
}

export function eachDialect (fn: (dialect: 'sqlite' | 'postgres') => void): void {
  for (const dialect of testDialects()) fn(dialect)
}

export function expectHtml (res: LightMyRequestResponse, status = 200): string {
  assert.equal(res.statusCode, status, res.body.slice(0, 300))
  assert.match(String(res.headers['content-type']), /^text\/html/)
  return res.body
}
