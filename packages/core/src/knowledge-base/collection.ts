import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

/** Who may read a collection and its articles (CONTRACT §15). */
export const CollectionVisibility = { Public: 1, LoggedIn: 2, PurchaseCode: 3, ActiveSupport: 4 } as const
export type CollectionVisibilityNumber = typeof CollectionVisibility[keyof typeof CollectionVisibility]

export function isCollectionVisibility (value: number): value is CollectionVisibilityNumber {
  return Number.isInteger(value) && value >= 1 && value <= 4
}

export const COLLECTION_LIMITS = { name: 250 } as const

/** A group of knowledge-base articles in one category. */
export interface ArticleCollection {
  id: number
  category_id: number
  name: string
  order: number
  visibility: CollectionVisibilityNumber
  created_at: DateTimeString
  updated_at: DateTimeString
}

export interface CollectionInput {
  category_id: number
  name: string
  visibility: number
}

/** Absent keys keep their value (CONTRACT §9). */
export type CollectionPatch = Partial<CollectionInput>

export const collectionList = defineList({
  resource: 'article collections',
  includes: ['articles-count', 'category'],
  sorts: ['order', 'created_at'],
  defaultSort: 'order',
  keyTypes: { order: 'int', created_at: 'datetime' },
  partialFilters: [],
  exactFilters: []
})
