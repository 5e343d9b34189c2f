import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { buildApp, testDialects, type TestApp } from './helpers.js'
import { contractEndpoints, contractLists, normalizePath, serviceSpecEndpoints, serviceSpecLists, verbAliases, type Endpoint, type SpecList } from './spec-endpoints.js'

interface Parameter { name: string, in: string, description?: string, schema?: { maximum?: number, minimum?: number } }
interface Media { schema?: { properties?: Record<string, { format?: string }>, required?: string[] }, example?: unknown, examples?: Record<string, { value: unknown }> }
interface Operation {
  operationId?: string
  summary?: string
  tags?: string[]
  security?: Array<Record<string, string[]>>
  parameters?: Parameter[]
  requestBody?: { content: Record<string, Media> }
  responses: Record<string, { description: string }>
}
interface Document {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  security: Array<Record<string, string[]>>
  components: { securitySchemes: Record<string, { type: string, scheme?: string }> }
}

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv

/** The examples of a media object (`example`, or `examples` when there are several). */
function examplesOf (media: Media): unknown[] {
  if (media.example !== undefined) return [media.example]
  return Object.values(media.examples ?? {}).map((e) => e.value)
}

// The document does not depend on the database: one dialect is enough.
const dialect = testDialects()[0] ?? 'sqlite'
const PREFIX = '/api/v1'

async function openapi (h: TestApp, prefix = PREFIX): Promise<Document> {
  const res = await h.inject({ method: 'GET', url: `${prefix}/openapi.json` })
  assert.equal(res.statusCode, 200, res.body)
  return res.json() as Document
}

/** The operation for a spec endpoint, matched on method and path shape. */
function operationFor (doc: Document, { method, path }: Endpoint, prefix = PREFIX): Operation | undefined {
  const wanted = normalizePath(prefix + path)
  const found = Object.entries(doc.paths).find(([p]) => normalizePath(p) === wanted)
  return found?.[1][method.toLowerCase()]
}

function operations (doc: Document): Array<{ method: string, path: string, operation: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })))
}

