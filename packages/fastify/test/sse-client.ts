import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'

/** One parsed Server-Sent Event. */
export interface SseEvent {
  id: string | null
  event: string
  data: any
}

/** A stream read over a real HTTP connection, with its events and comment lines as they arrive. */
export interface SseStream {
  status: number
  headers: http.IncomingHttpHeaders
  /** The JSON body of a non-200 answer. */
  body: any
  events: SseEvent[]
  comments: string[]
  ended: Promise<void>
  /** The first event (already received or still to come) that matches, or a rejection after `timeoutMs`. */
  next: (match: (event: SseEvent) => boolean, timeoutMs?: number) => Promise<SseEvent>
  /** Resolves when a comment line arrives. */
  nextComment: (timeoutMs?: number) => Promise<string>
  close: () => void
}

/** Opens `url` (absolute) as an event stream; resolves once the status line arrived. `onEvent` sees each event as it is parsed. */
export async function openStream (url: string, headers: Record<string, string> = {}, onEvent?: (event: SseEvent) => void): Promise<SseStream> {
  return await new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (response) => {
      const events: SseEvent[] = []
      const comments: string[] = []
      const waiters = new Set<() => void>()
      const wake = (): void => { for (const waiter of [...waiters]) waiter() }
      let buffer = ''
      let raw = ''
      let endedResolve: () => void = () => {}
      const ended = new Promise<void>((resolve) => { endedResolve = resolve })
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        if (response.statusCode !== 200) {
          raw += chunk
          return
        }
        buffer += chunk
        let cut = buffer.indexOf('\n\n')
        while (cut >= 0) {
          const block = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          let id: string | null = null
          let event = 'message'
          const data: string[] = []
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim())
            else if (line.startsWith('id: ')) id = line.slice(4)
            else if (line.startsWith('event: ')) event = line.slice(7)
            else if (line.startsWith('data: ')) data.push(line.slice(6))
          }
          if (data.length > 0) {
            const parsed = { id, event, data: JSON.parse(data.join('\n')) }
            onEvent?.(parsed)
            events.push(parsed)
          }
          cut = buffer.indexOf('\n\n')
        }
        wake()
      })
      const finish = (): void => { endedResolve(); wake() }
      response.on('end', finish)
      response.on('close', finish)
      response.on('error', finish)
      const waitFor = async <T>(find: () => T | undefined, timeoutMs: number, what: string): Promise<T> => {
        return await new Promise((resolve, reject) => {
          const check = (): void => {
            const found = find()
            if (found === undefined) return
            waiters.delete(check)
            clearTimeout(timer)
            resolve(found)
          }
          const timer = setTimeout(() => {
            waiters.delete(check)
            reject(new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => [e.event, e.id, e.data?.type ?? e.data?.count]))}`))
          }, timeoutMs)
          waiters.add(check)
          check()
        })
      }
      const stream: SseStream = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: undefined,
        events,
        comments,
        ended,
        next: async (match, timeoutMs = 5000) => await waitFor(() => events.find(match), timeoutMs, 'matching event'),
        nextComment: async (timeoutMs = 5000) => {
          const seen = comments.length
          return await waitFor(() => comments[seen], timeoutMs, 'comment')
        },
        close: () => { request.destroy() }
      }
      if (response.statusCode !== 200) {
        response.on('end', () => {
          try { stream.body = JSON.parse(raw) } catch { stream.body = raw }
          resolve(stream)
        })
      } else {
        resolve(stream)
      }
    })
    request.on('error', reject)
  })
}

/** An app listening on a loopback port (a Fastify instance after `listen`). */
export interface ListeningApp {
  server: { address: () => AddressInfo | string | null }
}

/** The API's base URL (`http://127.0.0.1:<port>/api/v1`) of an app listening on a loopback port. */
export function apiBaseOf (app: ListeningApp): string {
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('not listening')
  return `http://127.0.0.1:${address.port}/api/v1`
}

/** Opens `GET /events` on one app as a token's owner (`query` starts with `?`); every stream it opened is closed by `closeAll`. */
export interface EventStreams {
  (token: string, query?: string, headers?: Record<string, string>): Promise<SseStream>
  /** Opens a stream and waits for its first `unread_count`: by then it is subscribed, so a change made next reaches it. */
  ready: (token: string, query?: string, headers?: Record<string, string>) => Promise<SseStream>
  closeAll: () => void
}

/** Event streams on `app`; with `t`, those still open are closed after the test. */
export function eventStreams (app: ListeningApp, t?: TestContext): EventStreams {
  const opened: SseStream[] = []
  const open = async (token: string, query = '', headers: Record<string, string> = {}): Promise<SseStream> => {
    const stream = await openStream(`${apiBaseOf(app)}/events${query}`, { authorization: `Bearer ${token}`, ...headers })
    opened.push(stream)
    return stream
  }
  const ready = async (token: string, query = '', headers: Record<string, string> = {}): Promise<SseStream> => {
    const stream = await open(token, query, headers)
    await stream.next((e) => e.event === 'unread_count')
    return stream
  }
  const streams = Object.assign(open, { ready, closeAll: () => { for (const s of opened) s.close() } })
  t?.after(() => { streams.closeAll() })
  return streams
}
