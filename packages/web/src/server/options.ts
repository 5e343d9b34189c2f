/** Options of the console plugin (`app.register(helpdeskWeb, options)`). */
export interface HelpdeskWebOptions {
  /** Where the console and the knowledge-base pages are mounted. Default `/`. */
  prefix?: string
  /** Where the host registered `@helpdesk/fastify`. Default `/api/v1`. */
  apiPrefix?: string
  /** The site's name in page titles and the knowledge base's header. Default `Help desk`. */
  title?: string
  /**
   * The public origin for canonical URLs and the sitemap, e.g. `https://help.example.com`.
   * Default: the request's own protocol and host (which honour Fastify's `trustProxy`).
   */
  baseUrl?: string
  /** The built app's directory. Default the package's `dist/app`. */
  appDir?: string
}

export interface ResolvedWebOptions {
  /** The mount path without a trailing slash: `` for `/`, `/console` for `/console/`. */
  base: string
  apiPrefix: string
  title: string
  baseUrl: string | null
  appDir: string
}

function trimSlashes (path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

export function resolveOptions (options: HelpdeskWebOptions, defaultAppDir: string): ResolvedWebOptions {
  return {
    base: trimSlashes(options.prefix ?? '/'),
    apiPrefix: trimSlashes(options.apiPrefix ?? '/api/v1'),
    title: options.title ?? 'Help desk',
    baseUrl: options.baseUrl === undefined ? null : options.baseUrl.replace(/\/+$/, ''),
    appDir: options.appDir ?? defaultAppDir
  }
}
