import type { FastifyInstance } from 'fastify'

function policy (imgSrc: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${imgSrc}`,
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'"
  ].join('; ')
}

/**
 * The console's pages run no inline script or style: everything comes from
 * the server's own files, so the policy can forbid the rest. The console
 * renders ticket bodies, comments and notes, which customers write: images
 * come from this origin only (attachments, and remote images through the
 * plugin's proxy once a reader asks for them), never straight from another
 * host, so a tracking pixel cannot learn when and from where staff read.
 */
export const CONTENT_SECURITY_POLICY = policy("'self' data:")

/**
 * The knowledge-base pages show articles, which staff write: their pictures
 * may come from any https host.
 */
export const KB_CONTENT_SECURITY_POLICY = policy("'self' data: https:")

/**
 * Security headers on every answer of the console's context (pages, assets,
 * KB): the console's policy unless the route set one of its own.
 */
export function installSecurityHeaders (app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY)
    reply.header('x-frame-options', 'DENY')
    reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    reply.header('x-content-type-options', 'nosniff')
    done(null, payload)
  })
}
