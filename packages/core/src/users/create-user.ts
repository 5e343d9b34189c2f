import { SYSTEM, type ActorInput } from './actor.js'
import type { AgentService } from './agent-service.js'
import type { CustomerService } from './customer-service.js'
import type { NewPersonInput } from './user-input.js'
import { Role, type RoleNumber, type User } from './user.js'

/**
 * Creates an Active user of any role for a trusted door (the CLI, as `SYSTEM`
 * unless told otherwise): no password confirmation; customers through
 * `CustomerService` (which emits `CustomerCreated`), administrators and agents
 * through `AgentService`.
 */
export async function createUserOfRole (
  services: { customers: CustomerService, agents: AgentService }, role: RoleNumber, input: NewPersonInput, actor: ActorInput = SYSTEM
): Promise<User> {
  return role === Role.Customer
    ? await services.customers.create(actor, input, false)
    : await services.agents.create(actor, input, role, false)
}
