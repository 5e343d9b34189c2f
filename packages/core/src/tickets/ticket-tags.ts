import type { FieldErrors } from '../errors.js'
import { PRIORITIES, type Priority } from '../automation/rule-conditions.js'

/**
 * Priorities and tags of tickets (issue 32). A priority is one of
 * `PRIORITIES` (low < normal < high < urgent; new tickets are `normal`);
 * storage keeps its rank so a sort by priority is by rank, not by name.
 * Tags are shared with the knowledge base's tag table (`{id, name}`); a
 * ticket's tag names are trimmed and lowercased, as rules compare them.
 */
export const DEFAULT_PRIORITY: Priority = 'normal'

export const TICKET_TAG_LIMITS = { tags: 50, tag: 50 } as const

const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} _.-]*$/u

/** The rank of a priority (0 low … 3 urgent): what storage sorts and filters by. */
export function priorityRank (priority: Priority): number {
  return PRIORITIES.indexOf(priority)
}

/** The priority of a stored rank (unknown ranks read as `normal`). */
export function priorityOfRank (rank: number): Priority {
  return PRIORITIES[rank] ?? DEFAULT_PRIORITY
}

export function isPriority (value: unknown): value is Priority {
  return (PRIORITIES as readonly unknown[]).includes(value)
}

/** A checked priority, or the error on `priority`. */
export function checkedPriority (errors: FieldErrors, value: unknown): Priority | undefined {
  if (isPriority(value)) return value
  errors.priority = [`The priority must be one of ${PRIORITIES.join(', ')}.`]
  return undefined
}

/** One tag name as tickets keep it: trimmed, inner whitespace collapsed, lowercased. */
export function normalTagName (raw: string): string {
  return raw.trim().replace(/\s+/g, ' ').toLowerCase()
}

/**
 * A ticket's tag names, normalised and without repeats; 422 on `tags` (too
 * many) or `tags.N` (blank, too long, or not letters, digits, space, `_ . -`).
 */
export function checkedTicketTags (errors: FieldErrors, names: unknown, key = 'tags'): string[] {
  if (!Array.isArray(names)) {
    errors[key] = ['The tags must be a list of names.']
    return []
  }
  if (names.length > TICKET_TAG_LIMITS.tags) {
    errors[key] = [`The tags may not have more than ${TICKET_TAG_LIMITS.tags} items.`]
    return []
  }
  const out: string[] = []
  names.forEach((raw, index) => {
    const name = typeof raw === 'string' ? normalTagName(raw) : ''
    if (name === '') errors[`${key}.${index}`] = ['The tag may not be blank.']
    else if ([...name].length > TICKET_TAG_LIMITS.tag) errors[`${key}.${index}`] = [`The tag may not be greater than ${TICKET_TAG_LIMITS.tag} characters.`]
    else if (!TAG_PATTERN.test(name)) errors[`${key}.${index}`] = ['A tag has letters, digits, spaces, _ . and - only, and starts with a letter or digit.']
    else if (!out.includes(name)) out.push(name)
  })
  return out
}

/** Whether two lists of tag names hold the same tags (order ignored). */
export function sameTags (a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  const set = new Set(a)
  return b.every((name) => set.has(name))
}
