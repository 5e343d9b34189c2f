import type { RateLimitOptions } from '@helpdesk/fastify'

/** Limits per client IP (`request.ip`, which honours Fastify's `trustProxy`) on what anybody may ask for without signing in. */
export interface WebRateLimitOptions {
  /** Knowledge-base pages and `/sitemap.xml` per IP per window. Default 120. */
  max?: number
  /** Knowledge-base searches per IP per window (a bucket of their own). Default 30. */
  searchMax?: number
  /** Remote images fetched through the console's proxy per IP per window. Default 300. */
  imageMax?: number
  /** Window in milliseconds or a string like '1 minute'. Default one minute. */
  timeWindow?: number | string
  /**
   * A shared counter store so several instances enforce one limit: an ioredis
   * client or a Redis URL, as the API plugin's `rateLimit.redis` (give both the
   * same). In memory when absent.
   */
  redis?: RateLimitOptions['redis']
  /** Prefix of the counter keys in Redis. Default `helpdesk-rl:` (the API's; the web plugin's keys differ from its keys). */
  keyPrefix?: string
}

/** The same-origin proxy through which the console shows remote images in bodies, once a reader asks for them. */
export interface RemoteImageOptions {
  /** The largest image fetched, in bytes. Default 5 MiB. */
  maxBytes?: number
  /** Milliseconds for the whole fetch (connection, redirects, body). Default 10,000. */
  timeoutMs?: number
  /** Fetch from loopback, private and link-local addresses too (tests, intranets). Default false. */
  allowPrivateTargets?: boolean
}

/** Options of the console plugin (`app.register(helpdeskWeb, options)`). */
export interface HelpdeskWebOptions {
  /** Where the console and the knowledge-base pages are mounted. Default `/`. */
  prefix?: string
  /** Where the host registered `@helpdesk/fastify`. Default `/api/v1`. */
  apiPrefix?: string
  /** The site's name in page titles and the knowledge base's header. Default `Help desk`. */
  title?: string
  /**
   * The public origin for canonical URLs and the sitemap, e.g. `https://help.example.com`
   * (what the browser's address bar shows for the server's `/`). Without it the
   * pages have no canonical link and `/sitemap.xml` answers 404: the request's
   * `Host` and `X-Forwarded-Host` are never used, since a client chooses them
   * and a shared cache would keep what it chose.
   */
  baseUrl?: string
  /** The built app's directory. Default the package's `dist/app`. */
  appDir?: string
  /** Rate limits of the knowledge-base pages, their search, the sitemap and the image proxy; `false` for none. */
  rateLimit?: false | WebRateLimitOptions
  /** The console's proxy for remote images; `false` switches it off (remote images are then never shown). */
  remoteImages?: false | RemoteImageOptions
}

export interface ResolvedWebOptions {
  /** The mount path without a trailing slash: `` for `/`, `/console` for `/console/`. */
  base: string
  apiPrefix: string
  title: string
  baseUrl: string | null
  appDir: string
  rateLimit: false | Required<Pick<WebRateLimitOptions, 'max' | 'searchMax' | 'imageMax' | 'timeWindow' | 'keyPrefix'>> & Pick<WebRateLimitOptions, 'redis'>
  remoteImages: false | Required<RemoteImageOptions>
}

export const DEFAULT_WEB_RATE_LIMIT = { max: 120, searchMax: 30, imageMax: 300, timeWindow: 60_000, keyPrefix: 'helpdesk-rl:' } as const
export const DEFAULT_REMOTE_IMAGES = { maxBytes: 5 * 1024 * 1024, timeoutMs: 10_000, allowPrivateTargets: false } as const

function trimSlashes (path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

/** An http(s) URL without query, fragment or credentials, without its trailing slash; throws otherwise. */
function checkBaseUrl (value: string): string {
  let url: URL | null = null
  try { url = new URL(value) } catch {}
  if (url === null || !['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`@helpdesk/web: baseUrl must be an http:// or https:// URL without query or credentials, like https://help.example.com (got "${value}")`)
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
}

export function resolveOptions (options: HelpdeskWebOptions, defaultAppDir: string): ResolvedWebOptions {
  const limits = options.rateLimit
  const images = options.remoteImages
  return {
    base: trimSlashes(options.prefix ?? '/'),
    apiPrefix: trimSlashes(options.apiPrefix ?? '/api/v1'),
    title: options.title ?? 'Help desk',
    baseUrl: options.baseUrl === undefined ? null : checkBaseUrl(options.baseUrl),
    appDir: options.appDir ?? defaultAppDir,
    rateLimit: limits === false
      ? false
      : {
          max: limits?.max ?? DEFAULT_WEB_RATE_LIMIT.max,
          searchMax: limits?.searchMax ?? DEFAULT_WEB_RATE_LIMIT.searchMax,
          imageMax: limits?.imageMax ?? DEFAULT_WEB_RATE_LIMIT.imageMax,
          timeWindow: limits?.timeWindow ?? DEFAULT_WEB_RATE_LIMIT.timeWindow,
          keyPrefix: limits?.keyPrefix ?? DEFAULT_WEB_RATE_LIMIT.keyPrefix,
          ...(limits?.redis !== undefined ? { redis: limits.redis } : {})
        },
    remoteImages: images === false
      ? false
      : {
          maxBytes: images?.maxBytes ?? DEFAULT_REMOTE_IMAGES.maxBytes,
          timeoutMs: images?.timeoutMs ?? DEFAULT_REMOTE_IMAGES.timeoutMs,
          allowPrivateTargets: images?.allowPrivateTargets ?? DEFAULT_REMOTE_IMAGES.allowPrivateTargets
        }
  }
}
