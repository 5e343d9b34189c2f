import type { Ajv, ValidateFunction } from 'ajv'
import type { FastifyInstance } from 'fastify'
import { createAjv, precompiledValidator } from './precompiled.js'

/**
 * The plugin's own validators (inside its encapsulated context only), with
 * `ajvOptions` (precompiled.ts): all errors at once, bodies not coerced, query
 * strings and path params coerced. The build generated most of them; a schema
 * it did not is compiled here, at registration, like the generated ones are
 * loaded (never on a first request).
 */
export function installValidation (app: FastifyInstance): void {
  let body: Ajv | undefined
  let query: Ajv | undefined
  const compile = (kind: 'body' | 'query', schema: object): ValidateFunction => {
    const generated = precompiledValidator(kind, schema)
    if (generated !== null) return generated
    const ajv = kind === 'body' ? (body ??= createAjv('body')) : (query ??= createAjv('query'))
    return ajv.compile(schema)
  }
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return compile('query', schema)
    const validate = compile('body', schema)
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
