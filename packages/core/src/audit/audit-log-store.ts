import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { DateTimeString } from '../time.js'
import type { AuditEntry, NewAuditEntry } from './audit-log.js'

/** Storage port of the audit log (part of `Store`): appended, listed, pruned. */
export interface AuditLogRepository {
  add(entry: NewAuditEntry): Promise<void>
  list(query: ListQuery): Promise<Page<WithIncludes<AuditEntry>>>
  /** Deletes at most `limit` entries created before `before`; returns how many. */
  deleteBefore(before: DateTimeString, limit: number): Promise<number>
}
