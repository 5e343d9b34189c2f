import { Command } from 'commander'
import { randomBytes } from 'node:crypto'
import type { Helpdesk } from '@helpdesk/core'
import type { ConfigFlags, HelpdeskConfig } from '../config.js'
import { configOption, databaseOption } from '../command-options.js'
import type { CliIo } from '../io.js'
import type { InboundMailWorkerOptions } from '@helpdesk/fastify'
import { CLI_ACTOR } from '../cli-actor.js'

export type ServeOptions = ConfigFlags & { json?: boolean, workers?: boolean }

/** What `serve` prints with `--json`: one line, for scripts and process managers. */
export interface ServeSummary {
  url: string
  /** The web console's address, or null with `--no-web`. */
  console: string | null
  docs: string
  database: string
  migrations: string[]
  /** `host:port` of the SMTP listener for inbound mail, or null without `--smtp-port`. */
  smtp: string | null
  /** Set when the database had no administrator and one was created. */
  firstAdmin: { email: string, password: string } | null
}

/** Migrates, creates a first administrator on an empty database, and serves until SIGINT/SIGTERM. */
export async function serve (options: ServeOptions, io: CliIo): Promise<{ close: () => Promise<void>, url: string, summary: ServeSummary }> {
  const [{ loadConfig, redact }, { openStore }, { closeGracefully, shutdownGraceMs }, { buildServer, DOCS_PATH, helpdeskFor }, { applyHeapGrowth }] = await Promise.all([
    import('../config.js'), import('../open-store.js'), import('../graceful-shutdown.js'), import('../server.js'), import('../heap-growth.js')
  ])
  const config = loadConfig(options)
  const warning = publicUrlWarning(config)
  if (warning !== null) io.err(warning)
  const graceMs = shutdownGraceMs()
  // A server's heap: collected when it has grown by half, not when V8's adaptive factor allows (up to 4x).
  applyHeapGrowth()
  const store = await openStore(config.databaseUrl)
  let applied: string[]
  let app: Awaited<ReturnType<typeof buildServer>>
  let firstAdmin: ServeSummary['firstAdmin']
  let address: string
  try {
    applied = await store.migrate()
    const helpdesk = helpdeskFor(config, store)
    firstAdmin = await bootstrapAdmin(helpdesk)
    // The plugin starts the inbound mail doors with the job runner (the app's onReady), as it does for an embedding
    // host; a door that cannot start fails the listen, and the app is closed (no door left open).
    const inboundMail = await inboundMailFor(config, Math.max(graceMs, 1))
    app = await buildServer(config, helpdesk, { workers: options.workers !== false, inboundMail })
    const started = app
    address = await started.listen({ host: config.host, port: config.port }).catch(async (error: unknown) => {
      await started.close().catch(() => {})
      throw error
    })
  } catch (error) {
    await store.close()
    throw error
  }
  const listener = app.helpdeskInbound.smtp
  const poller = app.helpdeskInbound.imap
  const url = `${address}${config.plugin.prefix}`
  const consoleUrl = config.web ? `${address}/` : null
  const smtp = listener !== null ? `${config.host}:${listener.port}` : null
  const summary: ServeSummary = { url, console: consoleUrl, docs: `${address}${DOCS_PATH}`, database: redact(config.databaseUrl), migrations: applied, smtp, firstAdmin }
  if (options.json === true) {
    io.out(JSON.stringify(summary))
  } else {
    if (applied.length > 0) io.err(`Applied migrations: ${applied.join(', ')}`)
    if (consoleUrl !== null) io.out(`Help desk console: open ${consoleUrl} in your browser (public knowledge base: ${address}/kb)`)
    io.out(`Help desk API listening on ${url} (database ${summary.database})`)
    io.out(`API documentation (Swagger UI): ${summary.docs}`)
    if (smtp !== null) io.out(`Receiving mail over SMTP on ${smtp}`)
    if (poller !== null) io.out('Polling the configured IMAP mailbox for mail')
    if (firstAdmin !== null) {
      io.out(`Created the first administrator: ${firstAdmin.email} / ${firstAdmin.password} (log in with it; change the password afterwards)`)
    } else {
      io.out('Log in with your account; demo accounts of `helpdesk seed`: admin@example.com / admin-password, ' +
        'agent@example.com / agent-password, customer@example.com / customer-password (new ones: `helpdesk users:create`)')
    }
    const login = firstAdmin ?? { email: '<email>', password: '<password>' }
    io.out(`From a script: curl -s -X POST ${url}/auth/login -H 'content-type: application/json' -d '{"email":"${login.email}","password":"${login.password}"}'`)
  }

  let closing: Promise<void> | undefined
  const close = async (): Promise<void> => {
    closing ??= (async () => {
      // New mail stops first, before the HTTP grace period; a sender whose message was cut off retries it.
      await app.helpdeskInbound.close()
      await closeGracefully(app, store, io, graceMs)
    })()
    await closing
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    io.err(`Received ${signal}: finishing in-flight requests, then closing.`)
    void close().then(() => process.exit(0), () => process.exit(1))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  return { close, url, summary }
}

/**
 * Behind a proxy (`trustProxy`) the server is public, yet without `webUrl` it
 * does not know its own address: the knowledge base then has no canonical
 * links and no sitemap (the Host header, which clients choose, is never used
 * for them). Said on start-up rather than refused: nothing unsafe follows.
 */
export function publicUrlWarning (config: Pick<HelpdeskConfig, 'trustProxy' | 'web' | 'webUrl'>): string | null {
  if (!config.trustProxy || !config.web || config.webUrl !== null) return null
  return 'Warning: trustProxy is on but no public URL is set: the knowledge base has no canonical links and /sitemap.xml answers 404. ' +
    'Set HELPDESK_WEB_URL (or "webUrl" in the config file) to the address readers use, e.g. https://help.example.com.'
}

/**
 * The inbound mail doors of the configuration, as the plugin's `inboundMail` option: the SMTP listener on
 * `smtpPort` (its limits and TLS files read here) and the IMAP poller. Sessions in progress at SIGTERM get
 * `closeTimeoutMs`, the grace of HTTP requests.
 */
export async function inboundMailFor (config: HelpdeskConfig, closeTimeoutMs: number): Promise<InboundMailWorkerOptions | undefined> {
  if (config.smtpPort === null && config.imap === null) return undefined
  const inbound: InboundMailWorkerOptions = {}
  if (config.smtpPort !== null) {
    const { tls: tlsFiles, ...limits } = config.smtp
    inbound.smtp = {
      port: config.smtpPort,
      host: config.host,
      ...limits,
      ...(tlsFiles !== undefined ? { tls: await readTlsFiles(tlsFiles) } : {}),
      closeTimeoutMs
    }
  }
  if (config.imap !== null) inbound.imap = { url: config.imap.url, moveTo: config.imap.moveTo }
  return inbound
}

/** The SMTP listener's PEM key and certificate; files that cannot be read or used stop the start with one line naming them. */
async function readTlsFiles (files: { keyFile: string, certFile: string }): Promise<{ key: Buffer, cert: Buffer }> {
  const [{ readFile }, { createSecureContext }, { CliError }] = await Promise.all([import('node:fs/promises'), import('node:tls'), import('../config.js')])
  const read = async (path: string, what: string): Promise<Buffer> => await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read the SMTP listener's TLS ${what} ${path}: ${error.code ?? error.message}`)
  })
  const pair = { key: await read(files.keyFile, 'key'), cert: await read(files.certFile, 'certificate') }
  try {
    createSecureContext(pair)
  } catch (error) {
    throw new CliError(`the SMTP listener's TLS key ${files.keyFile} and certificate ${files.certFile} cannot be used: ${(error as Error).message}`)
  }
  return pair
}

