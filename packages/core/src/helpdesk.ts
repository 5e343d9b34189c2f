import { AuthService } from './auth/auth-service.js'
import { createArgon2Hasher } from './auth/argon2-hasher.js'
import { CategoryService } from './categories/category-service.js'
import type { ServiceContext } from './context.js'
import { EventBus } from './events.js'
import type { PasswordHasher } from './ports.js'
import type { Store } from './store.js'
import { systemClock, type Clock } from './time.js'
import { AgentService } from './users/agent-service.js'
import { CustomerService } from './users/customer-service.js'

export interface HelpdeskOptions {
  store: Store
  hasher?: PasswordHasher
  clock?: Clock
  events?: EventBus
  /** Allow `POST /auth/register` (default true). */
  registration?: boolean
}

/** The whole domain: every use case, built on one store. HTTP and CLI both call these. */
export interface Helpdesk {
  readonly context: ServiceContext
  readonly events: EventBus
  readonly auth: AuthService
  readonly customers: CustomerService
  readonly agents: AgentService
  readonly categories: CategoryService
}

export function createHelpdesk (options: HelpdeskOptions): Helpdesk {
  const context: ServiceContext = {
    store: options.store,
    hasher: options.hasher ?? createArgon2Hasher(),
    clock: options.clock ?? systemClock,
    events: options.events ?? new EventBus(),
    registration: options.registration ?? true
  }
  return {
    context,
    events: context.events,
    auth: new AuthService(context),
    customers: new CustomerService(context),
    agents: new AgentService(context),
    categories: new CategoryService(context)
  }
}
