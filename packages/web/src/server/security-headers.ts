import type { FastifyInstance } from 'fastify'

/**
 * The console's pages run no inline script or style: everything comes from
 * the server's own files, so the policy can forbid the rest. Images may come
 * from https (avatars, pictures in article bodies) and data: URLs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'"
].join('; ')

/** Security headers on every answer of the console's context (pages, assets, KB). */
export function installSecurityHeaders (app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY)
    reply.header('x-frame-options', 'DENY')
    reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    reply.header('x-content-type-options', 'nosniff')
    done(null, payload)
  })
}
