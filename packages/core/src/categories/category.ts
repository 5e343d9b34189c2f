import { defineList } from '../list/list-spec.js'
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

export const categoryList = defineList({
  resource: 'categories',
  includes: ['agents-count', 'tickets-count', 'articles-count', 'collections-count', 'fields'],
  sorts: ['order', 'name'],
  defaultSort: 'order',
  partialFilters: ['name'],
  exactFilters: []
})

/**
 * Order endpoints take either a plain list of ids (positions 1, 2, 3...) or a
 * map of position -> id (CONTRACT §16). Returns id -> position.
 */
export function positionsFromOrder (order: number[] | Record<string, number>): Map<number, number> {
  const positions = new Map<number, number>()
  if (Array.isArray(order)) {
    order.forEach((id, index) => positions.set(id, index + 1))
  } else {
    for (const [position, id] of Object.entries(order)) positions.set(id, Number(position))
  }
  return positions
}
