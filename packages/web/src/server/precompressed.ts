import { existsSync, readdirSync } from 'node:fs'
import { extname } from 'node:path'

/** The encodings precompressed next to the built assets (`scripts/precompress.mjs`), best first. */
export const PRECOMPRESSED = [{ encoding: 'br', suffix: '.br' }, { encoding: 'gzip', suffix: '.gz' }] as const
export type Precompressed = typeof PRECOMPRESSED[number]

/** Content types of the assets by extension (the precompressed file's own, `.br`, names none). */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8'
}

export function contentTypeOf (file: string): string | undefined {
  return TYPES[extname(file).toLowerCase()]
}

/** The names of the files of `dir` (read once, at start-up: the build does not change under a running server). */
export function filesOf (dir: string): Set<string> {
  return existsSync(dir) ? new Set(readdirSync(dir)) : new Set()
}

/**
 * Which precompressed variant of `file` to send for an `Accept-Encoding`
 * header: Brotli before gzip, an encoding the client refuses (`;q=0`) never,
 * and only a variant that was built.
 */
export function negotiate (acceptEncoding: string | undefined, file: string, available: ReadonlySet<string>): Precompressed | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return null
  const accepted = new Map<string, number>()
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';')
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
    accepted.set(name.trim(), q === undefined ? 1 : Number(q))
  }
  const wildcard = accepted.get('*')
  for (const variant of PRECOMPRESSED) {
    const q = accepted.get(variant.encoding) ?? wildcard ?? 0
    if (q > 0 && available.has(`${file}${variant.suffix}`)) return variant
  }
  return null
}
