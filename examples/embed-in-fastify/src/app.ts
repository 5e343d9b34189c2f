import Fastify, { type FastifyInstance } from 'fastify'
import cookie from '@fastify/cookie'
import helpdesk from '@helpdesk/fastify'
import { Role, systemActor, type Helpdesk } from '@helpdesk/core'
import { createKnexStore, type KnexStore } from '@helpdesk/store-knex'

/**
 * The host's own users: in a real app these live in its database. Staff map to
 * help-desk agents, everyone else to customers.
 */
export const hostUsers = [
  { username: 'alice', password: 'alice-pass', email: 'alice@host.example', name: ['Alice', 'Anders'], staff: true },
  { username: 'bob', password: 'bob-pass', email: 'bob@host.example', name: ['Bob', 'Baker'], staff: false }
] as const

type HostUser = typeof hostUsers[number]

/** The host app acting on the help desk by itself (provisioning accounts): a system actor. */
const HOST = systemActor('host-app')

/** Creates the help-desk account of a host user the first time they use the help desk. */
async function provision (desk: Helpdesk, user: HostUser): Promise<{ id: number }> {
  const existing = await desk.auth.findUser({ email: user.email })
  if (existing !== null) return existing
  // The host owns authentication: the help-desk password is random and never used. The host's code acts as a trusted system.
  const input = { first_name: user.name[0], last_name: user.name[1], email: user.email, password: crypto.randomUUID() }
  return user.staff
    ? await desk.agents.create(HOST, input, Role.Admin, false)
    : await desk.customers.create(HOST, input, false)
}

export interface HostApp { app: FastifyInstance, store: KnexStore }

/** The host app: `/login` sets a signed session cookie; the help desk lives under `/support/api`. */
export async function buildHostApp (options: { databaseUrl: string, cookieSecret?: string }): Promise<HostApp> {
  const store = createKnexStore({ url: options.databaseUrl })
  await store.migrate()

  const app = Fastify({ logger: false })
  await app.register(cookie, { secret: options.cookieSecret ?? 'a-long-random-secret-for-signing-cookies' })

  app.post<{ Body: { username: string, password: string } }>('/login', async (request, reply) => {
    const user = hostUsers.find((u) => u.username === request.body?.username && u.password === request.body?.password)
    if (user === undefined) return await reply.code(401).send({ error: 'bad login' })
    reply.setCookie('session', user.username, { signed: true, httpOnly: true, sameSite: 'lax', path: '/' })
    return { ok: true }
  })

  await app.register(helpdesk, {
    store,
    prefix: '/support/api',
    registration: false,
    rateLimit: false,
    // Map the host's session to a help-desk user; null falls back to bearer tokens.
    authenticate: async (request) => {
      const raw = request.cookies.session
      if (raw === undefined) return null
      const session = request.unsignCookie(raw)
      const user = hostUsers.find((u) => u.username === session.value)
      if (!session.valid || user === undefined) return null
      return await provision(app.helpdesk, user)
    }
  })

  app.addHook('onClose', async () => { await store.close() })
  return { app, store }
}
