import type { FastifySchemaValidationError } from 'fastify/types/schema.js'

/** ajv errors -> `{ field: [sentence] }` keyed by dotted path (CONTRACT §6). */
export function fieldErrors (errors: FastifySchemaValidationError[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const error of withoutUnionNoise(errors)) {
    const params = error.params as Record<string, unknown>
    let path = error.instancePath.replace(/^\//, '').replace(/\//g, '.').replace(/~1/g, '/').replace(/~0/g, '~')
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      path = path === '' ? params.missingProperty : `${path}.${params.missingProperty}`
    } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      path = path === '' ? params.additionalProperty : `${path}.${params.additionalProperty}`
    }
    if (path === '') path = 'body'
    const sentence = describe(path, error.keyword, params)
    const list = out[path] ?? (out[path] = [])
    if (!list.includes(sentence)) list.push(sentence)
  }
  return out
}

/**
 * A failed union (`anyOf`, e.g. a nullable field) reports every branch. A branch
 * the value does not even have the type of is noise when another branch went
 * deeper (`name` too long, not "must be null"); when every branch missed on
 * type, one type error naming all of them replaces the lot. Inner unions first.
 */
function withoutUnionNoise (errors: FastifySchemaValidationError[]): FastifySchemaValidationError[] {
  let remaining = [...errors]
  const unions = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => b.schemaPath.length - a.schemaPath.length)
  for (const union of unions) {
    const branches = remaining.filter((e) => e.schemaPath.startsWith(`${union.schemaPath}/`))
    const typeMisses = branches.filter((e) => e.keyword === 'type' && e.instancePath === union.instancePath)
    if (branches.length === 0) continue
    const drop = new Set<FastifySchemaValidationError>([union, ...typeMisses])
    remaining = remaining.filter((e) => !drop.has(e))
    if (typeMisses.length === branches.length) {
      const types = typeMisses.flatMap((e) => [(e.params as { type?: unknown }).type].flat()).map(String)
      remaining.push({ ...union, keyword: 'type', params: { type: [...new Set(types)] } })
    }
  }
  return remaining
}

function label (path: string): string {
  const lastPart = path.split('.').filter((p) => !/^\d+$/.test(p)).at(-1) ?? path
  return lastPart.replace(/_/g, ' ')
}

function describe (path: string, keyword: string, params: Record<string, unknown>): string {
  const name = label(path)
  switch (keyword) {
    case 'required': return `The ${name} field is required.`
    case 'maxLength': return `The ${name} may not be greater than ${String(params.limit)} characters.`
    case 'minLength': return Number(params.limit) === 1 ? `The ${name} field is required.` : `The ${name} must be at least ${String(params.limit)} characters.`
    case 'minimum': return `The ${name} must be at least ${String(params.limit)}.`
    case 'maximum': return `The ${name} may not be greater than ${String(params.limit)}.`
    case 'exclusiveMinimum': return `The ${name} must be greater than ${String(params.limit)}.`
    case 'minItems': return `The ${name} must have at least ${String(params.limit)} item(s).`
    case 'maxItems': return `The ${name} may not have more than ${String(params.limit)} items.`
    case 'format': return params.format === 'email' ? `The ${name} must be a valid email address.` : `The ${name} must be a valid ${String(params.format)}.`
    case 'type': return `The ${name} must be ${[params.type].flat().map((t) => article(String(t))).join(' or ')}.`
    case 'enum': case 'const': case 'anyOf': case 'oneOf': return `The selected ${name} is invalid.`
    case 'additionalProperties': return `The ${name} field is not allowed.`
    case 'pattern': return `The ${name} format is invalid.`
    default: return `The ${name} is invalid.`
  }
}

function article (type: string): string {
  if (type === 'integer') return 'an integer'
  if (type === 'array') return 'an array'
  if (type === 'object') return 'an object'
  if (type === 'boolean') return 'true or false'
  if (type === 'null') return 'null'
  if (type.includes(',')) return `one of: ${type}`
  return `a ${type}`
}
