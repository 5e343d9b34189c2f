import { nowString, type ServiceContext } from '../context.js'
import { NotFoundError } from '../errors.js'
import type { ListQuery, Page } from '../list/list-query.js'
import { requirePerson, type ActorInput } from '../users/actor.js'
import { isNotificationId, type Notification } from './notification.js'

/**
 * The authenticated person's own notifications (any role). Another user's
 * notification is reported missing, never forbidden.
 */
export class NotificationService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<Notification>> {
    return await this.ctx.store.notifications.list(requirePerson(actor).id, query)
  }

  /** The caller's unread notifications: the list with `filter[read]=0` imposed. */
  async unread (actor: ActorInput, query: ListQuery): Promise<Page<Notification>> {
    return await this.list(actor, { ...query, exact: { ...query.exact, read: ['0'] } })
  }

  async view (actor: ActorInput, id: string): Promise<Notification> {
    const userId = requirePerson(actor).id
    const found = isNotificationId(id) ? await this.ctx.store.notifications.findForUser(userId, id) : null
    if (found === null) throw new NotFoundError('Notification')
    return found
  }

  /** Sets `read_at` (kept when already read). */
  async markRead (actor: ActorInput, id: string): Promise<Notification> {
    return await this.setReadAt(actor, id, nowString(this.ctx))
  }

  async markUnread (actor: ActorInput, id: string): Promise<Notification> {
    return await this.setReadAt(actor, id, null)
  }

  /** Marks every unread notification of the caller read; returns how many changed. */
  async markAllRead (actor: ActorInput): Promise<number> {
    return await this.ctx.store.notifications.markAllRead(requirePerson(actor).id, nowString(this.ctx))
  }

  private async setReadAt (actor: ActorInput, id: string, readAt: string | null): Promise<Notification> {
    const userId = requirePerson(actor).id
    const updated = isNotificationId(id) ? await this.ctx.store.notifications.setReadAt(userId, id, readAt) : null
    if (updated === null) throw new NotFoundError('Notification')
    return updated
  }
}
