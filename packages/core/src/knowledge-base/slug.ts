import { displayText } from '../html.js'
import slugify from '@sindresorhus/slugify'

/** Longest generated slug, leaving room for a `-N` suffix in the 255-character column. */
export const SLUG_MAX = 200

/**
 * A URL-friendly slug of `text`: transliterated to lowercase ASCII letters,
 * digits and single hyphens (CONTRACT §16). Empty when nothing survives
 * (e.g. a title only in a script without a transliteration).
 */
export function slugOf (text: string): string {
  // Titles and names are plain text, their `<`/`>` kept as entities: the slug reads the text as typed.
  const slug = slugify(displayText(text), { decamelize: false, lowercase: true })
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  if (slug.length <= SLUG_MAX) return slug
  const cut = slug.slice(0, SLUG_MAX)
  const lastHyphen = cut.lastIndexOf('-')
  return (lastHyphen > SLUG_MAX / 2 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '')
}

/** `base` if free, else the first of `base-2`, `base-3`, ... not in `taken`. */
export function uniqueSlug (base: string, taken: Iterable<string>): string {
  const used = new Set(taken)
  if (!used.has(base)) return base
  let n = 2
  while (used.has(`${base}-${n}`)) n++
  return `${base}-${n}`
}
