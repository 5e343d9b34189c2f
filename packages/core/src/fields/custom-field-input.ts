import type { FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { optionalPlainText, optionalText, requiredPlainText, textLength } from '../text-input.js'
import type { NewCustomField } from './custom-field-store.js'
import {
  FIELD_LIMITS, isCustomFieldType, type CustomField, type CustomFieldInput, type CustomFieldPatch, type CustomFieldType
} from './custom-field.js'

/** A select-box needs at least one option; each is non-blank, unique and short enough. */
function checkOptions (errors: FieldErrors, type: CustomFieldType, options: string[] | undefined): string[] {
  if (type !== 'select-box') return []
  if (options === undefined || options.length === 0) {
    errors.options = ['The options field is required when type is select-box.']
    return []
  }
  if (options.length > FIELD_LIMITS.options) {
    errors.options = [`The options may not have more than ${FIELD_LIMITS.options} items.`]
    return []
  }
  const seen = new Set<string>()
  return options.map((raw, index) => {
    const option = raw.trim()
    const key = `options.${index}`
    if (option === '') errors[key] = ['The option may not be blank.']
    else if (textLength(option) > FIELD_LIMITS.option) errors[key] = [`The option may not be greater than ${FIELD_LIMITS.option} characters.`]
    else if (seen.has(option)) errors[key] = ['The option is listed twice.']
    seen.add(option)
    return option
  })
}

function checkType (errors: FieldErrors, type: string): CustomFieldType {
  if (isCustomFieldType(type)) return type
  errors.type = ['The selected type is invalid.']
  return 'text'
}

/** The stored values of a new field, or a ValidationError naming every bad input. */
export function newCustomField (input: CustomFieldInput): NewCustomField {
  const errors: FieldErrors = {}
  const type = checkType(errors, input.type)
  const field: NewCustomField = {
    type,
    title: requiredPlainText(errors, 'title', input.title, FIELD_LIMITS.title),
    placeholder: optionalPlainText(errors, 'placeholder', input.placeholder, FIELD_LIMITS.placeholder),
    description: optionalText(errors, 'description', input.description, FIELD_LIMITS.description),
    required: input.required ?? false,
    meta: checkOptions(errors, type, input.options)
  }
  throwIfInvalid(errors)
  return field
}

/**
 * The stored values after a partial update. A select-box keeps its options
 * unless new ones are sent; a field turned into a select-box must send them.
 */
export function changedCustomField (current: CustomField, patch: CustomFieldPatch): NewCustomField {
  const type = patch.type ?? current.type
  const keptOptions = current.type === 'select-box' ? current.meta : undefined
  return newCustomField({
    type,
    title: patch.title ?? current.title,
    placeholder: patch.placeholder === undefined ? current.placeholder : patch.placeholder,
    description: patch.description === undefined ? current.description : patch.description,
    required: patch.required ?? current.required,
    options: patch.options ?? keptOptions
  })
}