/** On a database without any staff, creates admin@example.com with a random password. */
async function bootstrapAdmin (helpdesk: Helpdesk): Promise<{ email: string, password: string } | null> {
  if (await helpdesk.maintenance.hasAdministrator()) return null
  const { Role } = await import('@helpdesk/core')
  const password = randomBytes(9).toString('base64url')
  const email = 'admin@example.com'
  if (await helpdesk.auth.findUser({ email }) !== null) return null
  await helpdesk.agents.create(CLI_ACTOR, { first_name: 'Admin', last_name: 'User', email, password }, Role.Admin, false)
  return { email, password }
}

export function serveCommand (io: CliIo): Command {
  return new Command('serve')
    .description('Apply migrations, then serve the web console at /, the API (default at /api/v1) and Swagger UI at /docs')
    .option('--host <host>', 'interface to listen on (env HOST; default 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 for any free one (env PORT; default 3000)')
    .addOption(databaseOption())
    .option('--prefix <path>', 'where the API is mounted (env HELPDESK_PREFIX; default /api/v1)')
    .option('--no-rate-limit', 'switch rate limiting off (or HELPDESK_RATE_LIMIT=0)')
    .option('--no-web', 'serve the API only: no web console or knowledge-base pages at / (or HELPDESK_WEB=0)')
    .option('--smtp-port <port>', 'also receive mail over SMTP on this port (env HELPDESK_SMTP_PORT; see docs/mail.md)')
    .option('--no-workers', 'run no background jobs here (another process sharing the database runs them)')
    .addOption(configOption())
    .option('--json', 'print one JSON line {url, console, docs, database, migrations, smtp, firstAdmin} instead of text')
    .addHelpText('after', [
      '',
      'Examples:',
      '  helpdesk serve',
      '  helpdesk serve --port 8080 --database postgres://postgres@127.0.0.1/helpdesk',
      '  HOST=0.0.0.0 PORT=3000 helpdesk serve --json'
    ].join('\n'))
    .action(async (options: ServeOptions) => { await serve(options, io) })
}
