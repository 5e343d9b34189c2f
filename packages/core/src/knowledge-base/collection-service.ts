import { positionsFromOrder } from '../categories/category.js'
import type { ServiceContext } from '../context.js'
import { NotFoundError, ValidationError, type FieldErrors } from '../errors.js'
import { distinct, throwIfInvalid, unknownIdErrors, unknownOrderErrors } from '../id-lists.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Store, WithIncludes } from '../store.js'
import { requiredPlainText } from '../text-input.js'
import type { ActorInput } from '../users/actor.js'
import {
  COLLECTION_LIMITS, isCollectionVisibility,
  type ArticleCollection, type CollectionInput, type CollectionPatch, type CollectionVisibilityNumber
} from './collection.js'
import { ensureCanManageArticles, knowledgeBaseScope } from './knowledge-base-policy.js'

const invalidCollection = 'The selected collection is invalid.'

function checkVisibility (errors: FieldErrors, field: string, value: number): CollectionVisibilityNumber {
  if (isCollectionVisibility(value)) return value
  errors[field] = [`The ${field} must be 1, 2, 3 or 4.`]
  return 1
}

async function checkCategory (store: Store, field: string, id: number): Promise<void> {
  if ((await store.categories.existingIds([id])).length === 0) throw ValidationError.field(field, `The selected ${field.replace('_id', '')} is invalid.`)
}

/** 422 on `collections.N` for ids that do not exist. */
async function checkCollectionIds (store: Store, ids: number[]): Promise<number[]> {
  const existing = await store.collections.existingIds(distinct(ids))
  throwIfInvalid(unknownIdErrors('collections', ids, existing, invalidCollection))
  return distinct(ids)
}

/**
 * Knowledge-base collections. Reading follows the visibility policy (anyone,
 * anonymous included, within their scope); editing is for administrators and
 * agents with `manage_articles`.
 */
export class CollectionService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<ArticleCollection>>> {
    return await this.ctx.store.collections.list(await knowledgeBaseScope(this.ctx, actor), query)
  }

  async view (actor: ActorInput, id: number, query: ListQuery): Promise<WithIncludes<ArticleCollection>> {
    const collection = await this.ctx.store.collections.view(await knowledgeBaseScope(this.ctx, actor), id, query)
    if (collection === null) throw new NotFoundError('Collection')
    return collection
  }

  async create (actor: ActorInput, input: CollectionInput): Promise<ArticleCollection> {
    ensureCanManageArticles(actor)
    const errors: FieldErrors = {}
    const name = requiredPlainText(errors, 'name', input.name, COLLECTION_LIMITS.name)
    const visibility = checkVisibility(errors, 'visibility', input.visibility)
    throwIfInvalid(errors)
    return await this.ctx.store.transaction(async (tx) => {
      await checkCategory(tx, 'category_id', input.category_id)
      return await tx.collections.create({ category_id: input.category_id, name, visibility, order: await tx.collections.nextOrder() })
    })
  }

  /** Partial update; a new category takes the collection's articles with it. */
  async update (actor: ActorInput, id: number, patch: CollectionPatch): Promise<ArticleCollection> {
    ensureCanManageArticles(actor)
    const errors: FieldErrors = {}
    const name = patch.name === undefined ? undefined : requiredPlainText(errors, 'name', patch.name, COLLECTION_LIMITS.name)
    const visibility = patch.visibility === undefined ? undefined : checkVisibility(errors, 'visibility', patch.visibility)
    throwIfInvalid(errors)
    return await this.ctx.store.transaction(async (tx) => {
      const current = await tx.collections.findById(id)
      if (current === null) throw new NotFoundError('Collection')
      if (patch.category_id !== undefined && patch.category_id !== current.category_id) {
        await checkCategory(tx, 'category_id', patch.category_id)
        await tx.collections.setCategory([id], patch.category_id)
      }
      const updated = await tx.collections.update(id, { ...(name !== undefined ? { name } : {}), ...(visibility !== undefined ? { visibility } : {}) })
      if (updated === null) throw new NotFoundError('Collection')
      return updated
    })
  }

  /** Deletes the collection and its articles. */
  async delete (actor: ActorInput, id: number): Promise<void> {
    ensureCanManageArticles(actor)
    if (!await this.ctx.store.collections.delete(id)) throw new NotFoundError('Collection')
  }

  /** `order`: a plain list of ids (positions 1, 2, 3...) or a map position -> id; 422 on `order.N` for unknown ids. */
  async order (actor: ActorInput, order: number[] | Record<string, number>): Promise<void> {
    ensureCanManageArticles(actor)
    const positions = positionsFromOrder(order)
    await this.ctx.store.transaction(async (tx) => {
      const existing = await tx.collections.existingIds([...positions.keys()])
      throwIfInvalid(unknownOrderErrors(order, existing, invalidCollection))
      await tx.collections.setOrder(positions)
    })
  }

  async setVisibility (actor: ActorInput, ids: number[], visibility: number): Promise<void> {
    ensureCanManageArticles(actor)
    const errors: FieldErrors = {}
    const level = checkVisibility(errors, 'visibility', visibility)
    throwIfInvalid(errors)
    await this.ctx.store.transaction(async (tx) => {
      await tx.collections.setVisibility(await checkCollectionIds(tx, ids), level)
    })
  }

  /** Moves collections (with their articles) to another category. */
  async setCategory (actor: ActorInput, ids: number[], categoryId: number): Promise<void> {
    ensureCanManageArticles(actor)
    await this.ctx.store.transaction(async (tx) => {
      const existing = await tx.collections.existingIds(distinct(ids))
      const errors = unknownIdErrors('collections', ids, existing, invalidCollection)
      if ((await tx.categories.existingIds([categoryId])).length === 0) errors.category = ['The selected category is invalid.']
      throwIfInvalid(errors)
      await tx.collections.setCategory(distinct(ids), categoryId)
    })
  }
}
