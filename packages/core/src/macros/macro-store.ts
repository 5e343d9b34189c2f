import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { Macro } from './macro.js'
import type { MacroScope } from './macro-policy.js'

export type NewMacro = Pick<Macro, 'name' | 'shared' | 'user_id' | 'actions'>

/** Storage port for macros (part of Store). Reads take the caller's scope and return only macros inside it. */
export interface MacroRepository {
  list(scope: MacroScope, query: ListQuery): Promise<Page<WithIncludes<Macro>>>
  /** The macro if it is inside the scope. */
  findVisible(scope: MacroScope, id: number): Promise<Macro | null>
  create(macro: NewMacro): Promise<Macro>
  update(id: number, values: Pick<Macro, 'name' | 'shared' | 'actions'>): Promise<Macro | null>
  delete(id: number): Promise<boolean>
}
