import { Type, type Static } from '@sinclair/typebox'
import { ARTICLE_LIMITS, type Article as ArticleEntity, type ActorInput, type AvatarResolver } from '@helpdesk/core'
import { DateTime, EmbeddedPerson, Nullable } from '../common.js'
import { CollectionSummary } from '../article-collections/collection-schemas.js'
import { Category } from '../categories/category-schemas.js'
import { presentEmbeddedPerson } from '../people.js'

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })

export const Tag = Type.Object({ id: Type.Integer(), name: Type.String() })

export const Article = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  slug: Type.String({ description: 'Unique; lowercase ASCII letters, digits and single hyphens.' }),
  body: Type.String({ description: 'Sanitised HTML.' }),
  order: Type.Integer({ description: 'Position within its collection.' }),
  author_id: Nullable(Type.Integer()),
  category_id: Type.Integer(),
  collection_id: Type.Integer(),
  published_at: Type.Union([DateTime, Type.Null()], { description: 'Null while the article is a draft.' }),
  created_at: DateTime,
  updated_at: DateTime,
  author: Type.Optional(Nullable(EmbeddedPerson)),
  category: Type.Optional(Nullable(Category)),
  collection: Type.Optional(Nullable(CollectionSummary)),
  tags: Type.Optional(Type.Array(Tag, { description: 'Include `tags`, by name.' }))
}, { description: 'A knowledge-base article.' })

const Status = Type.Union([Type.Literal('draft'), Type.Literal('published')], {
  description: '`published` sets `published_at` (kept while it stays published); `draft` clears it.'
})

const writable = {
  title: Type.String({ minLength: 1, maxLength: ARTICLE_LIMITS.title }),
  body: Type.String({ minLength: 1, maxLength: ARTICLE_LIMITS.body, description: 'HTML (sanitised).' }),
  category: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'The collection\'s category (may be omitted on update).' }),
  collection: Id,
  status: Status,
  tags: Type.Optional(Type.Array(Type.String({ maxLength: ARTICLE_LIMITS.tag }), {
    maxItems: ARTICLE_LIMITS.tags,
    description: 'Tag names; unknown names create tags. On update, replaces the article\'s tags.'
  })),
  slug: Type.Optional(Type.String({ maxLength: 255, description: 'An explicit slug (normalised); by default made from the title.' }))
}

export const ArticleCreate = Type.Object(writable, {
  examples: [{ title: 'Resetting your password', body: '<p>Open <b>Settings</b>, then <b>Security</b>.</p>', category: 1, collection: 1, status: 'published', tags: ['account'] }]
})
export const ArticleUpdate = Type.Object({
  ...Type.Partial(Type.Object(writable)).properties,
  regenerate_slug: Type.Optional(Type.Boolean({ description: 'Make a new slug from the (new) title. The slug is kept otherwise.' }))
}, { description: 'Absent keys keep their value.', examples: [{ title: 'Resetting a forgotten password', regenerate_slug: true }, { status: 'draft' }] })

export function presentArticle (article: ArticleEntity, avatar: AvatarResolver, viewer: ActorInput): Static<typeof Article> {
  const included = article as ArticleEntity & Record<string, unknown>
  return {
    ...(article as Static<typeof Article>),
    ...('author' in included ? { author: presentEmbeddedPerson(included.author, avatar, viewer) } : {})
  }
}

