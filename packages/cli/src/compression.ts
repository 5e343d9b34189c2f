import { constants } from 'node:zlib'
import compress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'

/** Answers smaller than this are sent as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024

/**
 * What is compressed per request: JSON (the API's answers and problem bodies), HTML, CSS and JavaScript.
 * Never the event stream (a compressor would hold its events back) nor files people upload.
 */
export const COMPRESSIBLE = /^(?:application\/(?:[\w.+-]+\+)?json|text\/html|text\/css|(?:text|application)\/javascript)(?:\s*;|$)/i

/**
 * Brotli and gzip for the server's answers (issue 35), registered at the root
 * before every route. Brotli at a low quality: it runs on every answer, and
 * already beats gzip there; the console's hashed assets are precompressed at
 * their best by `pnpm build` and sent as they are (their routes opt out).
 * Request bodies are not decompressed (a small compressed body could
 * inflate past the body limit's intent).
 */
export async function installCompression (app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
    customTypes: COMPRESSIBLE,
    globalDecompression: false,
    brotliOptions: { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 }
  })
}
