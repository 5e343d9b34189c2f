import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { CannedResponse } from './canned-response.js'
import type { CannedResponseScope } from './canned-response-policy.js'

export type NewCannedResponse = Pick<CannedResponse, 'user_id' | 'global' | 'name' | 'body'>

/**
 * Storage port for canned responses (part of Store). Reads take the caller's
 * scope (canned-response-policy.ts) and only ever return responses inside it.
 */
export interface CannedResponseRepository {
  list(scope: CannedResponseScope, query: ListQuery): Promise<Page<WithIncludes<CannedResponse>>>
  view(scope: CannedResponseScope, id: number, query: ListQuery): Promise<WithIncludes<CannedResponse> | null>
  /** The responses among `ids` inside the scope, by id. */
  findVisible(scope: CannedResponseScope, ids: number[]): Promise<CannedResponse[]>
  create(response: NewCannedResponse): Promise<CannedResponse>
  update(id: number, values: Pick<CannedResponse, 'global' | 'name' | 'body'>): Promise<CannedResponse | null>
  /** Deletes these ids; returns how many existed. */
  deleteMany(ids: number[]): Promise<number>
}
