import type { FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { requiredHtml, requiredPlainText, textLength } from '../text-input.js'
import { ARTICLE_LIMITS, ARTICLE_STATUSES, type ArticlePatch } from './article.js'
import { slugOf } from './slug.js'

/** The checked, normalised text of an article input; absent keys stay absent. */
export interface ArticleText {
  title?: string
  /** Sanitised HTML. */
  body?: string
  tags?: string[]
  /** An explicit slug, normalised. */
  slug?: string
}

/** Tag names trimmed, inner whitespace collapsed, repeats dropped; 422 on `tags.N` for blank or long ones. */
function tagNames (errors: FieldErrors, names: string[]): string[] {
  if (names.length > ARTICLE_LIMITS.tags) {
    errors.tags = [`The tags may not have more than ${ARTICLE_LIMITS.tags} items.`]
    return []
  }
  const out: string[] = []
  names.forEach((raw, index) => {
    const name = raw.trim().replace(/\s+/g, ' ')
    if (name === '') errors[`tags.${index}`] = ['The tag may not be blank.']
    else if (textLength(name) > ARTICLE_LIMITS.tag) errors[`tags.${index}`] = [`The tag may not be greater than ${ARTICLE_LIMITS.tag} characters.`]
    else if (!out.includes(name)) out.push(name)
  })
  return out
}

function explicitSlug (errors: FieldErrors, value: string): string {
  const slug = slugOf(value)
  if (slug === '') errors.slug = ['The slug must contain letters or digits.']
  return slug
}

/** Checks an article's create or update input (all problems at once, 422). */
export function articleText (input: ArticlePatch): ArticleText {
  const errors: FieldErrors = {}
  const text: ArticleText = {}
  if (input.title !== undefined) text.title = requiredPlainText(errors, 'title', input.title, ARTICLE_LIMITS.title)
  if (input.body !== undefined) text.body = requiredHtml(errors, 'body', input.body, ARTICLE_LIMITS.body)
  if (input.tags !== undefined) text.tags = tagNames(errors, input.tags)
  if (input.slug !== undefined) text.slug = explicitSlug(errors, input.slug)
  if (input.status !== undefined && !(ARTICLE_STATUSES as readonly string[]).includes(input.status)) {
    errors.status = ['The status must be draft or published.']
  }
  throwIfInvalid(errors)
  return text
}
