import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { Ajv, Options as AjvOptions, ValidateFunction } from 'ajv'

/**
 * Validators and response serializers generated at build time
 * (`scripts/precompile-schemas.ts`, run by `pnpm build`): Ajv's standalone
 * code and fast-json-stringify's standalone mode, so a start-up loads
 * ready-made functions instead of compiling a hundred routes' schemas (a
 * fifth of a cold start's CPU). Each generated function is filed under a hash
 * of the schema it was generated from and what it was compiled for, so a
 * schema that differs from the generated one (changed since the build, or
 * changed by a host) is never served by stale code: it is compiled at
 * registration as before. Both paths compile at registration, so the first
 * requests never pay for a compile.
 */

/** What a schema is compiled for; each has its own compiler options, hence its own generated functions. */
export type SchemaKind = 'body' | 'query' | 'response'

const require = createRequire(import.meta.url)

/**
 * `dist/precompiled/` of this package: `../../dist/` is the same folder from
 * `dist/http/` (the built package) and `src/http/` (the tests, run on the
 * sources), so both use the generated code of the last build.
 */
export const GENERATED_DIR = new URL('../../dist/precompiled/', import.meta.url)
export const GENERATED_FILES = { validators: 'validators.cjs', serializers: 'serializers.cjs' } as const

/**
 * Ajv's options for each kind. The build generates with the same ones
 * (plus `code.source`), and the hash covers them, so changing them here
 * regenerates rather than serves code built with the old ones.
 */
export function ajvOptions (kind: Exclude<SchemaKind, 'response'>): AjvOptions {
  // All errors at once so each bad field is reported; bodies are not coerced,
  // query strings and path params are (they arrive as strings).
  return { allErrors: true, removeAdditional: true, useDefaults: true, strict: false, coerceTypes: kind === 'body' ? false : 'array' }
}

/** fast-json-stringify's options (the generated serializers also embed the Ajv validators of `anyOf`/`oneOf`). */
export const serializerOptions = {} as const

const hashes = new WeakMap<object, string>()

/**
 * The name a schema's generated function is filed under. Memoized per schema
 * object, as Ajv and the serializer cache already assume a compiled schema is
 * not changed afterwards.
 */
export function schemaKey (kind: SchemaKind, schema: object): string {
  let hash = hashes.get(schema)
  if (hash === undefined) {
    hash = createHash('sha256').update(JSON.stringify(schema)).digest('base64url').slice(0, 32)
    hashes.set(schema, hash)
  }
  return `${kind}_${OPTIONS_HASH[kind]}_${hash}`
}

const OPTIONS_HASH: Record<SchemaKind, string> = {
  body: optionsHash(ajvOptions('body')),
  query: optionsHash(ajvOptions('query')),
  response: optionsHash(serializerOptions)
}

function optionsHash (options: object): string {
  return createHash('sha256').update(JSON.stringify(options)).digest('base64url').slice(0, 8)
}

type Serialize = (data: unknown) => string
interface Generated {
  validators: Record<string, ValidateFunction>
  /** Each builds its serializer when first asked (the module's top level stays cheap). */
  serializers: Record<string, () => Serialize>
}

let generated: Generated | undefined

function loadGenerated (): Generated {
  if (generated !== undefined) return generated
  const load = (file: string): Record<string, never> => {
    const path = fileURLToPath(new URL(file, GENERATED_DIR))
    // Not generated (a build without the step, or a copy of the sources): everything compiles at registration.
    return existsSync(path) ? require(path) as Record<string, never> : {}
  }
  generated = { validators: load(GENERATED_FILES.validators), serializers: load(GENERATED_FILES.serializers) }
  return generated
}

/** How many schemas were served by generated code and which were compiled instead (for the tests that keep the build step honest). */
export const precompiledStats = { hits: 0, misses: new Map<string, SchemaKind>() }

/** Set by the build step while it collects the plugin's schemas. */
let recorder: ((kind: SchemaKind, key: string, schema: object) => void) | undefined

/** Calls `record` with every schema the plugin compiles from now on, until the returned function is called. */
export function recordSchemas (record: (kind: SchemaKind, key: string, schema: object) => void): () => void {
  recorder = record
  return () => { recorder = undefined }
}

function lookup<T> (table: Record<string, T>, kind: SchemaKind, schema: object): T | undefined {
  const key = schemaKey(kind, schema)
  recorder?.(kind, key, schema)
  const found = Object.hasOwn(table, key) ? table[key] : undefined
  if (found !== undefined) precompiledStats.hits++
  else precompiledStats.misses.set(key, kind)
  return found
}

/** The generated validator of `schema`, or null when the build did not generate it. */
export function precompiledValidator (kind: Exclude<SchemaKind, 'response'>, schema: object): ValidateFunction | null {
  return lookup(loadGenerated().validators, kind, schema) ?? null
}

/** The generated serializer of `schema`, or null when the build did not generate it. */
export function precompiledSerializer (schema: object): Serialize | null {
  return lookup(loadGenerated().serializers, 'response', schema)?.() ?? null
}

/** A new Ajv for `kind`, loaded on first use: a start-up served by generated code never loads Ajv's compiler. */
export function createAjv (kind: Exclude<SchemaKind, 'response'>, extra: AjvOptions = {}): Ajv {
  const { Ajv: AjvClass } = require('ajv') as typeof import('ajv')
  const addFormats = (require('ajv-formats') as { default: (ajv: Ajv) => Ajv }).default
  return addFormats(new AjvClass({ ...ajvOptions(kind), ...extra }))
}

/** fast-json-stringify's compiler, loaded on first use. */
export function compileSerializer (schema: object): Serialize {
  const fastJson = require('fast-json-stringify') as typeof import('fast-json-stringify').default
  return fastJson(schema as Parameters<typeof fastJson>[0], serializerOptions) as Serialize
}
