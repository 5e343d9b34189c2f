import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance } from 'fastify'

// ajv-formats ships CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv

/**
 * The plugin's own validators (inside its encapsulated context only):
 * all errors at once so each bad field is reported; bodies are not coerced,
 * query strings and path params are (they arrive as strings).
 */
export function installValidation (app: FastifyInstance): void {
  const common = { allErrors: true, removeAdditional: true, useDefaults: true, strict: false } as const
  const body = addFormats(new Ajv({ ...common, coerceTypes: false }))
  const query = addFormats(new Ajv({ ...common, coerceTypes: 'array' }))
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return query.compile(schema)
    const validate = body.compile(schema)
    if ((schema as { type?: unknown }).type !== 'object') return validate
    // No body at all is checked as an empty object, so the error names each required field
    // (`responses`, `order`...) rather than the body as a whole.
    const checkBody = (data: unknown): boolean | { value: unknown } => {
      const value = data ?? {}
      const valid = validate(value)
      checkBody.errors = validate.errors
      return valid && data !== value ? { value } : valid
    }
    checkBody.errors = null as typeof validate.errors
    return checkBody
  })
}
