import type { ServiceContext } from '../context.js'
import { NotFoundError } from '../errors.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import { ensure } from './user-policy.js'
import type { UserKind } from './user-store.js'
import type { ActorInput } from './actor.js'
import { NOTIFICATION_SETTING_KEYS, type NotificationSettings, type User } from './user.js'

/** Which people a `PersonService` serves, and who may manage them. */
export interface PersonKind {
  kind: UserKind
  /** The name in "not found" errors. */
  noun: 'Agent' | 'Customer'
  /** Whether `user` is of this kind. */
  is: (user: User) => boolean
  /** Whether `actor` may manage people of this kind. */
  mayManage: (actor: ActorInput) => boolean
}

/** What the agent and customer services share: listing, viewing and finding one of their people, and their notification settings. */
export abstract class PersonService {
  constructor (protected readonly ctx: ServiceContext, private readonly people: PersonKind) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<User>>> {
    ensure(this.people.mayManage(actor))
    return await this.ctx.store.users.list(this.people.kind, query)
  }

  async view (actor: ActorInput, id: number, query: ListQuery): Promise<WithIncludes<User>> {
    ensure(this.people.mayManage(actor))
    const person = await this.ctx.store.users.view(this.people.kind, id, query)
    if (person === null) throw new NotFoundError(this.people.noun)
    return person
  }

  async notificationSettings (actor: ActorInput, id: number): Promise<NotificationSettings> {
    return (await this.get(actor, id)).notifications
  }

  async updateNotificationSettings (actor: ActorInput, id: number, patch: Partial<NotificationSettings>): Promise<NotificationSettings> {
    const person = await this.get(actor, id)
    const settings = mergeSettings(person.notifications, patch)
    await this.ctx.store.users.setNotificationSettings(id, settings)
    return settings
  }

  /** The person of this kind with this id, for an actor who may manage them (the system may); NotFoundError otherwise. */
  protected async get (actor: ActorInput, id: number): Promise<User> {
    ensure(this.people.mayManage(actor))
    const user = await this.ctx.store.users.findById(id)
    if (user === null || !this.people.is(user)) throw new NotFoundError(this.people.noun)
    return user
  }
}

export function mergeSettings (current: NotificationSettings, patch: Partial<NotificationSettings>): NotificationSettings {
  const next = { ...current }
  for (const key of NOTIFICATION_SETTING_KEYS) {
    const value = patch[key]
    if (typeof value === 'boolean') next[key] = value
  }
  return next
}
