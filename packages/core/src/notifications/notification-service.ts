import { nowString, type ServiceContext } from '../context.js'
import { NotFoundError } from '../errors.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Actor } from '../users/user.js'
import { isNotificationId, type Notification } from './notification.js'

/**
 * The authenticated user's own notifications (any role). Another user's
 * notification is reported missing, never forbidden.
 */
export class NotificationService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: Actor, query: ListQuery): Promise<Page<Notification>> {
    return await this.ctx.store.notifications.list(actor.id, query)
  }

  /** The caller's unread notifications: the list with `filter[read]=0` imposed. */
  async unread (actor: Actor, query: ListQuery): Promise<Page<Notification>> {
    return await this.list(actor, { ...query, exact: { ...query.exact, read: ['0'] } })
  }

  async view (actor: Actor, id: string): Promise<Notification> {
    const found = isNotificationId(id) ? await this.ctx.store.notifications.findForUser(actor.id, id) : null
    if (found === null) throw new NotFoundError('Notification')
    return found
  }

  /** Sets `read_at` (kept when already read). */
  async markRead (actor: Actor, id: string): Promise<Notification> {
    return await this.setReadAt(actor, id, nowString(this.ctx))
  }

  async markUnread (actor: Actor, id: string): Promise<Notification> {
    return await this.setReadAt(actor, id, null)
  }

  /** Marks every unread notification of the caller read; returns how many changed. */
  async markAllRead (actor: Actor): Promise<number> {
    return await this.ctx.store.notifications.markAllRead(actor.id, nowString(this.ctx))
  }

  private async setReadAt (actor: Actor, id: string, readAt: string | null): Promise<Notification> {
    const updated = isNotificationId(id) ? await this.ctx.store.notifications.setReadAt(actor.id, id, readAt) : null
    if (updated === null) throw new NotFoundError('Notification')
    return updated
  }
}
