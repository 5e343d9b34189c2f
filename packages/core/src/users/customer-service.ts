import { nowString, type ServiceContext } from '../context.js'
import { NotFoundError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { removeFiles } from '../tickets/attachment-service.js'
import { requiredHtml } from '../text-input.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Store, WithIncludes } from '../store.js'
import { NOTE_MAX_LENGTH, type CustomerNote } from './customer-note.js'
import { checkedNewPersonRow, checkedNewPersonRows, checkPersonPatch, hashIfGiven, normaliseCompany, personPatch, savePersonPatch, type NewPersonInput, type PersonPatchInput } from './user-input.js'
import { canManageCustomers, ensure } from './user-policy.js'
import { CustomerEventType, type CustomerEvent } from './customer-events.js'
import { changedFields } from '../tickets/ticket-events.js'
import { PersonService } from './person-service.js'
import { Role, type User } from './user.js'
import { actorIdOf, requirePerson, type ActorInput } from './actor.js'
import { insertCustomer, insertCustomers } from './customer-creation.js'

export { insertCustomer } from './customer-creation.js'

/** Customers, their notes and notification settings. Administrators and agents with `manage_customers`. */
export class CustomerService extends PersonService {
  constructor (ctx: ServiceContext) {
    super(ctx, { kind: 'customer', noun: 'Customer', is: (user) => user.role === Role.Customer, mayManage: canManageCustomers })
  }

  /** Creates an Active customer (the CLI passes `SYSTEM` and `confirm: false`). */
  async create (actor: ActorInput, input: NewPersonInput, confirm = true): Promise<User> {
    ensure(canManageCustomers(actor))
    const row = await checkedNewPersonRow(this.ctx, Role.Customer, input, { confirm })
    return await this.ctx.events.transaction(this.ctx.store, async (tx) => await insertCustomer(this.ctx, tx, row, actor))
  }

  /**
   * Bulk creation (volume seeding, migrations from other systems): Active
   * customers who share one password hash (computed once by the caller with
   * `ctx.hasher`, or null for no usable password), inserted in batches inside
   * `tx` (or a transaction of its own), with one `CustomerCreated` each
   * (`insertCustomers`). Names, emails and companies are checked as by
   * `create` (422 keyed `N.field`). Returns the ids in input order.
   */
  async createMany (actor: ActorInput, people: Array<Omit<NewPersonInput, 'password' | 'password_confirmation'>>, passwordHash: string | null, tx?: Store): Promise<number[]> {
    ensure(canManageCustomers(actor))
    const rows = checkedNewPersonRows(Role.Customer, people, passwordHash)
    if (tx !== undefined) return await insertCustomers(this.ctx, tx, rows, actor)
    return await this.ctx.events.transaction(this.ctx.store, async (inner) => await insertCustomers(this.ctx, inner, rows, actor))
  }

  async update (actor: ActorInput, id: number, input: PersonPatchInput): Promise<User> {
    const before = await this.get(actor, id)
    checkPersonPatch(input)
    const passwordHash = await hashIfGiven(this.ctx, input.new_password)
    const updated = await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const fields = personPatch(input, { company: normaliseCompany(input.company) })
      const user = await savePersonPatch(tx, id, fields, passwordHash)
      const changes = [...changedFields(before, fields), ...(passwordHash !== undefined ? ['password'] : [])]
      if (user !== null && changes.length > 0) {
        await this.ctx.events.emit(tx, { type: CustomerEventType.CustomerUpdated, actor_id: actorIdOf(actor), customer: user, changes } satisfies CustomerEvent)
      }
      return user
    })
    if (updated === null) throw new NotFoundError('Customer')
    return updated
  }

  /** Deletes the customer with their tickets (by cascade) and, once that committed, the tickets' files. */
  async delete (actor: ActorInput, id: number): Promise<void> {
    const customer = await this.get(actor, id)
    const fileNames = await this.ctx.events.transaction(this.ctx.store, async (tx) => {
      const names = await tx.attachments.fileNamesOfTicketsOwnedBy(id)
      if (await tx.users.delete(id)) {
        await this.ctx.events.emit(tx, { type: CustomerEventType.CustomerDeleted, actor_id: actorIdOf(actor), customer } satisfies CustomerEvent)
      }
      return names
    })
    await removeFiles(this.ctx.files, fileNames)
  }

  async listNotes (actor: ActorInput, customerId: number, query: ListQuery): Promise<Page<WithIncludes<CustomerNote>>> {
    await this.get(actor, customerId)
    return await this.ctx.store.customerNotes.list(customerId, query)
  }

  /** Adds a note (HTML, sanitised; a note that is empty once cleaned is a 422 on `note`) by a person, its creator. */
  async addNote (caller: ActorInput, customerId: number, text: string): Promise<CustomerNote> {
    const actor = requirePerson(caller)
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

  async deleteNote (actor: ActorInput, customerId: number, noteId: number): Promise<void> {
    await this.get(actor, customerId)
    const note = await this.ctx.store.customerNotes.findById(noteId)
    if (note === null || note.customer_id !== customerId) throw new NotFoundError('Note')
    await this.ctx.store.customerNotes.delete(noteId)
  }
}
