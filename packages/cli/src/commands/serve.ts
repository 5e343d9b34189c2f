import { Command } from 'commander'
import { randomBytes } from 'node:crypto'
import { createHelpdesk, Role } from '@helpdesk/core'
import { loadConfig, redact, type ConfigFlags } from '../config.js'
import type { CliIo } from '../io.js'
import { openStore } from '../open-store.js'
import { buildServer } from '../server.js'

export type ServeOptions = ConfigFlags

/** Migrates, creates a first administrator on an empty database, and serves until SIGINT/SIGTERM. */
export async function serve (options: ServeOptions, io: CliIo): Promise<{ close: () => Promise<void>, url: string }> {
  const config = loadConfig(options)
  const store = await openStore(config.databaseUrl)
  const applied = await store.migrate()
  if (applied.length > 0) io.err(`Applied migrations: ${applied.join(', ')}`)
  const helpdesk = createHelpdesk({ store, registration: config.registration })
  const firstAdmin = await bootstrapAdmin(helpdesk)
  const app = await buildServer(config, helpdesk, { logger: process.env.HELPDESK_QUIET !== '1' })
  const address = await app.listen({ host: config.host, port: config.port })
  const url = `${address}/api/v1`
  io.out(`Help desk API listening on ${url} (database ${redact(config.databaseUrl)})`)
  if (firstAdmin !== null) {
    io.out(`Created the first administrator: ${firstAdmin.email} / ${firstAdmin.password} (change it after logging in)`)
  }
  const login = firstAdmin ?? { email: '<email>', password: '<password>' }
  io.out(`Log in: curl -s -X POST ${url}/auth/login -H 'content-type: application/json' -d '{"email":"${login.email}","password":"${login.password}"}'`)
  if (firstAdmin === null) io.out('  (demo accounts from `helpdesk seed`: admin@example.com / admin-password; new ones: `helpdesk users:create`)')
  io.out(`API reference: ${address}/docs`)

  let closing: Promise<void> | undefined
  const close = async (): Promise<void> => {
    closing ??= (async () => {
      await app.close()
      await store.close()
    })()
    await closing
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    io.err(`Received ${signal}: finishing in-flight requests, then closing.`)
    void close().then(() => process.exit(0), () => process.exit(1))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  return { close, url }
}

/** On a database without any staff, creates admin@example.com with a random password. */
async function bootstrapAdmin (helpdesk: ReturnType<typeof createHelpdesk>): Promise<{ email: string, password: string } | null> {
  const staff = await helpdesk.context.store.users.staffIds({ admins: true })
  if (staff.length > 0) return null
  const password = randomBytes(9).toString('base64url')
  const email = 'admin@example.com'
  if (await helpdesk.context.store.users.findByEmail(email) !== null) return null
  await helpdesk.agents.create(null, { first_name: 'Admin', last_name: 'User', email, password }, Role.Admin, false)
  return { email, password }
}

export function serveCommand (io: CliIo): Command {
  return new Command('serve')
    .description('Apply migrations, then serve the API at /api/v1')
    .option('--host <host>', 'interface to listen on (env HOST)', undefined)
    .option('--port <port>', 'port to listen on (env PORT)', undefined)
    .option('--database <url>', 'sqlite:PATH or postgres://... (env HELPDESK_DATABASE_URL)')
    .option('--no-rate-limit', 'switch rate limiting off (or HELPDESK_RATE_LIMIT=0)')
    .option('--config <file>', 'config file (default ./helpdesk.config.json)')
    .addHelpText('after', '\nExamples:\n  helpdesk serve\n  helpdesk serve --port 8080 --database postgres://postgres@127.0.0.1/helpdesk\n  HOST=0.0.0.0 PORT=3000 helpdesk serve')
    .action(async (options: ServeOptions) => { await serve(options, io) })
}
