import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import { GENERATED_DIR, GENERATED_FILES, precompiledSerializer, precompiledStats, precompiledValidator, schemaKey } from '../src/http/precompiled.js'
import { installSerialization } from '../src/http/serializers.js'
import { installValidation } from '../src/http/validator.js'
import { generatePrecompiled } from '../scripts/precompile-schemas.js'
import { buildApp, testDialects } from './helpers.js'

// The schemas do not depend on the database: one dialect is enough.
const dialect = testDialects()[0] ?? 'sqlite'

describe('validators and serializers generated at build time (`pnpm build`)', () => {
  it('serve every schema the plugin compiles, whatever the prefix and options: none is compiled at start-up', async (t) => {
    const before = precompiledStats.hits
    await buildApp(t, dialect)
    await buildApp(t, dialect, { prefix: '/helpdesk/api', rateLimit: { max: 5 }, registration: false })
    assert.ok(precompiledStats.hits - before > 200, `only ${precompiledStats.hits - before} schemas were served by generated code`)
    assert.deepEqual([...precompiledStats.misses.values()], [],
      'schemas compiled at start-up instead of generated: run `pnpm build` (scripts/precompile-schemas.ts) after changing a route schema')
  })

  it('are the files the generator makes from the current sources and dependencies (no stale file)', async () => {
    const generated = await generatePrecompiled()
    // fast-json-stringify names each build's Ajv schemas with a counter global to the process
    // (`__fjs_root_<n>`, `__fjs_merged_<n>`, private to each serializer): how many ran before does not matter.
    const comparable = (code: string): string => code.replace(/__fjs_([a-z]+)_\d+/g, '__fjs_$1_n')
    for (const [name, file] of Object.entries(GENERATED_FILES)) {
      const onDisk = readFileSync(new URL(file, GENERATED_DIR), 'utf8')
      assert.ok(comparable(onDisk) === comparable(generated[name as keyof typeof GENERATED_FILES]), `dist/precompiled/${file} is stale: run \`pnpm build\``)
    }
  })

  it('are filed under the schema and its options: a schema that differs is compiled at registration and behaves as declared', async (t) => {
    const body = Type.Object({ subject: Type.String({ minLength: 3 }), count: Type.Integer({ default: 1 }) })
    const query = Type.Object({ page: Type.Integer({ minimum: 1 }) })
    const response = Type.Object({ id: Type.Integer(), name: Type.String() })
    const missesBefore = precompiledStats.misses.size
    assert.equal(precompiledValidator('body', body), null)
    assert.equal(precompiledSerializer(response), null)
    assert.notEqual(schemaKey('body', body), schemaKey('query', body), 'bodies are not coerced, query strings are: they are compiled apart')

    const app = Fastify({ logger: false })
    t.after(async () => { await app.close() })
    await app.register(async (child) => {
      installValidation(child)
      installSerialization(child)
      child.post('/things', { schema: { body, querystring: query, response: { 200: response } } },
        async (request) => ({ id: 7, name: (request.body as { subject: string }).subject, secret: 'not in the schema' }))
    })
    await app.ready()
    assert.ok(precompiledStats.misses.size === missesBefore + 3, 'the new schemas were compiled at registration')

    const ok = await app.inject({ method: 'POST', url: '/things?page=2', payload: { subject: 'Printer' } })
    assert.equal(ok.statusCode, 200)
    assert.equal(ok.body, '{"id":7,"name":"Printer"}')
    const bad = await app.inject({ method: 'POST', url: '/things?page=0', payload: { subject: 'x' } })
    assert.equal(bad.statusCode, 400)
  })
})
