import type { DomainEvent } from '../events.js'
import type { User } from './user.js'

/** Customer events, emitted inside the transaction of the change; `customer` is its state after it (its last state once deleted). */
export const CustomerEventType = {
  CustomerCreated: 'Customers.CustomerCreated',
  CustomerUpdated: 'Customers.CustomerUpdated',
  CustomerDeleted: 'Customers.CustomerDeleted'
} as const

export interface CustomerEvent extends DomainEvent {
  type: typeof CustomerEventType[keyof typeof CustomerEventType]
  customer: User
  /** `Customers.CustomerUpdated`: the fields that changed (`password` when a new one was set). */
  changes?: string[]
}
