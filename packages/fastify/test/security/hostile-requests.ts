import fc from 'fast-check'
import * as core from '@helpdesk/core'
import type { RegisteredRoute } from '../helpers.js'
import { HOSTILE_STRINGS, valueFor, type JsonSchema } from './schema-arbitraries.js'

export type Caller = 'anonymous' | 'customer' | 'agent' | 'admin' | 'forged'

/** Ids of rows that exist, so well-formed path ids often name something (integer ids, and uuid ones). */
export interface KnownIds {
  integers: number[]
  strings: string[]
}

/** One generated request, ready for `inject`. */
export interface FuzzRequest {
  method: string
  url: string
  caller: Caller
  /** The Authorization header for a `forged` caller. */
  forgedAuthorization?: string
  headers: Record<string, string>
  payload?: string | Buffer
}

/** Names the list declarations use, so generated queries mix valid and invalid ones. */
function listVocabulary (): { includes: string[], sorts: string[], filters: string[] } {
  const specs = (Object.values(core) as unknown[]).filter((value): value is core.ListSpec =>
    typeof value === 'object' && value !== null && 'includes' in value && 'sorts' in value && 'exactFilters' in value)
  const all = (pick: (spec: core.ListSpec) => readonly string[]): string[] => [...new Set(specs.flatMap(pick))]
  return {
    includes: all((s) => s.includes),
    sorts: all((s) => s.sorts),
    filters: all((s) => [...s.partialFilters, ...s.exactFilters])
  }
}

const vocabulary = listVocabulary()

const queryText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 1 },
  { arbitrary: fc.constantFrom('x'.repeat(3000), '1,'.repeat(2000) + '1'), weight: 1 },
  { arbitrary: fc.integer({ min: -5, max: 40 }).map(String), weight: 2 },
  { arbitrary: fc.array(fc.integer({ min: -2, max: 2 ** 33 }), { maxLength: 4 }).map((ids) => ids.join(',')), weight: 2 }
)

/** `[key, value]` pairs of a query string: the schema's keys and list names, unknown and duplicated keys. */
function queryPairs (schema: JsonSchema | undefined): fc.Arbitrary<Array<[string, string]>> {
  const keys = Object.keys(schema?.properties ?? {})
  const known: fc.Arbitrary<[string, string]> = fc.oneof(
    fc.tuple(fc.constant('include'), fc.subarray(vocabulary.includes, { maxLength: 4 }).map((names) => names.join(','))),
    fc.tuple(fc.constant('sort'), fc.subarray(vocabulary.sorts, { maxLength: 3 }).chain((names) =>
      fc.array(fc.boolean(), { minLength: names.length, maxLength: names.length }).map((desc) => names.map((n, i) => `${desc[i] === true ? '-' : ''}${n}`).join(',')))),
    fc.tuple(fc.constantFrom('page', 'per_page'), fc.oneof(fc.integer({ min: -3, max: 120 }).map(String), fc.constantFrom('0', '1e9', '99999999999999999999', '1.5', 'abc', ''))),
    fc.tuple(fc.constantFrom(...vocabulary.filters).map((name) => `filter[${name}]`), queryText),
    ...(keys.length > 0 ? [fc.tuple(fc.constantFrom(...keys), queryText)] : [])
  )
  const unknown: fc.Arbitrary<[string, string]> = fc.tuple(
    fc.oneof(fc.constantFrom('filter', 'filter[]', 'filter[nope]', 'filter[search][x]', 'include[]', 'page[number]', '__proto__', 'constructor[prototype][x]'), fc.string({ maxLength: 12 })),
    queryText
  )
  return fc.array(fc.oneof({ arbitrary: known, weight: 4 }, { arbitrary: unknown, weight: 1 }), { maxLength: 5 })
    .chain((pairs) => pairs.length === 0
      ? fc.constant(pairs)
      // Duplicated keys: the same key again with another value.
      : fc.option(fc.tuple(fc.constantFrom(...pairs.map(([key]) => key)), queryText), { freq: 3 }).map((dup) => dup === null ? pairs : [...pairs, dup]))
}

