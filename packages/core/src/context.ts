import type { EventBus } from './events.js'
import type { FileStorage, MarketplaceVerifier, PasswordHasher } from './ports.js'
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
  /** Purchase-code checks (knowledge-base levels 3/4, category purchase verification); absent = not configured. */
  marketplace?: MarketplaceVerifier | undefined
  /** Where attachment files are stored. */
  files: FileStorage
}

export function nowString (ctx: ServiceContext): string {
  return formatDateTime(ctx.clock.now())
}
