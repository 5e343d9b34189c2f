import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { CustomerNote } from './customer-note.js'

/** Storage port for staff notes on customers (part of `Store`, same conventions). */
export interface CustomerNoteRepository {
  create(note: { customer_id: number, creator_id: number, text: string }): Promise<CustomerNote>
  list(customerId: number, query: ListQuery): Promise<Page<WithIncludes<CustomerNote>>>
  findById(id: number): Promise<CustomerNote | null>
  delete(id: number): Promise<boolean>
}
