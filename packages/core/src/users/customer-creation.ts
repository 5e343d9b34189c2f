import type { ServiceContext } from '../context.js'
import { ValidationError } from '../errors.js'
import type { Store } from '../store.js'
import { actorIdOf, type ActorInput } from './actor.js'
import { CustomerEventType, type CustomerEvent } from './customer-events.js'
import { personName } from './user-input.js'
import type { NewUser } from './user-store.js'
import { LIMITS, Role, UserStatus, type User } from './user.js'

/*
 * The one way a customer comes into being, whichever door brings them:
 * staff and the CLI (`customers.create`), self-registration
 * (`auth.register`), staff opening a ticket for a new email
 * (`tickets.create`), a mail from an unknown sender (inbound mail, and an
 * administrator releasing a held one), imports, and volume seeding
 * (`customers.createMany`, the explicit batch; imports use `CustomerBatch`). Each emits one
 * `Customers.CustomerCreated` inside the transaction that creates the
 * customer (event log, webhooks), so no door can forget it.
 */

/** Who creates a customer: an actor, or `'self'` (the new customer signing themselves up). */
export type CustomerCreator = ActorInput | 'self'

function createdEvent (customer: User, by: CustomerCreator): CustomerEvent {
  return { type: CustomerEventType.CustomerCreated, actor_id: by === 'self' ? customer.id : actorIdOf(by), customer }
}

/** Inserts a new customer (`row.role` must be Customer) and emits `CustomerCreated`, inside `tx` (a transaction of `ctx.events`). */
export async function insertCustomer (ctx: ServiceContext, tx: Store, row: NewUser, by: CustomerCreator): Promise<User> {
  if (row.role !== Role.Customer) throw new Error('insertCustomer creates customers only')
  const customer = await tx.users.create(row)
  await ctx.events.emit(tx, createdEvent(customer, by))
  return customer
}

/**
 * The batch form, for bulk creation: the rows inserted in batches, then one
 * `CustomerCreated` per customer, in input order, emitted together
 * (`EventBus.emitMany`: the event log takes them in one statement), inside
 * `tx`. Returns the ids in input order.
 */
export async function insertCustomers (ctx: ServiceContext, tx: Store, rows: NewUser[], by: ActorInput): Promise<number[]> {
  if (rows.some((row) => row.role !== Role.Customer)) throw new Error('insertCustomers creates customers only')
  const ids = await tx.users.createMany(rows)
  const customers = await tx.users.findMany(ids)
  await ctx.events.emitMany(tx, customers.map((customer) => createdEvent(customer, by)))
  return ids
}

/**
 * Customers created one at a time inside one bulk change that needs each id
 * at once (an import batch, whose tickets name their owners): `create`
 * inserts the customer, `emit` raises the `CustomerCreated` of all of them
 * together (`EventBus.emitMany`) inside `tx`; call it before the transaction
 * ends.
 */
export class CustomerBatch {
  private readonly events: CustomerEvent[] = []

  constructor (private readonly ctx: ServiceContext, private readonly tx: Store, private readonly by: ActorInput) {}

  async create (row: NewUser): Promise<User> {
    if (row.role !== Role.Customer) throw new Error('CustomerBatch creates customers only')
    const customer = await this.tx.users.create(row)
    this.events.push(createdEvent(customer, this.by))
    return customer
  }

  async emit (): Promise<void> {
    await this.ctx.events.emitMany(this.tx, this.events.splice(0))
  }
}

/**
 * The row of a customer a door meets by email alone (staff opening a ticket
 * for it, a mail from it): Unconfirmed, with no usable password until they
 * set one. `names` are stored as given: pass them through `personName`.
 */
export function unconfirmedCustomer (email: string, names: { first_name: string, last_name: string }): NewUser {
  return { role: Role.Customer, email, first_name: names.first_name, last_name: names.last_name, status: UserStatus.Unconfirmed, password_hash: null }
}

/**
 * First and last name from a mail's display name, under the plain-text rule
 * of every name (CONTRACT §17: a display name carrying markup keeps only its
 * text), cut to the field's length; the address's local part (or
 * `Customer`) when there is no display name.
 */
export function namesFromDisplayName (email: string, displayName: string): { first_name: string, last_name: string } {
  const [first, ...rest] = personName(displayName).split(' ').filter((part) => part !== '')
  const local = personName(email.slice(0, email.indexOf('@'))) || 'Customer'
  return {
    first_name: [...(first ?? local)].slice(0, LIMITS.name).join(''),
    last_name: [...rest.join(' ')].slice(0, LIMITS.name).join('')
  }
}

/**
 * A new Unconfirmed customer for `email`, in a transaction of its own; when
 * a concurrent request created that address first (two mails from the same
 * new sender), the user who won. For doors outside a transaction (inbound
 * mail); inside one, a lost race rolls the change back instead (see
 * `TicketService.create`, which tries again once).
 */
export async function createCustomerForEmail (ctx: ServiceContext, email: string, names: { first_name: string, last_name: string }, by: ActorInput): Promise<User> {
  try {
    return await ctx.events.transaction(ctx.store, async (tx) => await insertCustomer(ctx, tx, unconfirmedCustomer(email, names), by))
  } catch (error) {
    const existing = error instanceof ValidationError ? await ctx.store.users.findByEmail(email) : null
    if (existing === null) throw error
    return existing
  }
}
