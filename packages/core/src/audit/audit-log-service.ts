import type { ServiceContext } from '../context.js'
import type { ListQuery, Page } from '../list/list-query.js'
import { settingsFrom } from '../settings/settings.js'
import type { WithIncludes } from '../store.js'
import { formatDateTime } from '../time.js'
import { requireSignedIn, type ActorInput } from '../users/actor.js'
import { ensureAdmin } from '../users/user-policy.js'
import type { AuditEntry } from './audit-log.js'

const DAY = 24 * 60 * 60 * 1000

/** The audit log: read by administrators (403 for everyone else), pruned by a daily job past `audit.retention_days`. */
export class AuditLogService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<AuditEntry>>> {
    requireSignedIn(actor)
    ensureAdmin(actor)
    return await this.ctx.store.auditLog.list(query)
  }

  /** Deletes entries older than the retention setting, in batches; returns how many. */
  async prune (): Promise<number> {
    const stored = await this.ctx.store.settings.all()
    const days = settingsFrom(Object.fromEntries(stored.map((s) => [s.key, s.value])))['audit.retention_days']
    const before = formatDateTime(new Date(this.ctx.clock.now().getTime() - days * DAY))
    let removed = 0
    for (;;) {
      const n = await this.ctx.store.auditLog.deleteBefore(before, 1000)
      removed += n
      if (n < 1000) return removed
    }
  }
}
