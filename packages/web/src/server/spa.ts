import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify'
import { escapeHtml } from '@helpdesk/core'
import type { ResolvedWebOptions } from './options.js'
import { REMOTE_IMAGE_PATH } from './remote-images.js'
import { contentTypeOf, filesOf, negotiate } from './precompressed.js'

const YEAR_MS = 365 * 24 * 60 * 60 * 1000

/** A route option of `@fastify/compress` (when the host registered it): these answers are compressed already. */
const NO_COMPRESSION = { compress: false } as unknown as RouteShorthandOptions

/** Paths below the mount the SPA must not answer for: they belong to the API, Swagger UI or the KB pages. */
function reservedPrefixes (options: ResolvedWebOptions): string[] {
  return [options.apiPrefix, `${options.base}/docs`, `${options.base}/kb`, `${options.base}/assets`, `${options.base}${REMOTE_IMAGE_PATH}`]
}

function isReserved (path: string, prefixes: string[]): boolean {
  return prefixes.some((prefix) => prefix !== '' && (path === prefix || path.startsWith(`${prefix}/`)))
}

/**
 * The built index.html, told where it is mounted (the page may run no inline
 * script): its `<base href>` becomes the mount, `<meta name="helpdesk-api">`
 * the API prefix, `<meta name="helpdesk-kb">` the KB pages and
 * `<meta name="helpdesk-remote-images">` the image proxy (empty when it is
 * off); `<html>` also
 * gets `data-base` and `data-api-prefix`. Under a prefix, root-relative
 * asset URLs (a build with an absolute base) get it too.
 */
export function prepareIndex (html: string, options: ResolvedWebOptions): string {
  const base = escapeHtml(options.base)
  const api = escapeHtml(options.apiPrefix)
  let page = html
  if (options.base !== '') page = page.replace(/\b(src|href)="\/(?!\/)/g, `$1="${base}/`)
  return page
    .replace(/<html\b/i, `<html data-base="${base}/" data-api-prefix="${api}"`)
    .replace(/<base href="[^"]*"/i, `<base href="${base}/"`)
    .replace(/(<meta name="helpdesk-api" content=")[^"]*"/i, `$1${api}"`)
    .replace(/(<meta name="helpdesk-kb" content=")[^"]*"/i, `$1${base}/kb"`)
    .replace(/(<meta name="helpdesk-remote-images" content=")[^"]*"/i, `$1${options.remoteImages === false ? '' : `${base}${REMOTE_IMAGE_PATH}`}"`)
}

/** Shown while the app is not built (`pnpm build` makes it): the API, Swagger UI and the KB pages still work. */
function placeholderIndex (options: ResolvedWebOptions): string {
  const base = escapeHtml(options.base)
  return `<!doctype html>
<html lang="en" data-base="${base}/" data-api-prefix="${escapeHtml(options.apiPrefix)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title><link rel="stylesheet" href="${base}/kb/static/kb.css"></head>
<body><main id="main"><h1>${escapeHtml(options.title)}</h1>
<p>The web console is not built yet: run <code>pnpm build</code> and restart the server.</p>
<ul><li><a href="${base}/kb">Knowledge base</a></li><li><a href="${base}/docs">API documentation</a></li></ul>
</main></body></html>
`
}

function sendIndex (reply: FastifyReply, page: string): FastifyReply {
  return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page)
}

let loadingSend: Promise<typeof import('@fastify/send').default> | undefined

/**
 * The file `path` (relative to `root`, as the URL names it) as the answer, with
 * `@fastify/send` (ETag, Last-Modified, conditional requests, ranges; no
 * dotfiles, nothing outside `root`), which is loaded with the first file asked
 * for: the static-file stack stays off the server's start-up path. A missing
 * file gets the server's 404.
 */
async function sendFile (
  request: FastifyRequest, reply: FastifyReply, root: string, path: string, options: { maxAge: number, immutable?: boolean }, headers: Record<string, string> = {}
): Promise<FastifyReply> {
  const send = await (loadingSend ??= import('@fastify/send').then((module) => module.default))
  // send decodes the path it is given, so it gets the URL's form of it.
  const result = await send(request.raw, encodeURI(`/${path}`), { root, ...options })
  if (result.type === 'file') return await reply.code(result.statusCode).headers({ ...result.headers, ...headers }).send(result.stream)
  const error = result.type === 'error' ? result.metadata.error as Error & { status?: number, code?: string } : null
  if (error === null || error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.status === 404) {
    reply.callNotFound()
    return reply
  }
  return await reply.send(error)
}

/**
 * Serves the single-page app: hashed `assets/*` cached for a year (immutable),
 * other top-level files of the build for an hour, and index.html (no-cache)
 * for `/` and every console route below the mount (client-side routing).
 */
export async function installApp (app: FastifyInstance, options: ResolvedWebOptions): Promise<void> {
  const indexFile = join(options.appDir, 'index.html')
  const built = existsSync(indexFile)
  let page: string
  if (built) {
    page = prepareIndex(readFileSync(indexFile, 'utf8'), options)
    const root = options.appDir
    // Hashed assets: their precompressed `.br`/`.gz` (built by `pnpm build`) as they are, never compressed per request.
    const assetFiles = filesOf(join(root, 'assets'))
    app.get(`${options.base}/assets/*`, NO_COMPRESSION, async (request, reply) => {
      const file = (request.params as { '*': string })['*']
      const variant = negotiate(request.headers['accept-encoding'], file, assetFiles)
      const type = contentTypeOf(file)
      const vary: Record<string, string> = assetFiles.has(`${file}.br`) || assetFiles.has(`${file}.gz`) ? { vary: 'Accept-Encoding' } : {}
      if (variant !== null && type !== undefined) {
        return await sendFile(request, reply, root, `assets/${file}${variant.suffix}`, { maxAge: YEAR_MS, immutable: true },
          { 'content-type': type, 'content-encoding': variant.encoding, ...vary })
      }
      return await sendFile(request, reply, root, `assets/${file}`, { maxAge: YEAR_MS, immutable: true }, vary)
    })
    for (const name of readdirSync(options.appDir)) {
      if (name === 'index.html' || name.startsWith('.') || !statSync(join(options.appDir, name)).isFile()) continue
      app.get(`${options.base}/${name}`, async (request, reply) => await sendFile(request, reply, root, name, { maxAge: 60 * 60 * 1000 }))
    }
  } else {
    app.log.warn(`@helpdesk/web: no built console in ${options.appDir} (run pnpm build); serving a placeholder page`)
    page = placeholderIndex(options)
  }
  const reserved = reservedPrefixes(options)
  app.get(options.base === '' ? '/' : options.base, async (_request, reply) => sendIndex(reply, page))
  app.get(`${options.base}/*`, async (request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    if (isReserved(path, reserved)) return await reply.code(404).send({ message: 'Not found.' })
    return sendIndex(reply, page)
  })
}
