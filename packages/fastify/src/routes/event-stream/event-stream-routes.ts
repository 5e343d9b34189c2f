import type { ServerResponse } from 'node:http'
import type { StreamMessage, User } from '@helpdesk/core'
import { actorOf, bearerToken } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { errorResponses, EventStreamBody, EventStreamQuery, TooManyStreams } from '@helpdesk/shapes'
import { SSE_HEARTBEAT, sseText } from './sse-format.js'

const DEFAULT_HEARTBEAT_MS = 20_000
/** A client this far behind (unsent bytes) is cut off; it resumes with `Last-Event-ID`. */
const MAX_BUFFERED_BYTES = 1024 * 1024
const RETRY_MS = 3000

function lastEventIdOf (header: string | string[] | undefined, query: string | undefined): number | null {
  const value = (Array.isArray(header) ? header[0] : header) ?? query
  if (value === undefined || !/^[0-9]{1,15}$/.test(value.trim())) return null
  return Number(value.trim())
}

/**
 * `GET /events`: the live event stream (Server-Sent Events) of the caller's
 * notifications and of changes to the tickets they may see. The stream (one
 * per app) listens to the store's notifier from the first connection on and
 * stops when the app closes; open responses are ended before the server
 * closes, so `app.close()` never waits on them.
 */
export function eventStreamRoutes (app: HelpdeskApp, { helpdesk, avatar, options }: RouteContext): void {
  const maxConnectionsPerUser = options.eventStream?.maxConnectionsPerUser ?? 5
  const heartbeatMs = options.eventStream?.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
  const stream = helpdesk.eventStream({
    maxConnectionsPerUser,
    onError: (error) => { app.log.error({ err: error }, 'the event stream failed to deliver a batch') }
  })
  const open = new Set<() => void>()
  app.addHook('preClose', async () => { for (const end of [...open]) end() })
  app.addHook('onClose', async () => { await stream.stop() })

  app.get('/events', {
    schema: {
      tags: ['Events'],
      summary: 'Follow my notifications and the tickets I may see, live (Server-Sent Events)',
      description: 'Send `Accept: text/event-stream`. Resume with the `Last-Event-ID` header (or `last_event_id`). See docs/event-stream.md.',
      querystring: EventStreamQuery,
      produces: ['text/event-stream'],
      response: { ...errorResponses, 200: EventStreamBody, 429: TooManyStreams }
    }
  }, async (request, reply) => {
    const actor = actorOf(request)
    const buffered: string[] = []
    let write = (text: string): void => { buffered.push(text) }
    const send = (message: StreamMessage): void => { write(sseText(message, avatar)) }
    const subscription = await stream.open(actor.user, {
      lastEventId: lastEventIdOf(request.headers['last-event-id'], request.query.last_event_id),
      send
    })
    if (subscription === null) {
      return await reply.code(429).send({ message: `Too many open event streams: at most ${maxConnectionsPerUser} per user. Close one first.` })
    }
    reply.hijack()
    const res: ServerResponse = reply.raw
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff'
    })
    let heartbeat: NodeJS.Timeout | null = null
    const end = (): void => {
      if (heartbeat !== null) clearInterval(heartbeat)
      heartbeat = null
      open.delete(end)
      subscription.close()
      if (!res.writableEnded) res.end()
    }
    write = (text) => {
      if (res.writableEnded) return
      res.write(text)
      if (res.writableLength > MAX_BUFFERED_BYTES) end()
    }
    write(`retry: ${RETRY_MS}\n\n${buffered.join('')}`)
    if (request.query.poll === true) {
      end()
      return
    }
    open.add(end)
    res.on('close', end)
    // The credential the stream was opened with: a bearer token, else the console's session cookie.
    const token = bearerToken(request) ?? request.sessionCookie
    let known: User = actor.user
    heartbeat = setInterval(() => {
      write(SSE_HEARTBEAT)
      if (token === null || request.tokenId === null) return
      // A revoked, expired or idle token or session, or a banned user, loses the stream; a changed user gets a fresh scope.
      // A heartbeat is no use of the session: an open stream alone does not keep it from idling out.
      helpdesk.auth.authenticate(token, { recordUse: false }).then(async (found) => {
        if (found === null) {
          end()
        } else if (found.user !== known) {
          known = found.user
          await subscription.refresh(found.user)
        }
      }).catch(() => {})
    }, heartbeatMs)
    heartbeat.unref()
  })
}
