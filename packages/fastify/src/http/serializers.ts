import fastJson from 'fast-json-stringify'
import type { FastifyInstance } from 'fastify'

/**
 * Response serializers, compiled once per schema object: every route shares
 * the same error bodies (`errorResponses`), so a hundred routes compile each
 * of them once instead of a hundred times (most of the server's start-up).
 */
export function installSerialization (app: FastifyInstance): void {
  const compiled = new WeakMap<object, (data: unknown) => string>()
  app.setSerializerCompiler(({ schema }) => {
    let serialize = compiled.get(schema)
    if (serialize === undefined) {
      serialize = fastJson(schema as Parameters<typeof fastJson>[0]) as (data: unknown) => string
      compiled.set(schema, serialize)
    }
    return serialize
  })
}
