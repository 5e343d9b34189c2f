import type { EventBus } from './events.js'
import type { PasswordHasher } from './ports.js'
import type { Store } from './store.js'
import type { Clock } from './time.js'
import { formatDateTime } from './time.js'

/** What every service is built from. */
export interface ServiceContext {
  store: Store
  hasher: PasswordHasher
  clock: Clock
  events: EventBus
  /** Whether `POST /auth/register` may create customers. */
  registration: boolean
}

export function nowString (ctx: ServiceContext): string {
  return formatDateTime(ctx.clock.now())
}
