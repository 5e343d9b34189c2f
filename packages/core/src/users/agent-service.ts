import type { ServiceContext } from '../context.js'
import { NotFoundError, ValidationError } from '../errors.js'
import { staffCategoryCounts, type Category } from '../categories/category.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import { PersonService } from './person-service.js'
import { checkedNewPersonRow, checkedNewPersonRows, checkPersonPatch, hashIfGiven, personPatch, savePersonPatch, type NewPersonInput, type PersonPatchInput } from './user-input.js'
import { canManageAgents, ensure } from './user-policy.js'
import {
  isStaff, isValidRole, noPermissions, PERMISSION_KEYS, Role, UserStatus,
  type Permissions, type RoleNumber, type User
} from './user.js'
import { actorIdOf, type ActorInput } from './actor.js'
import { isValidTimezone } from '../time.js'
import { distinct, throwIfInvalid, unknownIdErrors } from '../id-lists.js'
import { audit } from '../audit/audit-log.js'

/** Agents and administrators (both listed under /agents). Administrators only. */
export class AgentService extends PersonService {
  constructor (ctx: ServiceContext) {
    super(ctx, { kind: 'agent', noun: 'Agent', is: isStaff, mayManage: canManageAgents })
  }

  /** Creates an Active agent (or administrator, through the CLI: `SYSTEM`). */
  async create (actor: ActorInput, input: NewPersonInput, role: RoleNumber = Role.Agent, confirm = true): Promise<User> {
    ensure(canManageAgents(actor))
    if (!isValidRole(role) || role === Role.Customer) throw ValidationError.field('role', 'The role must be admin or agent.')
    const row = await checkedNewPersonRow(this.ctx, role, input, { confirm, company: false })
    return await this.ctx.store.transaction(async (tx) => {
      const user = await tx.users.create(row)
      await audit(tx, actor, { action: 'agent.created', subject_type: 'agent', subject_id: user.id, after: user })
      return user
    })
  }

  async update (actor: ActorInput, id: number, input: PersonPatchInput): Promise<User> {
    const before = await this.get(actor, id)
    checkPersonPatch(input)
    if (input.timezone !== undefined && !isValidTimezone(input.timezone)) {
      throw ValidationError.field('timezone', 'The timezone must be a valid zone.')
    }
    if (id === actorIdOf(actor) && input.status !== undefined && input.status !== UserStatus.Active) {
      throw ValidationError.field('status', 'You cannot ban or unconfirm your own account.')
    }
    const passwordHash = await hashIfGiven(this.ctx, input.new_password)
    const updated = await this.ctx.store.transaction(async (tx) => {
      const saved = await savePersonPatch(tx, id, personPatch(input, { timezone: input.timezone }), passwordHash)
      if (saved !== null) {
        // A new password is recorded as changed, never as a value.
        const after = passwordHash !== null ? { ...saved, also_changed: ['password'] } : saved
        await audit(tx, actor, { action: 'agent.updated', subject_type: 'agent', subject_id: id, before, after })
      }
      return saved
    })
    if (updated === null) throw new NotFoundError('Agent')
    return updated
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    const before = await this.get(actor, id)
    if (id === actorIdOf(actor)) throw ValidationError.field('id', 'You cannot delete your own account.')
    await this.ctx.store.transaction(async (tx) => {
      await tx.users.delete(id)
      await audit(tx, actor, { action: 'agent.deleted', subject_type: 'agent', subject_id: id, before })
    })
  }

  async permissions (actor: ActorInput, id: number): Promise<Permissions> {
    return effectivePermissions(await this.get(actor, id))
  }

