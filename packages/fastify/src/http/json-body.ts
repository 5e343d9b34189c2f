import type { FastifyInstance } from 'fastify'

/**
 * `application/json` as Fastify parses it (secure-json-parse, the host's proto-poisoning
 * settings, a 400 for malformed JSON), except that an empty body reads as `{}` (CONTRACT §17):
 * the spec's clients send `Content-Type: application/json` on body-less actions too.
 * Registered in the plugin's own context, so the host's parser is untouched.
 */
export function installJsonBodyParser (app: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') {
      done(null, {})
      return
    }
    parseJson(request, body as string, done)
  })
}
