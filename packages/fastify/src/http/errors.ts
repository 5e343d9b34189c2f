import type { FastifyError, FastifyInstance } from 'fastify'
import { HelpdeskError, TooManyRequestsError, ValidationError } from '@helpdesk/core'
import { fieldErrors } from './validation-errors.js'

/** Every error leaves as the contract's JSON shape (CONTRACT §6); 5xx never carries internals. */
export function installErrorHandling (app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError & { errors?: unknown }, request, reply) => {
    if (error.validation !== undefined) {
      if (error.validationContext === 'params') {
        return await reply.code(404).send({ message: 'Resource not found.' })
      }
      const errors = fieldErrors(error.validation)
      const failure = new ValidationError(errors)
      return await reply.code(422).send({ message: failure.message, errors })
    }
    if (error instanceof ValidationError) {
      return await reply.code(422).send({ message: error.message, errors: error.errors })
    }
    if (error instanceof TooManyRequestsError) {
      void reply.header('retry-after', error.retryAfterSeconds)
      void reply.header('x-ratelimit-reset', Math.ceil(Date.now() / 1000) + error.retryAfterSeconds)
    }
    if (error instanceof HelpdeskError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'service unavailable')
      return await reply.code(error.statusCode).send({ message: error.message })
    }
    const status = error.statusCode ?? 500
    if (status === 429) {
      return await reply.code(429).send({ message: error.message !== '' ? error.message : 'Too many requests. Please slow down.' })
    }
    if (status >= 400 && status < 500) {
      const message = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? 'The request body is not valid JSON.'
        : status === 413 ? 'The request body is too large.' : error.message
      return await reply.code(status).send({ message })
    }
    request.log.error({ err: error }, 'unexpected error')
    return await reply.code(500).send({ message: 'Server error.' })
  })

  app.setNotFoundHandler(async (_request, reply) => {
    return await reply.code(404).send({ message: 'Not found.' })
  })
}