  /** Sets the given flags; an unknown key is a 422 on that key. */
  async updatePermissions (actor: ActorInput, id: number, patch: Record<string, unknown>): Promise<Permissions> {
    const agent = await this.get(actor, id)
    const errors: Record<string, string[]> = {}
    for (const [key, value] of Object.entries(patch)) {
      if (!(PERMISSION_KEYS as readonly string[]).includes(key)) {
        errors[key] = [`Unknown permission "${key}". Allowed: ${PERMISSION_KEYS.join(', ')}.`]
      } else if (typeof value !== 'boolean') {
        errors[key] = [`The ${key} permission must be true or false.`]
      }
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors)
    const next = { ...agent.permissions, ...(patch as Partial<Permissions>) }
    await this.ctx.store.transaction(async (tx) => {
      await tx.users.update(id, { permissions: next })
      await audit(tx, actor, { action: 'agent.permissions_updated', subject_type: 'agent', subject_id: id, before: agent.permissions, after: next })
    })
    return effectivePermissions({ ...agent, permissions: next })
  }

  async categories (actor: ActorInput, id: number): Promise<Category[]> {
    await this.get(actor, id)
    const ids = await this.ctx.store.users.categoryIds(id)
    return await this.ctx.store.categories.listByIds(ids)
  }

  /** A page of the agent's categories (`GET /agents/{id}/categories`), by the categories list's sorts, filters and includes. */
  async categoryPage (actor: ActorInput, id: number, query: ListQuery): Promise<Page<WithIncludes<Category>>> {
    await this.get(actor, id)
    const ids = await this.ctx.store.users.categoryIds(id)
    return await this.ctx.store.categories.list(query, staffCategoryCounts, ids)
  }

  /**
   * Replaces the agent's categories in one transaction; an unknown id is a 422 on `categories.N`.
   * The CLI's seeding passes `SYSTEM`.
   */
  async setCategories (actor: ActorInput, id: number, categoryIds: number[]): Promise<void> {
    await this.get(actor, id)
    const unique = distinct(categoryIds)
    const existing = await this.ctx.store.categories.existingIds(unique)
    throwIfInvalid(unknownIdErrors('categories', categoryIds, existing, 'The selected category is invalid.'))
    await this.ctx.store.transaction(async (tx) => {
      const before = await tx.users.categoryIds(id)
      await tx.users.setCategories(id, unique)
      await audit(tx, actor, { action: 'agent.categories_updated', subject_type: 'agent', subject_id: id, before: { categories: before }, after: { categories: unique } })
    })
  }

  /** Whether the agent covers every category (administrators only). */
  async allCategories (actor: ActorInput, id: number): Promise<boolean> {
    return (await this.get(actor, id)).all_categories
  }

  /**
   * Marks the agent as covering every category, present and future (or no
   * longer): they see every ticket and may be assigned any. Administrators only.
   */
  async setAllCategories (actor: ActorInput, id: number, value: boolean): Promise<User> {
    const agent = await this.get(actor, id)
    if (agent.all_categories === value) return agent
    const updated = await this.ctx.store.users.update(id, { all_categories: value })
    if (updated === null) throw new NotFoundError('Agent')
    return updated
  }

  /**
   * Bulk creation (volume seeding): Active agents without permissions who
   * share one password hash (`maintenance.hashPassword`, or null for no usable
   * password), inserted in batches in one transaction. Checked as by `create`
   * (422 keyed `N.field`). Returns the ids in input order.
   */
  async createMany (actor: ActorInput, people: Array<Omit<NewPersonInput, 'password' | 'password_confirmation'>>, passwordHash: string | null): Promise<number[]> {
    ensure(canManageAgents(actor))
    const rows = checkedNewPersonRows(Role.Agent, people.map((person) => ({ ...person, company: null })), passwordHash)
      .map((row) => ({ ...row, permissions: noPermissions() }))
    return await this.ctx.store.transaction(async (tx) => await tx.users.createMany(rows))
  }
}

/** Administrators hold every permission whatever is stored. */
export function effectivePermissions (user: User): Permissions {
  if (user.role !== Role.Admin) return { ...noPermissions(), ...user.permissions }
  return Object.fromEntries(PERMISSION_KEYS.map((k) => [k, true])) as Permissions
}
