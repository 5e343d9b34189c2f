import { nowString, type ServiceContext } from '../context.js'
import { NotFoundError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { removeFiles } from '../tickets/attachment-service.js'
import { requiredHtml } from '../text-input.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Store, WithIncludes } from '../store.js'
import type { NewUser } from './user-store.js'
import { NOTE_MAX_LENGTH, type CustomerNote } from './customer-note.js'
import { checkedNewPersonRow, checkedNewPersonRows, checkPersonPatch, hashIfGiven, normaliseCompany, personPatch, savePersonPatch, type NewPersonInput, type PersonPatchInput } from './user-input.js'
import { canManageCustomers, ensure } from './user-policy.js'
import { CustomerEventType, type CustomerEvent } from './customer-events.js'
import { changedFields } from '../tickets/ticket-events.js'
import { PersonService } from './person-service.js'
import { Role, type Actor, type User } from './user.js'

/** Customers, their notes and notification settings. Administrators and agents with `manage_customers`. */
export class CustomerService extends PersonService {
  constructor (ctx: ServiceContext) {
    super(ctx, { kind: 'customer', noun: 'Customer', is: (user) => user.role === Role.Customer, mayManage: canManageCustomers })
  }

  /** Creates an Active customer (the CLI passes `confirm: false`). */
  async create (actor: Actor | null, input: NewPersonInput, confirm = true): Promise<User> {
    if (actor !== null) ensure(canManageCustomers(actor))
    const row = await checkedNewPersonRow(this.ctx, Role.Customer, input, { confirm })
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => await insertCustomer(this.ctx, tx, row, actor?.id ?? null))
  }

  /**
   * Bulk creation (volume seeding, migrations from other systems): Active
   * customers who share one password hash (computed once by the caller with
   * `ctx.hasher`, or null for no usable password), inserted in batches inside
   * `tx` (or a transaction of its own). Names, emails and companies are
   * checked as by `create` (422 keyed `N.field`). No actor check: the caller
   * is trusted. Returns the ids in input order.
   */
  async createMany (people: Array<Omit<NewPersonInput, 'password' | 'password_confirmation'>>, passwordHash: string | null, tx?: Store): Promise<number[]> {
    const rows = checkedNewPersonRows(Role.Customer, people, passwordHash)
    if (tx !== undefined) return await tx.users.createMany(rows)
    return await this.ctx.store.transaction(async (inner) => await inner.users.createMany(rows))
  }

  async update (actor: Actor, id: number, input: PersonPatchInput): Promise<User> {
    const before = await this.get(actor, id)
    checkPersonPatch(input)
    const passwordHash = await hashIfGiven(this.ctx, input.new_password)
    const updated = await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const fields = personPatch(input, { company: normaliseCompany(input.company) })
      const user = await savePersonPatch(tx, id, fields, passwordHash)
      const changes = [...changedFields(before, fields), ...(passwordHash !== undefined ? ['password'] : [])]
      if (user !== null && changes.length > 0) {
        await this.ctx.events.emit(tx, { type: CustomerEventType.CustomerUpdated, actor_id: actor.id, customer: user, changes } satisfies CustomerEvent)
      }
      return user
    })
    if (updated === null) throw new NotFoundError('Customer')
    return updated
  }

  /** Deletes the customer with their tickets (by cascade) and, once that committed, the tickets' files. */
  async delete (actor: Actor, id: number): Promise<void> {
    const customer = await this.get(actor, id)
    const fileNames = await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const names = await tx.attachments.fileNamesOfTicketsOwnedBy(id)
      if (await tx.users.delete(id)) {
        await this.ctx.events.emit(tx, { type: CustomerEventType.CustomerDeleted, actor_id: actor.id, customer } satisfies CustomerEvent)
      }
      return names
    })
    await removeFiles(this.ctx.files, fileNames)
  }

  async listNotes (actor: Actor, customerId: number, query: ListQuery): Promise<Page<WithIncludes<CustomerNote>>> {
    await this.get(actor, customerId)
    return await this.ctx.store.customerNotes.list(customerId, query)
  }

  /** Adds a note (HTML, sanitised; a note that is empty once cleaned is a 422 on `note`). */
  async addNote (actor: Actor, customerId: number, text: string): Promise<CustomerNote> {
    const customer = await this.get(actor, customerId)
    const errors: FieldErrors = {}
    const clean = requiredHtml(errors, 'note', text, NOTE_MAX_LENGTH)
    throwIfInvalid(errors)
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const note = await tx.customerNotes.create({ customer_id: customerId, creator_id: actor.id, text: clean })
      await this.ctx.events.emit(tx, {
        type: 'Customers.NoteAdded', actor_id: actor.id, customer, note, at: nowString(this.ctx)
      })
      return note
    })
  }

  async deleteNote (actor: Actor, customerId: number, noteId: number): Promise<void> {
    await this.get(actor, customerId)
    const note = await this.ctx.store.customerNotes.findById(noteId)
    if (note === null || note.customer_id !== customerId) throw new NotFoundError('Note')
    await this.ctx.store.customerNotes.delete(noteId)
  }
}

/**
 * Inserts a new customer and emits `CustomerCreated`, inside `tx` (a transaction of
 * `ctx.events`): how staff, the CLI and self-registration (`actorId: 'self'`) create customers.
 */
export async function insertCustomer (ctx: ServiceContext, tx: Store, row: NewUser, actorId: number | null | 'self'): Promise<User> {
  const customer = await tx.users.create(row)
  await ctx.events.emit(tx, { type: CustomerEventType.CustomerCreated, actor_id: actorId === 'self' ? customer.id : actorId, customer } satisfies CustomerEvent)
  return customer
}
