import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { SavedView } from './view.js'
import type { ViewScope } from './view-policy.js'

export type NewView = Pick<SavedView, 'name' | 'shared' | 'user_id' | 'filters' | 'sort'>

/** Storage port for views (part of Store). Reads take the caller's scope: built-in, shared and the caller's own views. */
export interface ViewRepository {
  /** One page of the views in scope; no includes (the service adds `count`). */
  list(scope: ViewScope, query: ListQuery): Promise<Page<WithIncludes<SavedView>>>
  /** The view if it is inside the scope. */
  findVisible(scope: ViewScope, id: number): Promise<SavedView | null>
  /** How many views `userId` has saved (private and shared). */
  countOwned(userId: number): Promise<number>
  create(view: NewView): Promise<SavedView>
  update(id: number, values: Pick<SavedView, 'name' | 'shared' | 'filters' | 'sort'>): Promise<SavedView | null>
  delete(id: number): Promise<boolean>
}
