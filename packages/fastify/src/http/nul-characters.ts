import type { FastifyInstance } from 'fastify'
import { ValidationError } from '@helpdesk/core'

const NUL = '\u0000'

/** Dotted paths (`title`, `attachments.0`, `filter.search`) of the strings under `value` that hold a NUL. */
function pathsWithNul (value: unknown, path: string, found: string[], depth = 0): void {
  if (found.length >= 20 || depth > 32) return
  if (typeof value === 'string') {
    if (value.includes(NUL)) found.push(path === '' ? 'body' : path)
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => { pathsWithNul(item, path === '' ? String(index) : `${path}.${index}`, found, depth + 1) })
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) found.push(path === '' ? 'body' : path)
      else pathsWithNul(item, path === '' ? key : `${path}.${key}`, found, depth + 1)
    }
  }
}

/**
 * Refuses text holding the NUL character (U+0000) in a body or query string
 * with a 422 naming each field. PostgreSQL cannot store it (and SQLite would,
 * so the two databases would disagree); no field of the API has a use for it.
 * A preValidation hook added after authentication: an anonymous caller still
 * gets its 401 first.
 */
export function installNulCharacterCheck (app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request.
  app.addHook('preValidation', (request, _reply, done) => {
    const found: string[] = []
    // A NUL reaches the query string escaped (`%00`; Node's HTTP parser refuses a raw one, an injected request may not), so most requests skip the walk.
    // Query keys as the list layer names them in errors: `filter[name]` -> `filter.name`.
    if (request.url.includes('%00') || request.url.includes(NUL)) {
      for (const [key, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
        pathsWithNul({ [key.replace(/\[([^\]]*)\]/g, '.$1')]: value }, '', found)
      }
    }
    if (typeof request.body === 'object' || typeof request.body === 'string') pathsWithNul(request.body, '', found)
    if (found.length === 0) {
      done()
      return
    }
    done(new ValidationError(Object.fromEntries(found.map((field) => [field, [`The ${field} may not contain the NUL character.`]]))))
  })
}
