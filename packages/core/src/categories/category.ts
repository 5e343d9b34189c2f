import type { FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { defineList } from '../list/list-spec.js'
import type { KnowledgeBaseScope } from '../knowledge-base/knowledge-base-policy.js'
import type { TicketVisibility } from '../tickets/ticket-policy.js'
import { optionalText, requiredText } from '../text-input.js'
import { LIMITS } from '../users/user.js'
import type { DateTimeString } from '../time.js'

/** 0 Not required, 1 Valid purchase code, 2 Valid code and active support. */
export const PurchaseVerification = { NotRequired: 0, ValidCode: 1, ValidCodeAndSupport: 2 } as const

export interface Category {
  id: number
  name: string
  order: number
  thumbnail: string | null
  marketplace_item_id: number | null
  purchase_verification: number
  created_at: DateTimeString
  updated_at: DateTimeString
}

export interface CategoryInput {
  name: string
  thumbnail?: string | null
  marketplace_item_id?: number | null
  purchase_verification?: number
}

/**
 * The writable fields of `input`, checked (name required and at most 250
 * characters once trimmed, purchase_verification 0-2). Any other key is
 * dropped, so a client cannot write `id` or `order` through an update.
 * `partial` (updates) leaves absent fields out.
 */
export function checkCategoryInput (input: Partial<CategoryInput>, partial: boolean): Partial<CategoryInput> {
  const errors: FieldErrors = {}
  const clean: Partial<CategoryInput> = {}
  if (!partial || input.name !== undefined) clean.name = requiredText(errors, 'name', input.name ?? '', LIMITS.name)
  if (input.thumbnail !== undefined) clean.thumbnail = input.thumbnail === null ? null : optionalText(errors, 'thumbnail', input.thumbnail, 2048)
  if (input.marketplace_item_id !== undefined) {
    if (input.marketplace_item_id !== null && !(Number.isSafeInteger(input.marketplace_item_id) && input.marketplace_item_id > 0)) {
      errors.marketplace_item_id = ['The marketplace item id must be a positive integer or null.']
    }
    clean.marketplace_item_id = input.marketplace_item_id
  }
  if (input.purchase_verification !== undefined) {
    if (!(Object.values(PurchaseVerification) as number[]).includes(input.purchase_verification)) {
      errors.purchase_verification = ['The selected purchase verification is invalid.']
    }
    clean.purchase_verification = input.purchase_verification
  }
  throwIfInvalid(errors)
  return clean
}

export const categoryList = defineList({
  resource: 'categories',
  includes: ['agents-count', 'tickets-count', 'articles-count', 'collections-count', 'fields'],
  sorts: ['order', 'name'],
  defaultSort: 'order',
  keyTypes: { order: 'int', name: 'string' },
  partialFilters: ['name'],
  exactFilters: []
})

const MAX_INTEGER = 2147483647

function isId (value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_INTEGER
}

/**
 * Order endpoints take either a plain list of ids (positions 1, 2, 3...) or a
 * map of position -> id (CONTRACT §16). Returns id -> position. An empty
 * order, an id or a position that is not a whole number from 1 is a 422
 * (`order`, `order.N`), whichever door the order came through.
 */
export function positionsFromOrder (order: number[] | Record<string, number>): Map<number, number> {
  const positions = new Map<number, number>()
  const errors: FieldErrors = {}
  const entries: Array<[string, unknown, number]> = Array.isArray(order)
    ? order.map((id, index) => [String(index), id, index + 1])
    : Object.entries(order).map(([position, id]) => [position, id, /^[0-9]+$/.test(position) ? Number(position) : Number.NaN])
  for (const [key, id, position] of entries) {
    if (!isId(id) || !isId(position)) errors[`order.${key}`] = ['The order must map positions from 1 to existing ids.']
    else positions.set(id, position)
  }
  if (entries.length === 0) errors.order = ['The order field is required.']
  throwIfInvalid(errors)
  return positions
}

/**
 * What the `tickets-count`, `articles-count` and `collections-count` includes
 * count for one caller: only what that caller could list (CONTRACT §17).
 */
export interface CategoryCountScope {
  tickets: TicketVisibility
  knowledgeBase: KnowledgeBaseScope
}

/** Staff (and tools acting as the desk itself) count everything. */
export const staffCategoryCounts: CategoryCountScope = { tickets: { all: true }, knowledgeBase: { visibilities: null, drafts: true } }