function describeList (doc: Document, list: SpecList): void {
  const operation = operationFor(doc, { method: 'GET', path: list.path })
  assert.ok(operation !== undefined, `GET ${list.path} (${list.resource}) is not documented`)
  const query = new Map((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]))
  for (const name of ['include', 'sort', 'page', 'per_page']) assert.ok(query.has(name), `GET ${list.path}: no ${name} parameter`)
  assert.equal(query.get('page')?.schema?.minimum, 1, `GET ${list.path}: page`)
  assert.equal(query.get('per_page')?.schema?.maximum, 100, `GET ${list.path}: per_page`)
  for (const include of list.includes) {
    assert.ok(query.get('include')?.description?.includes(include), `GET ${list.path}: include "${include}" not in "${query.get('include')?.description}"`)
  }
  for (const sort of list.sorts) {
    assert.ok(query.get('sort')?.description?.includes(sort), `GET ${list.path}: sort "${sort}" not in "${query.get('sort')?.description}"`)
  }
  for (const filter of list.filters) {
    assert.ok(query.has(`filter[${filter}]`), `GET ${list.path}: no filter[${filter}] parameter`)
    assert.ok((query.get(`filter[${filter}]`)?.description ?? '') !== '', `GET ${list.path}: filter[${filter}] has no description`)
  }
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async (t) => {
    const doc = await openapi(await buildApp(t, dialect))
    const validator = new Validator()
    const result = await validator.validate(doc as unknown as object)
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
    assert.equal(validator.version, '3.1')
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, { ...doc.components.securitySchemes.bearerAuth, type: 'http', scheme: 'bearer' })
    assert.deepEqual(doc.security, [{ bearerAuth: [] }])
  })

  it('has every endpoint of SERVICE-SPEC.md, CONTRACT.md and its verb aliases', async (t) => {
    const doc = await openapi(await buildApp(t, dialect))
    const spec = serviceSpecEndpoints()
    assert.ok(spec.length >= 60, `only ${spec.length} endpoints parsed from SERVICE-SPEC.md`)
    const contract = contractEndpoints()
    assert.ok(contract.length >= 20, `only ${contract.length} endpoints parsed from CONTRACT.md`)
    const missing = [...spec, ...contract, ...verbAliases].filter((e) => operationFor(doc, e) === undefined)
    assert.deepEqual(missing.map((e) => `${e.method} ${e.path}`), [])
  })

  it('documents include, sort, filter[...], page and per_page of every list as the spec names them', async (t) => {
    const doc = await openapi(await buildApp(t, dialect))
    const lists = serviceSpecLists()
    assert.equal(lists.length, 9)
    const listEndpoints = serviceSpecEndpoints().filter((e) => e.method === 'GET').map((e) => normalizePath(e.path))
    for (const list of lists) {
      assert.ok(listEndpoints.includes(normalizePath(list.path)), `${list.path} is not a GET endpoint of the spec`)
      describeList(doc, list)
    }
    for (const list of contractLists) describeList(doc, list)
    const tickets = lists.find((l) => l.resource === 'tickets')
    assert.deepEqual(tickets?.filters, ['first_name', 'last_name', 'email', 'search', 'status', 'categories', 'agents'])
  })

  it('documents every route the plugin registers', async (t) => {
    const h = await buildApp(t, dialect)
    const doc = await openapi(h)
    const documented = new Set(operations(doc).map((o) => `${o.method} ${o.path}`))
    const undocumented = h.routes
      .map((route) => route.replace(/:([A-Za-z_]+)/g, '{$1}'))
      .filter((route) => !documented.has(route) && route !== `GET ${PREFIX}/openapi.json`)
    assert.deepEqual(undocumented, [])
  })

  it('says which routes need no token and which serve anonymous callers too', async (t) => {
    const h = await buildApp(t, dialect)
    const doc = await openapi(h)
    for (const route of h.routeOptions) {
      const operation = doc.paths[route.url.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[route.method.toLowerCase()]
      if (operation === undefined) continue
      const where = `${route.method} ${route.url}`
      if (route.config.auth === 'none') assert.deepEqual(operation.security, [], where)
      else if (route.config.auth === 'optional') assert.deepEqual(operation.security, [{}, { bearerAuth: [] }], where)
      else assert.equal(operation.security, undefined, `${where} inherits the bearer requirement`)
    }
    assert.deepEqual(operationFor(doc, { method: 'POST', path: '/auth/login' })?.security, [])
    assert.deepEqual(operationFor(doc, { method: 'GET', path: '/articles/{id}' })?.security, [{}, { bearerAuth: [] }])
    assert.equal(operationFor(doc, { method: 'GET', path: '/tickets' })?.security, undefined)
  })

  it('documents uploads as multipart bodies with a binary file field', async (t) => {
    const doc = await openapi(await buildApp(t, dialect))
    for (const path of ['/attachments', '/imports']) {
      const body = operationFor(doc, { method: 'POST', path })?.requestBody
      const form = body?.content['multipart/form-data']?.schema
      assert.equal(form?.properties?.file?.format, 'binary', `POST ${path}`)
      assert.deepEqual(form?.required, ['file'], `POST ${path}`)
    }
    const upload = operationFor(doc, { method: 'POST', path: '/attachments' })
    assert.ok(upload?.responses['201'] !== undefined && upload.responses['413'] !== undefined)
  })

  it('gives every operation a summary, a tag, a unique operationId, described responses, and every JSON body an example', async (t) => {
    const doc = await openapi(await buildApp(t, dialect))
    const ids = new Set<string>()
    const bodiesWithoutExample: string[] = []
    for (const { method, path, operation } of operations(doc)) {
      const where = `${method} ${path}`
      assert.ok((operation.summary ?? '') !== '', `${where}: no summary`)
      assert.equal(operation.tags?.length, 1, `${where}: tags`)
      assert.ok(operation.operationId !== undefined && !ids.has(operation.operationId), `${where}: operationId ${operation.operationId}`)
      ids.add(operation.operationId)
      for (const [status, response] of Object.entries(operation.responses)) {
        assert.notEqual(response.description, 'Default Response', `${where} ${status}`)
      }
      const json = operation.requestBody?.content['application/json']
      if (json !== undefined && json.example === undefined && json.examples === undefined) bodiesWithoutExample.push(where)
    }
    assert.deepEqual(bodiesWithoutExample, [])
  })

  it('has examples that match their schemas, with no key the schema does not know', async (t) => {
    const doc = await openapi(await buildApp(t, dialect))
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }))
    let checked = 0
    for (const { method, path, operation } of operations(doc)) {
      const media = [
        ...Object.values(operation.requestBody?.content ?? {}),
        ...Object.values(operation.responses).flatMap((r) => Object.values((r as { content?: Record<string, Media> }).content ?? {}))
      ]
      for (const { schema, ...rest } of media) {
        if (schema === undefined) continue
        const validate = ajv.compile(schema)
        for (const example of examplesOf(rest)) {
          const where = `${method} ${path}: ${JSON.stringify(example)}`
          assert.ok(validate(example), `${where}: ${ajv.errorsText(validate.errors)}`)
          if (schema.properties !== undefined && typeof example === 'object' && example !== null) {
            const unknown = Object.keys(example).filter((k) => !(k in (schema.properties ?? {})))
            assert.deepEqual(unknown, [], where)
          }
          checked++
        }
      }
    }
    assert.ok(checked >= 60, `only ${checked} examples checked`)
  })

  it('follows the prefix the host mounts the plugin under', async (t) => {
    const h = await buildApp(t, dialect, { prefix: '/support/api' })
    const doc = await openapi(h, '/support/api')
    assert.ok(Object.keys(doc.paths).every((p) => p.startsWith('/support/api/')), Object.keys(doc.paths).join(' '))
    assert.ok(operationFor(doc, { method: 'GET', path: '/tickets' }, '/support/api') !== undefined)
    assert.equal(operationFor(doc, { method: 'GET', path: '/tickets' }, '/support/api')?.operationId, 'getTickets')
  })
})
