import type { FastifyInstance } from 'fastify'
import { CliError } from './config.js'
import type { CliIo } from './io.js'

/** How long a shutdown waits for requests in flight before cutting their connections. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000
/** After a cut, how long the handlers of the cut requests get to clean up (a partial upload's file) before the pool closes. */
const SETTLE_MS = 2_000

/** HELPDESK_SHUTDOWN_GRACE_MS, in milliseconds (default 10 s). */
export function shutdownGraceMs (env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.HELPDESK_SHUTDOWN_GRACE_MS
  if (raw === undefined) return DEFAULT_SHUTDOWN_GRACE_MS
  if (!/^\d{1,7}$/.test(raw)) throw new CliError(`HELPDESK_SHUTDOWN_GRACE_MS must be a number of milliseconds, got "${raw}"`)
  return Number(raw)
}

/**
 * The requests whose handlers are still running. A handler is done when its
 * reply is sent (onSend), also when the client is gone and the reply goes
 * nowhere, which is when a cut upload has removed its partial file.
 */
class RequestsInFlight {
  private readonly active = new Set<string>()
  private idleWaiters: Array<() => void> = []

  constructor (app: FastifyInstance) {
    // Callback hooks, not async ones: they run on every request, and a promise each is measurable (docs/perf-notes-request.md).
    app.addHook('onRequest', (request, _reply, done) => {
      this.active.add(request.id)
      done()
    })
    app.addHook('onSend', (request, _reply, payload, done) => {
      this.finished(request.id)
      done(null, payload)
    })
    app.addHook('onResponse', (request, _reply, done) => {
      this.finished(request.id)
      done()
    })
  }

  get count (): number {
    return this.active.size
  }

  /** Resolves when no handler runs any more, or after `ms`; true when idle. */
  async idle (ms: number): Promise<boolean> {
    if (this.active.size === 0) return true
    return await new Promise((resolve) => {
      const timer = setTimeout(() => { resolve(false) }, ms)
      this.idleWaiters.push(() => {
        clearTimeout(timer)
        resolve(true)
      })
    })
  }

  private finished (id: string): void {
    this.active.delete(id)
    if (this.active.size > 0) return
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const wake of waiters) wake()
  }
}

const trackers = new WeakMap<FastifyInstance, RequestsInFlight>()

/** Counts `app`'s requests in flight for `closeGracefully`; call before registering any plugin. */
export function trackRequestsInFlight (app: FastifyInstance): void {
  trackers.set(app, new RequestsInFlight(app))
}

/**
 * Closes the server, then the store: the listener stops accepting at once and
 * requests in flight finish (they still reach the database); connections
 * still open after `graceMs` (a client that stalls mid-upload) are cut, so a
 * shutdown never hangs, and the cut requests' handlers get a moment to clean
 * up. The pool closes last, once no handler needs it.
 */
export async function closeGracefully (app: FastifyInstance, store: { close: () => Promise<void> }, io: CliIo, graceMs: number): Promise<void> {
  const deadline = setTimeout(() => {
    io.err(`Still busy after the ${graceMs} ms grace period: cutting every open connection.`)
    app.server.closeAllConnections()
  }, graceMs)
  deadline.unref()
  try {
    await app.close()
  } finally {
    clearTimeout(deadline)
  }
  const requests = trackers.get(app)
  if (requests !== undefined && !await requests.idle(SETTLE_MS)) io.err(`${requests.count} request handler(s) still running: closing the database anyway.`)
  await store.close()
}
