import { isIP } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Agent } from 'undici'
import { guardedLookup, isPublicAddress, WebhookTargetError } from '@helpdesk/fastify'
import { readerOf } from './kb/reader.js'
import type { ResolvedWebOptions } from './options.js'
import type { WebLimits } from './rate-limit.js'

/** Where the proxy answers, below the mount. The console reads it from `<meta name="helpdesk-remote-images">`. */
export const REMOTE_IMAGE_PATH = '/remote-image'

/** Raster formats a browser shows in `<img>`; never SVG (a document that may run script). */
const IMAGE_TYPES = new Set(['image/png', 'image/apng', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon'])
const MAX_REDIRECTS = 3
const MAX_URL_LENGTH = 2048
const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** Why an image was not fetched: the answer's status and sentence. */
class RemoteImageError extends Error {
  constructor (readonly statusCode: number, message: string) { super(message) }
}

/** The URL of `raw`, when it is one the proxy may fetch: absolute http(s), no credentials. */
function imageUrlOf (raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length > MAX_URL_LENGTH) return null
  let url: URL
  try { url = new URL(raw) } catch { return null }
  if (!['http:', 'https:'].includes(url.protocol) || url.username !== '' || url.password !== '') return null
  return url
}

interface FetchSettings { maxBytes: number, timeoutMs: number, allowPrivateTargets: boolean }

/**
 * GETs `start` and its redirects (at most 3) through `agent`, whose lookup
 * refuses non-public addresses and pins the connection to the checked one
 * (the webhook deliveries' guard); IP literals are checked here, as the lookup
 * never sees them. Sends no cookie, referrer or credential. The whole fetch,
 * body included, has `timeoutMs`; the body is cut at `maxBytes`.
 */
async function fetchImage (agent: Agent, start: URL, settings: FetchSettings): Promise<Buffer> {
  const signal = AbortSignal.timeout(settings.timeoutMs)
  let url = start
  for (let hop = 0; ; hop++) {
    const host = url.hostname.replace(/^\[|\]$/g, '')
    if (!settings.allowPrivateTargets && isIP(host) !== 0 && !isPublicAddress(host)) {
      throw new RemoteImageError(403, `${host} is not a public address.`)
    }
    const response = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1', 'user-agent': 'helpdesk-image-proxy' },
      signal
    })
    const status = response.statusCode
    const location = response.headers.location
    if (REDIRECTS.has(status) && typeof location === 'string') {
      await response.body.dump({ limit: 64 * 1024 }).catch(() => {})
      if (hop >= MAX_REDIRECTS) throw new RemoteImageError(502, 'The image address redirects too often.')
      const next = imageUrlOf(new URL(location, url).href)
      if (next === null) throw new RemoteImageError(502, 'The image address redirects to an address that is not http or https.')
      url = next
      continue
    }
    if (status !== 200) {
      await response.body.dump({ limit: 64 * 1024 }).catch(() => {})
      throw new RemoteImageError(502, `The image address answered HTTP ${status}.`)
    }
    const tooLarge = (): RemoteImageError => new RemoteImageError(502, `The image is larger than ${settings.maxBytes} bytes.`)
    if (Number(response.headers['content-length'] ?? 0) > settings.maxBytes) {
      response.body.destroy()
      throw tooLarge()
    }
    const chunks: Buffer[] = []
    let total = 0
    for await (const chunk of response.body) {
      total += (chunk as Buffer).length
      if (total > settings.maxBytes) {
        response.body.destroy()
        throw tooLarge()
      }
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks)
  }
}

/** A thrown fetch error as the answer's status and sentence. */
function failureOf (error: unknown, timeoutMs: number): RemoteImageError {
  if (error instanceof RemoteImageError) return error
  const cause = (error as { cause?: unknown }).cause
  if (error instanceof WebhookTargetError || cause instanceof WebhookTargetError || (error as { code?: string }).code === 'EHELPDESKPRIVATE') {
    return new RemoteImageError(403, (cause instanceof Error ? cause : error as Error).message)
  }
  const name = (error as Error).name
  if (name === 'TimeoutError' || name === 'AbortError') return new RemoteImageError(504, `The image address did not answer within ${timeoutMs} ms.`)
  return new RemoteImageError(502, 'The image could not be fetched.')
}

/**
 * The console's same-origin proxy for remote images in bodies:
 * `GET <mount>/remote-image?url=<http(s) URL>`, for signed-in readers only
 * (the API decides, as for the KB pages), within the IP's image budget. The
 * console asks for it only when a reader clicks "Load remote images", so a
 * customer's tracking pixel is not fetched before, and then from the server's
 * address, not the reader's. Answers the bytes only when they are a raster
 * image (sniffed, never the remote's word; never SVG), under `maxBytes` and
 * within `timeoutMs`, with a `sandbox` policy and `nosniff`. Errors are the
 * API's `{ message }`: 400 bad URL, 401 not signed in, 403 a non-public
 * address, 502 no image, 504 timed out.
 */
export function installRemoteImages (app: FastifyInstance, options: ResolvedWebOptions, limits: WebLimits): void {
  const settings = options.remoteImages
  if (settings === false) return
  // undici loads, and the pool is made, with the first image, not at start-up.
  let agent: Promise<Agent> | undefined
  const agentOf = async (): Promise<Agent> => await (agent ??= import('undici').then(({ Agent }) => new Agent({
    connect: { lookup: guardedLookup(settings.allowPrivateTargets) as never, timeout: settings.timeoutMs },
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs
  }), (error: unknown) => { agent = undefined; throw error }))
  app.addHook('onClose', async () => { if (agent !== undefined) await (await agent.catch(() => null))?.close() })

  const fail = (reply: FastifyReply, status: number, message: string): FastifyReply =>
    reply.code(status).header('cache-control', 'no-store').send({ message })
  const tooMany = (_request: FastifyRequest, reply: FastifyReply, seconds: number): FastifyReply =>
    fail(reply, 429, `Too many requests. Retry in ${seconds} seconds.`)

  app.get(`${options.base}${REMOTE_IMAGE_PATH}`, { onRequest: limits.hook('images', tooMany) ?? [] }, async (request, reply) => {
    if ((await readerOf(app, options.apiPrefix, request)).kind !== 'person') return fail(reply, 401, 'Unauthenticated.')
    const url = imageUrlOf((request.query as { url?: unknown }).url)
    if (url === null) return fail(reply, 400, `The url must be an http or https URL of at most ${MAX_URL_LENGTH} characters, without credentials.`)
    let bytes: Buffer
    try {
      bytes = await fetchImage(await agentOf(), url, settings)
    } catch (error) {
      const failure = failureOf(error, settings.timeoutMs)
      return fail(reply, failure.statusCode, failure.message)
    }
    // file-type loads with the first image.
    const { fileTypeFromBuffer } = await import('file-type')
    const type = (await fileTypeFromBuffer(bytes))?.mime
    if (type === undefined || !IMAGE_TYPES.has(type)) return fail(reply, 502, 'The address did not answer a PNG, JPEG, GIF, WebP, AVIF, BMP or ICO image.')
    return await reply
      .header('content-type', type)
      .header('cache-control', 'private, max-age=86400')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'same-origin')
      .send(bytes)
  })
}
