import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { Category, CategoryCountScope, CategoryInput } from './category.js'

/** Storage port for ticket categories (part of `Store`, same conventions). */
export interface CategoryRepository {
  findById(id: number): Promise<Category | null>
  /** The ids among `ids` that exist. */
  existingIds(ids: number[]): Promise<number[]>
  /** `counts`: what the count includes may count for the caller. */
  /** A page of categories; `ids` keeps only those (an agent's categories). */
  list(query: ListQuery, counts: CategoryCountScope, ids?: number[]): Promise<Page<WithIncludes<Category>>>
  view(id: number, query: ListQuery, counts: CategoryCountScope): Promise<WithIncludes<Category> | null>
  listByIds(ids: number[]): Promise<Category[]>
  create(input: CategoryInput & { order: number }): Promise<Category>
  update(id: number, patch: Partial<CategoryInput>): Promise<Category | null>
  delete(id: number): Promise<boolean>
  /** True while tickets or article collections still use the category. */
  isInUse(id: number): Promise<boolean>
  nextOrder(): Promise<number>
  setOrder(positions: Map<number, number>): Promise<void>
}
