import fc from 'fast-check'

/** The parts of JSON Schema (as TypeBox writes it) the generators read. */
export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  const?: unknown
  enum?: unknown[]
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  patternProperties?: Record<string, JsonSchema>
  additionalProperties?: boolean | JsonSchema
}

/** Strings that have broken parsers, query builders, search syntaxes and templates before. */
export const HOSTILE_STRINGS = [
  '\' OR \'1\'=\'1', '\'; DROP TABLE users; --', '1 UNION SELECT password_hash FROM users', '") OR 1=1 --', '1; SELECT pg_sleep(10)',
  '%', '_', '%_%', '\\', '\\\'', '\'\'', '"', '`', ';', '--', '/*', '*/',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', 'javascript:alert(1)', '"><svg onload=alert(1)>',
  '{{constructor.constructor("alert(1)")()}}', '{{ ticket.id }}', '${7*7}', '#{7*7}',
  '\u0000', 'a\u0000b', '\u0007', '\r\n', '\t', '\uD800', '\uDFFF', '\uFEFF', '\u202E', '\u200B',
  '𝕳𝖊𝖑𝖑𝖔', '👩‍👩‍👧‍👦', 'e\u0301', 'İ', 'ß', 'ﬁ', '日本語', 'العربية',
  '../../etc/passwd', '..\\..\\windows', '%2e%2e%2f', '%00', '%', '/', '.',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  'NaN', 'Infinity', '-Infinity', '-1', '0', '-0', '1e309', '0x10', '1.5', ' 1 ', '+1', '01', '',
  'null', 'true', 'false', '[]', '{}', '[object Object]',
  '"*"', 'a AND b OR NOT c', '*', 'NEAR(a b)', 'a:* & b', '!a', '(', ')', 'a | b', '\'a\'', '^', '$', '~'
]

const edgeNumbers = [
  0, -0, -1, 1, 1.5, -1.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 32, 2 ** 53, Number.MAX_SAFE_INTEGER + 2,
  -(2 ** 53), 1e308, -1e308, Number.MIN_VALUE, 1e-7
]

/** Long strings: at and past the limits, and a body-sized one. */
const longStrings = fc.constantFrom('x'.repeat(251), 'x'.repeat(1001), 'é'.repeat(5000), '𝕏'.repeat(20_000), 'a '.repeat(150_000))

const printable = fc.string({ unit: 'grapheme', maxLength: 40 })

/** Any value of any type that a client could send where a schema expects something else. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 6 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 2 },
  { arbitrary: printable, weight: 1 },
  { arbitrary: longStrings, weight: 1 },
  { arbitrary: fc.constantFrom<unknown>(null, true, false, ...edgeNumbers), weight: 4 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  { arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), weight: 1 }
)

function bounded (min: number | undefined, max: number | undefined, fallback: [number, number]): { min: number, max: number } {
  return { min: min ?? fallback[0], max: max ?? fallback[1] }
}

function stringFor (schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'email') return fc.emailAddress()
  if (schema.format === 'uuid') return fc.uuid()
  if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern))
  const minLength = schema.minLength ?? 0
  const maxLength = schema.maxLength ?? 2000
  const edges = [minLength > 0 ? 'x'.repeat(minLength) : '', 'x'.repeat(Math.min(maxLength, 100_000))]
  return fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) }), weight: 4 },
    { arbitrary: fc.constantFrom(...edges), weight: 1 },
    { arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length >= minLength && s.length <= maxLength)), weight: 3 }
  )
}

function typeOf (schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type
}

/**
 * Values for `schema`. With `mutate`, any node may instead be a hostile value
 * of another type, required keys may go missing and unknown keys appear, so
 * one generator covers requests that pass validation (and reach the service
 * with edge cases) and requests that fail it anywhere.
 */
export function valueFor (schema: JsonSchema, mutate: boolean, depth = 0): fc.Arbitrary<unknown> {
  const own = shapeFor(schema, mutate, depth)
  return mutate ? fc.oneof({ arbitrary: own, weight: 8 }, { arbitrary: hostileValue, weight: 1 }) : own
}

function shapeFor (schema: JsonSchema, mutate: boolean, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum)
  const branches = schema.anyOf ?? schema.oneOf
  if (branches !== undefined) return fc.oneof(...branches.map((branch) => valueFor(branch, mutate, depth + 1)))
  switch (typeOf(schema)) {
    case 'string': return stringFor(schema)
    case 'integer': {
      const { min, max } = bounded(schema.minimum, schema.maximum, [-(2 ** 31), 2 ** 31 - 1])
      // Small ids hit the rows that exist; the edges test the bounds.
      const small = Math.max(min, 1) <= Math.min(max, 40) ? [fc.integer({ min: Math.max(min, 1), max: Math.min(max, 40) })] : []
      return fc.oneof(...small, fc.integer({ min, max }), fc.constantFrom(min, max))
    }
    case 'number': return fc.double({ noNaN: true, noDefaultInfinity: true, ...bounded(schema.minimum, schema.maximum, [-1e12, 1e12]) })
    case 'boolean': return fc.boolean()
    case 'null': return fc.constant(null)
    case 'array': {
      const items = schema.items ?? {}
      const maxLength = Math.min(schema.maxItems ?? 6, 6)
      const minLength = Math.min(schema.minItems ?? 0, maxLength)
      const list = fc.array(valueFor(items, mutate, depth + 1), { minLength, maxLength })
      return mutate ? fc.oneof(list, fc.array(valueFor(items, false, depth + 1), { minLength: (schema.maxItems ?? 200) + 1, maxLength: (schema.maxItems ?? 200) + 1 })) : list
    }
    case 'object': return objectFor(schema, mutate, depth)
    default: return depth > 2 ? fc.jsonValue({ maxDepth: 1 }) : fc.jsonValue({ maxDepth: 3 })
  }
}

function objectFor (schema: JsonSchema, mutate: boolean, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {}
  const record = schema.patternProperties !== undefined
    ? fc.dictionary(fc.oneof(fc.integer({ min: 1, max: 40 }).map(String), fc.string({ maxLength: 12 })), valueFor(Object.values(schema.patternProperties)[0] ?? {}, mutate, depth + 1), { maxKeys: 4 })
    : fc.constant({})
  const keys = Object.keys(properties)
  const model = Object.fromEntries(keys.map((key) => [key, valueFor(properties[key] ?? {}, mutate, depth + 1)]))
  const required = (schema.required ?? []).filter((key) => keys.includes(key))
  const known = keys.length === 0
    ? fc.constant({})
    : mutate
      // Mostly with the required keys (so requests get past validation), sometimes without.
      ? fc.oneof({ arbitrary: fc.record(model, { requiredKeys: required }), weight: 3 }, { arbitrary: fc.record(model, { requiredKeys: [] }), weight: 1 })
      : fc.record(model, { requiredKeys: required })
  const extra = mutate
    ? fc.option(fc.dictionary(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', 'user_id', 'role', 'admin', 'created_at'), fc.string({ maxLength: 10 })), hostileValue, { maxKeys: 2 }), { freq: 3, nil: {} })
    : fc.constant({})
  return fc.tuple(record, known, extra).map(([a, b, c]) => ({ ...a, ...c, ...(b as object) }))
}
