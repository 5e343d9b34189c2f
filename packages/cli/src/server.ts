import Fastify, { type FastifyInstance } from 'fastify'
import type { Helpdesk } from '@helpdesk/core'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import helpdeskPlugin, { openapiOptions } from '@helpdesk/fastify'
import type { CliConfig } from './config.js'

/** The standalone server `helpdesk serve` runs: the plugin on a bare Fastify app. */
export async function buildServer (config: CliConfig, helpdesk: Helpdesk, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false
      ? false
      : { level: process.env.LOG_LEVEL ?? 'info', redact: ['req.headers.authorization', 'req.headers.cookie'] },
    trustProxy: process.env.HELPDESK_TRUST_PROXY === '1',
    bodyLimit: 1024 * 1024
  })
  // Registered at the root so Swagger UI at /docs lists every route the plugin adds.
  await app.register(swagger, openapiOptions())
  await app.register(swaggerUi, { routePrefix: '/docs' })
  await app.register(helpdeskPlugin, {
    helpdesk,
    storageDir: config.storageDir,
    rateLimit: config.rateLimit === 0
      ? false
      : { max: config.rateLimit, ...(config.redisUrl !== undefined ? { redis: config.redisUrl } : {}) }
  } as Parameters<typeof helpdeskPlugin>[1])
  app.setNotFoundHandler(async (_request, reply) => await reply.code(404).send({ message: 'Not found.' }))
  return app
}
