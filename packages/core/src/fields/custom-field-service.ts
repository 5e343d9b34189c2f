import { audit } from '../audit/audit-log.js'
import type { ServiceContext } from '../context.js'
import { NotFoundError } from '../errors.js'
import { distinct, throwIfInvalid, unknownIdErrors } from '../id-lists.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Store, WithIncludes } from '../store.js'
import { ensureAdmin } from '../users/user-policy.js'
import type { ActorInput } from '../users/actor.js'
import { changedCustomField, newCustomField } from './custom-field-input.js'
import type { CustomField, CustomFieldInput, CustomFieldPatch } from './custom-field.js'

/** Custom ticket-form fields and their assignment to categories. Administrators only. */
export class CustomFieldService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (actor: ActorInput, query: ListQuery): Promise<Page<WithIncludes<CustomField>>> {
    ensureAdmin(actor)
    return await this.ctx.store.customFields.list(query)
  }

  async view (actor: ActorInput, id: number, query: ListQuery): Promise<WithIncludes<CustomField>> {
    ensureAdmin(actor)
    const field = await this.ctx.store.customFields.view(id, query)
    if (field === null) throw new NotFoundError('Custom field')
    return field
  }

  async create (actor: ActorInput, input: CustomFieldInput): Promise<CustomField> {
    ensureAdmin(actor)
    const values = newCustomField(input)
    return await this.ctx.store.transaction(async (tx) => {
      const categories = await checkedCategories(tx, input.categories)
      const field = await tx.customFields.create(values)
      if (categories !== undefined) await tx.customFields.setCategories(field.id, categories)
      await audit(tx, actor, { action: 'custom_field.created', subject_type: 'custom_field', subject_id: field.id, after: { ...field, ...(categories !== undefined ? { categories } : {}) } })
      return field
    })
  }

  async update (actor: ActorInput, id: number, patch: CustomFieldPatch): Promise<CustomField> {
    ensureAdmin(actor)
    return await this.ctx.store.transaction(async (tx) => {
      const current = await tx.customFields.findById(id)
      if (current === null) throw new NotFoundError('Custom field')
      const values = changedCustomField(current, patch)
      const categories = await checkedCategories(tx, patch.categories)
      const updated = await tx.customFields.update(id, values)
      if (updated === null) throw new NotFoundError('Custom field')
      if (categories !== undefined) await tx.customFields.setCategories(id, categories)
      await audit(tx, actor, { action: 'custom_field.updated', subject_type: 'custom_field', subject_id: id, before: current, after: { ...updated, ...(categories !== undefined ? { categories } : {}) } })
      return updated
    })
  }

  async delete (actor: ActorInput, id: number): Promise<void> {
    ensureAdmin(actor)
    await this.ctx.store.transaction(async (tx) => {
      const before = await tx.customFields.findById(id)
      if (before === null || !await tx.customFields.delete(id)) throw new NotFoundError('Custom field')
      await audit(tx, actor, { action: 'custom_field.deleted', subject_type: 'custom_field', subject_id: id, before })
    })
  }
}

/** The category ids to assign (undefined: leave as is); 422 on `categories.N` for unknown ones. */
async function checkedCategories (store: Store, ids: number[] | undefined): Promise<number[] | undefined> {
  if (ids === undefined) return undefined
  const existing = await store.categories.existingIds(distinct(ids))
  throwIfInvalid(unknownIdErrors('categories', ids, existing, 'The selected category is invalid.'))
  return distinct(ids)
}