/** Percent-encodes any string, lone surrogates included (as U+FFFD: a URL cannot carry them). */
function encode (value: string): string {
  return encodeURIComponent(value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'))
}

function encodeQuery (pairs: Array<[string, string]>): string {
  if (pairs.length === 0) return ''
  return '?' + pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&')
}

/** How a request shows in a failure report: long parts cut, so the report stays readable. */
export function describeRequest (request: FuzzRequest): string {
  const cut = (text: string): string => text.length > 300 ? `${text.slice(0, 300)}... (${text.length} characters)` : text
  const payload = request.payload === undefined ? '' : ` body ${cut(typeof request.payload === 'string' ? JSON.stringify(request.payload) : `<${request.payload.length} bytes>`)}`
  return `${request.method} ${cut(request.url)} as ${request.caller}${request.forgedAuthorization !== undefined ? ` (${cut(request.forgedAuthorization)})` : ''} ${JSON.stringify(request.headers)}${payload}`
}

/** A value for one path parameter: mostly well formed (existing rows included), often not. */
function paramValue (schema: JsonSchema, known: KnownIds): fc.Arbitrary<string> {
  const wellFormed = schema.type === 'integer'
    ? fc.oneof(fc.constantFrom(...known.integers), fc.integer({ min: 1, max: 40 })).map(String)
    : fc.oneof(fc.constantFrom(...known.strings), fc.uuid())
  const malformed = fc.oneof(
    fc.constantFrom('0', '-1', '1.5', '1e3', '2147483648', '99999999999999999999', '0x1F', ' 1', '1 ', 'null', 'undefined', '%00', '..', '%2e%2e%2f', '00000000-0000-0000-0000-000000000000'),
    fc.constantFrom(...HOSTILE_STRINGS).map(encode),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encode),
    fc.constantFrom('x'.repeat(2000))
  )
  return fc.oneof({ arbitrary: wellFormed, weight: 4 }, { arbitrary: malformed, weight: 1 })
}

function pathFor (route: RegisteredRoute, knownIds: KnownIds): fc.Arbitrary<string> {
  const params = (route.schema.params ?? {}) as JsonSchema
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '')
  if (names.length === 0) return fc.constant(route.url)
  return fc.tuple(...names.map((name) => paramValue(params.properties?.[name] ?? { type: 'string' }, knownIds)))
    .map((values) => names.reduce((url, name, i) => url.replace(`:${name}`, values[i] ?? ''), route.url))
}

const rawBodies = [
  '', '{', '{"a":', 'null', '[]', '"text"', '42', 'true', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}',
  '['.repeat(10_000) + ']'.repeat(10_000), '{"a":1,"a":2}', '\u0000', '{"title":"\u0000"}', 'x'.repeat(1_100_000)
]

const contentTypes = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  { arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1'), weight: 1 }
)

/** A body from the route's schema (mutated), a raw malformed one, or one for a route that takes none. */
function bodyFor (route: RegisteredRoute): fc.Arbitrary<{ payload?: string | Buffer, contentType?: string }> {
  const schema = route.schema.body as JsonSchema | undefined
  const fromSchema = schema !== undefined
    ? valueFor(schema, true).map((value) => JSON.stringify(value) ?? 'null')
    : fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value))
  const raw = fc.oneof(fc.constantFrom(...rawBodies), fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)))
  const takesBody = schema !== undefined || ['POST', 'PUT', 'PATCH'].includes(route.method)
  const some = fc.record({
    payload: fc.oneof({ arbitrary: fromSchema, weight: takesBody ? 8 : 1 }, { arbitrary: raw, weight: 1 }),
    contentType: contentTypes
  })
  return takesBody ? some : fc.oneof({ arbitrary: fc.constant({}), weight: 4 }, { arbitrary: some, weight: 1 })
}

const forgedAuthorization = fc.oneof(
  fc.constantFrom('Bearer ', 'Bearer hd_' + 'A'.repeat(43), 'Bearer \' OR 1=1 --', 'Basic YWRtaW46YWRtaW4=', 'bearer  a b', 'Bearer ' + 'x'.repeat(5000), 'Token abc'),
  fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => `Bearer ${s.replace(/[^\x21-\x7e]/g, '')}`)
)

/** Requests for one route: every part derived from its schemas and then bent. */
export function requestsFor (route: RegisteredRoute, knownIds: KnownIds): fc.Arbitrary<FuzzRequest> {
  const querystring = route.schema.querystring as JsonSchema | undefined
  return fc.record({
    path: pathFor(route, knownIds),
    query: queryPairs(querystring),
    body: bodyFor(route),
    caller: fc.constantFrom<Caller>('admin', 'admin', 'admin', 'admin', 'agent', 'agent', 'customer', 'customer', 'anonymous', 'forged'),
    forged: forgedAuthorization
  }).map(({ path, query, body, caller, forged }) => {
    const request: FuzzRequest = {
      method: route.method,
      url: path + encodeQuery(query),
      caller,
      ...(caller === 'forged' ? { forgedAuthorization: forged } : {}),
      headers: body.contentType !== undefined ? { 'content-type': body.contentType } : {},
      ...(body.payload !== undefined ? { payload: body.payload } : {})
    }
    return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) })
  })
}

