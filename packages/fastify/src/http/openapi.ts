import { STATUS_CODES } from 'node:http'
import swagger, { type FastifyDynamicSwaggerOptions, type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger'
import type { FastifySchema } from 'fastify'
import type { RouteAuth } from './authentication.js'
import type { HelpdeskApp } from './route-context.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The fields of a `multipart/form-data` body that the handler streams
     * itself: documented in OpenAPI, never compiled into a validator.
     */
    multipartBody?: object
  }
}

/** One line per tag, in the order Swagger UI shows them. */
const tags = [
  { name: 'Auth', description: 'Log in for a bearer token, register, and manage your own API tokens.' },
  { name: 'Tickets', description: 'Tickets the caller may see: customers their own and public ones, agents those of their categories.' },
  { name: 'Comments', description: 'Replies (type 1) and internal notes (type 2) on a ticket.' },
  { name: 'Presence', description: 'Who else is viewing or typing on a ticket, for staff (collision detection); live on the event stream as `presence`.' },
  { name: 'Drafts', description: 'Each person\'s unsent reply or note per ticket, saved as they type; seen by its author alone.' },
  { name: 'Attachments', description: 'Upload files, then link them by id when creating a ticket or a comment.' },
  { name: 'Customers', description: 'Customers, their notes and notification settings (administrators, agents with manage_customers).' },
  { name: 'Agents', description: 'Administrators (role 1) and agents (role 2), their permissions, categories and notification settings.' },
  { name: 'Categories', description: 'Ticket and knowledge-base categories.' },
  { name: 'Custom fields', description: 'Extra ticket-form fields, assigned to categories (administrators).' },
  { name: 'Canned responses', description: 'Reusable replies with `{{ placeholders }}` (staff).' },
  { name: 'Article collections', description: 'Knowledge-base collections; anonymous callers read public ones.' },
  { name: 'Articles', description: 'Knowledge-base articles; anonymous callers read published articles of public collections.' },
  { name: 'Notifications', description: 'The caller\'s own notifications.' },
  { name: 'Satisfaction', description: 'Customers rate a closed ticket good or bad: from the portal, or with the signed link of the closing mail.' },
  { name: 'History', description: 'What happened to a ticket: every change of its fields, who made it, when and through which door.' },
  { name: 'Audit log', description: 'Changes to the help desk itself (agents, categories, webhooks, tokens, sign-ins, settings...), for administrators.' },
  { name: 'SLA', description: 'Business-hours calendars and SLA policies (administrators); a ticket\'s clocks (staff). See docs/sla.md.' },
  { name: 'Reports', description: 'Response and resolution times, volume, backlog, reopen rate and satisfaction from the rollups, as JSON or CSV (staff).' },
  { name: 'Imports', description: 'Bulk imports of customers, agents, categories, tickets and comments (administrators).' },
  { name: 'Health', description: 'Liveness and readiness probes for load balancers.' }
]

/** Who may call a route, from its `auth` config: `none` is public, `optional` also serves anonymous callers. */
function securityOf (auth: RouteAuth): FastifySchema['security'] {
  if (auth === 'none') return []
  if (auth === 'optional') return [{}, { bearerAuth: [] }]
  return undefined
}

/** Per-route additions: the security a route really has, and the multipart body it streams. */
const documentRoute: SwaggerTransform = ({ schema, url, route }) => {
  const documented: FastifySchema & Record<string, unknown> = { ...schema }
  const security = securityOf(route.config?.auth ?? 'required')
  if (documented.security === undefined && security !== undefined) documented.security = security
  const multipartBody = route.config?.multipartBody
  if (multipartBody !== undefined) {
    documented.body = multipartBody
    documented.consumes = ['multipart/form-data']
  }
  return { schema: documented, url }
}

type Operation = Record<string, unknown> & { responses?: Record<string, { description?: string }> }

/** `GET /tickets/{id}/comments` -> `getTicketsByIdComments` (unique per method and path, for client generators). */
function operationId (method: string, path: string, prefix: string): string {
  const local = path.startsWith(prefix) ? path.slice(prefix.length) : path
  const words = local.split('/').filter((s) => s !== '').map((segment) => {
    const param = /^\{(.+)\}$/.exec(segment)?.[1]
    const name = (param ?? segment).split(/[-_]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')
    return param !== undefined ? `By${name}` : name
  })
  return method + words.join('')
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/**
 * Whole-document touches: every operation gets its own object (routes that
 * answer several verbs share one) with an operationId, and success responses
 * a description instead of "Default Response".
 */
function finishDocument (prefix: string): SwaggerTransformObject {
  return (document) => {
    const openapiObject = 'openapiObject' in document ? document.openapiObject : document.swaggerObject
    const paths = (openapiObject.paths ?? {}) as Record<string, Record<string, Operation>>
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, shared] of Object.entries(item)) {
        if (!HTTP_METHODS.has(method)) continue
        const operation: Operation = { ...shared, operationId: operationId(method, path, prefix) }
        const responses: NonNullable<Operation['responses']> = {}
        for (const [status, response] of Object.entries(shared.responses ?? {})) {
          responses[status] = response.description === 'Default Response'
            ? { ...response, description: STATUS_CODES[status] ?? 'Response' }
            : response
        }
        operation.responses = responses
        item[method] = operation
      }
    }
    return openapiObject
  }
}

/**
 * The OpenAPI 3.1 document options. A host (or `helpdesk serve`) that wants
 * Swagger UI registers @fastify/swagger with these at its root before the
 * plugin; otherwise the plugin registers it in its own context.
 */
export function openapiOptions (prefix = '/api/v1'): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Help desk API',
        version: '1.0.0',
        description: 'Tickets, comments, attachments, customers, agents, categories, custom fields, canned responses, ' +
          'knowledge base and notifications.\n\n' +
          'Requests and responses are JSON (uploads are `multipart/form-data`). A resource comes as `{ "data": ... }`, ' +
          'a list as `{ "data": [...], "links": ..., "meta": ... }`, an action as `{ "success": true }`. ' +
          'Lists take `include=a,b`, `sort=field,-other`, `filter[name]=value`, `page` (from 1) and `per_page` (1 to 100, default 15). ' +
          'Errors are JSON with a `message`, plus `errors` (one key per invalid field) on 422. ' +
          'Datetimes are UTC `YYYY-MM-DD HH:MM:SS` (ISO 8601 on agents).',
        license: { name: 'MIT', identifier: 'MIT' }
      },
      servers: [{ url: '/', description: 'This server' }],
      tags,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: `An opaque token from \`POST ${prefix}/auth/login\`, \`POST ${prefix}/auth/tokens\` or \`helpdesk tokens:create\`, ` +
              'sent as `Authorization: Bearer <token>`.'
          }
        }
      },
      security: [{ bearerAuth: [] }]
    },
    transform: documentRoute,
    transformObject: finishDocument(prefix)
  }
}

/** Serves `{prefix}/openapi.json`, generated from the same TypeBox schemas that validate requests and responses. */
export async function installOpenApi (app: HelpdeskApp, prefix: string): Promise<void> {
  if (!app.hasDecorator('swagger')) await app.register(swagger, openapiOptions(prefix))
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger())
}
