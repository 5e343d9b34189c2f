import type { ServiceContext } from '../context.js'
import type { FieldErrors } from '../errors.js'
import type { Store } from '../store.js'
import { textLength } from '../text-input.js'
import { userOf, type ActorInput } from '../users/actor.js'
import { insertCustomer, unconfirmedCustomer } from '../users/customer-creation.js'
import { normaliseEmail, personName } from '../users/user-input.js'
import { isStaff, LIMITS, Role, type User } from '../users/user.js'
import type { TicketInput } from './ticket-input.js'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The owner of a new ticket: an existing user, or a customer to create with the ticket. */
export type TicketOwner =
  | { user: User }
  | { create: { email: string, first_name: string, last_name: string } }

function nameOf (errors: FieldErrors, field: 'first_name' | 'last_name', value: string | undefined, fallback: string): string {
  const name = personName(value ?? '')
  if (textLength(name) > LIMITS.name) errors[field] = [`The ${field.replace('_', ' ')} may not be greater than ${LIMITS.name} characters.`]
  return name === '' ? personName(fallback) : name
}

/**
 * Whose ticket it is (CONTRACT §16): a customer's own; staff name a customer by
 * `customer_id` (alias `customer`) or by `email`, where an email nobody has
 * yet means a new Unconfirmed customer. Records problems in `errors`; returns
 * null when there are any.
 */
export async function resolveTicketOwner (store: Store, actor: User, input: TicketInput, errors: FieldErrors): Promise<TicketOwner | null> {
  if (!isStaff(actor)) return { user: userOf(actor) }
  const customerId = input.customer_id ?? input.customer
  if (customerId !== undefined) {
    const user = await store.users.findById(customerId)
    if (user === null || user.role !== Role.Customer) {
      errors[input.customer_id !== undefined ? 'customer_id' : 'customer'] = ['The selected customer is invalid.']
      return null
    }
    return { user }
  }
  const email = normaliseEmail(input.email ?? '')
  if (email === '') {
    errors.email = ['The email field is required when customer id is not present.']
    return null
  }
  if (!EMAIL.test(email) || email.length > LIMITS.email) {
    errors.email = ['The email must be a valid email address.']
    return null
  }
  const user = await store.users.findByEmail(email)
  if (user !== null) {
    if (user.role === Role.Customer) return { user }
    errors.email = ['The email belongs to a staff account; tickets are owned by customers.']
    return null
  }
  const localPart = email.slice(0, email.indexOf('@'))
  const created = {
    email,
    first_name: nameOf(errors, 'first_name', input.first_name, localPart),
    last_name: nameOf(errors, 'last_name', input.last_name, '')
  }
  return errors.first_name === undefined && errors.last_name === undefined ? { create: created } : null
}

/**
 * The owner as a user, creating the customer (Unconfirmed, no usable
 * password; `CustomerCreated` by `by`) inside the ticket's transaction `tx`.
 */
export async function ownerUser (ctx: ServiceContext, tx: Store, owner: TicketOwner, by: ActorInput): Promise<User> {
  if ('user' in owner) return owner.user
  return await insertCustomer(ctx, tx, unconfirmedCustomer(owner.create.email, owner.create), by)
}
