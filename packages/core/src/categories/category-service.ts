import { audit } from '../audit/audit-log.js'
import type { ServiceContext } from '../context.js'
import { throwIfInvalid, unknownOrderErrors } from '../id-lists.js'
import { NotFoundError, ValidationError } from '../errors.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import { knowledgeBaseScope } from '../knowledge-base/knowledge-base-policy.js'
import { canManageCategories, ensure } from '../users/user-policy.js'
import { actsAsStaff, requirePerson, type ActorInput } from '../users/actor.js'
import { checkCategoryInput, positionsFromOrder, type Category, type CategoryCountScope, type CategoryInput, staffCategoryCounts } from './category.js'

/** Counts of the knowledge base a category include may report. */
const knowledgeBaseCounts = ['articles-count', 'collections-count']

/** Categories: any authenticated user lists and views; administrators manage. */
export class CategoryService {
  constructor (private readonly ctx: ServiceContext) {}

  /** Staff and the system (the CLI's seeding) count everything; see `countScope`. */
  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<Category>>> {
    return await this.ctx.store.categories.list(query, await this.countScope(actor, query))
  }

  async view (actor: ActorInput, id: number, query: ListQuery): Promise<WithIncludes<Category>> {
    const category = await this.ctx.store.categories.view(id, query, await this.countScope(actor, query))
    if (category === null) throw new NotFoundError('Category')
    return category
  }

  /**
   * What the count includes may count for `actor` (CONTRACT §17): staff count
   * everything; a customer what they could list: public tickets and their
   * own, published articles and collections of the visibility levels they may
   * read (their purchase standing is looked up only when such a count is asked for).
   * Categories are read by people and the system only (401 for the anonymous).
   */
  private async countScope (actor: ActorInput, query: ListQuery): Promise<CategoryCountScope> {
    if (actsAsStaff(actor)) return staffCategoryCounts
    const person = requirePerson(actor)
    const knowledgeBase = query.include.some((name) => knowledgeBaseCounts.includes(name))
      ? await knowledgeBaseScope(this.ctx, person)
      : { visibilities: [], drafts: false }
    return { tickets: { ownerOrPublic: person.id }, knowledgeBase }
  }

  async create (actor: ActorInput, input: CategoryInput): Promise<Category> {
    ensure(canManageCategories(actor))
    const clean = checkCategoryInput(input, false) as CategoryInput
    return await this.ctx.store.transaction(async (tx) => {
      const order = await tx.categories.nextOrder()
      const category = await tx.categories.create({ ...clean, order })
      await audit(tx, actor, { action: 'category.created', subject_type: 'category', subject_id: category.id, after: category })
      return category
    })
  }

  /** Partial: absent fields keep their values. */
  async update (actor: ActorInput, id: number, patch: Partial<CategoryInput>): Promise<Category> {
    ensure(canManageCategories(actor))
    const clean = checkCategoryInput(patch, true)
    return await this.ctx.store.transaction(async (tx) => {
      const before = await tx.categories.findById(id)
      const updated = before === null ? null : await tx.categories.update(id, clean)
      if (updated === null) throw new NotFoundError('Category')
      await audit(tx, actor, { action: 'category.updated', subject_type: 'category', subject_id: id, before, after: updated })
      return updated
    })
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    ensure(canManageCategories(actor))
    await this.ctx.store.transaction(async (tx) => {
      const before = await tx.categories.findById(id)
      if (before === null) throw new NotFoundError('Category')
      if (await tx.categories.isInUse(id)) {
        throw ValidationError.field('category', 'The category still has tickets or article collections.')
      }
      await tx.categories.delete(id)
      await audit(tx, actor, { action: 'category.deleted', subject_type: 'category', subject_id: id, before })
    })
  }

  async order (actor: ActorInput, order: number[] | Record<string, number>): Promise<void> {
    ensure(canManageCategories(actor))
    const positions = positionsFromOrder(order)
    const existing = await this.ctx.store.categories.existingIds([...positions.keys()])
    throwIfInvalid(unknownOrderErrors(order, existing, 'The selected category is invalid.'))
    await this.ctx.store.transaction(async (tx) => {
      await tx.categories.setOrder(positions)
      await audit(tx, actor, { action: 'category.reordered', subject_type: 'category', after: { order: Object.fromEntries(positions) } })
    })
  }
}
