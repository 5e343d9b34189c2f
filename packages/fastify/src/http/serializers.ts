import type { FastifyInstance } from 'fastify'
import { compileSerializer, precompiledSerializer } from './precompiled.js'

/**
 * Response serializers, one per schema object: every route shares the same
 * error bodies (`errorResponses`), so a hundred routes get each of them once
 * instead of a hundred times. The build generated most of them
 * (precompiled.ts); a schema it did not is compiled here, at registration.
 */
export function installSerialization (app: FastifyInstance): void {
  const compiled = new WeakMap<object, (data: unknown) => string>()
  app.setSerializerCompiler(({ schema }) => {
    let serialize = compiled.get(schema)
    if (serialize === undefined) {
      serialize = precompiledSerializer(schema) ?? compileSerializer(schema)
      compiled.set(schema, serialize)
    }
    return serialize
  })
}
