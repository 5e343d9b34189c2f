import { Type, type Static } from '@sinclair/typebox'
import { COLLECTION_LIMITS, type ArticleCollection } from '@helpdesk/core'
import { DateTime, Nullable } from '../common.js'
import { Category } from '../categories/category-schemas.js'

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })
const Visibility = Type.Integer({
  minimum: 1,
  maximum: 4,
  description: '1 Public, 2 Logged in users, 3 Valid marketplace purchase code, 4 Valid marketplace support.'
})

const collectionFields = {
  id: Type.Integer(),
  category_id: Type.Integer(),
  name: Type.String(),
  order: Type.Integer({ description: 'Sort position.' }),
  visibility: Visibility,
  created_at: DateTime,
  updated_at: DateTime
}

/** A collection as embedded in an article (include `collection`). */
export const CollectionSummary = Type.Object(collectionFields)

export const Collection = Type.Object({
  ...collectionFields,
  articles_count: Type.Optional(Type.Integer({ description: 'Include `articles-count`: articles the caller may read.' })),
  category: Type.Optional(Nullable(Category))
}, { description: 'A knowledge-base article collection.' })

const writable = {
  category_id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'An existing category.' }),
  name: Type.String({ minLength: 1, maxLength: COLLECTION_LIMITS.name }),
  visibility: Visibility
}

export const CollectionCreate = Type.Object(writable, { examples: [{ category_id: 1, name: 'Getting started', visibility: 1 }] })
export const CollectionUpdate = Type.Partial(Type.Object(writable), {
  description: 'Absent keys keep their value. A new `category_id` moves the collection\'s articles too.',
  examples: [{ name: 'First steps' }]
})

const CollectionIds = Type.Array(Id, { minItems: 1, maxItems: 1000 })

export const VisibilityBody = Type.Object({ collections: CollectionIds, visibility: Visibility }, { examples: [{ collections: [1, 2], visibility: 2 }] })
export const CategoryBody = Type.Object({
  collections: CollectionIds,
  category: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'An existing category; the collections\' articles move with them.' })
}, { examples: [{ collections: [1, 2], category: 3 }] })

export function presentCollection (collection: ArticleCollection): Static<typeof Collection> {
  return collection as Static<typeof Collection>
}
