import swagger, { type SwaggerOptions } from '@fastify/swagger'
import type { HelpdeskApp } from './route-context.js'

/**
 * The OpenAPI 3.1 document options. A host (or `helpdesk serve`) that wants
 * Swagger UI registers @fastify/swagger with these at its root before the
 * plugin; otherwise the plugin registers it in its own context.
 */
export function openapiOptions (prefix = '/api/v1'): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Help desk API',
        version: '1.0.0',
        description: 'Tickets, comments, attachments, customers, agents, categories, custom fields, canned responses, ' +
          'knowledge base and notifications. Lists take `include`, `sort`, `filter[...]`, `page` and `per_page`; ' +
          'errors are JSON with a `message` (and `errors` per field on 422).'
      },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: `A token from POST ${prefix}/auth/login, POST ${prefix}/auth/tokens or \`helpdesk tokens:create\`.` }
        }
      },
      security: [{ bearerAuth: [] }]
    }
  }
}

/** Serves `{prefix}/openapi.json`, generated from the same TypeBox schemas that validate requests and responses. */
export async function installOpenApi (app: HelpdeskApp, prefix: string): Promise<void> {
  if (!app.hasDecorator('swagger')) await app.register(swagger, openapiOptions(prefix))
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger())
}
