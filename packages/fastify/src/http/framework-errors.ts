import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'

/**
 * Fastify refuses some URLs before any route or plugin hook runs (a path
 * segment with broken percent-encoding, a path parameter longer than
 * `maxParamLength`) and answers them with its own body, which echoes the URL
 * and is not the contract's shape. Pass this as the host's
 * `Fastify({ frameworkErrors })` option (`helpdesk serve` does) so those
 * answers are `{ message }` too: 400 for a malformed URL, 404 for a parameter
 * too long to name anything.
 */
export function frameworkErrors (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, message] = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? [404, 'Not found.']
    : error.code === 'FST_ERR_BAD_URL' ? [400, 'The URL is malformed.'] : [400, 'The request is malformed.']
  void reply.code(status).header('x-content-type-options', 'nosniff').send({ message })
}
