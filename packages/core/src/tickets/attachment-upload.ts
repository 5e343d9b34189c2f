import { Readable } from 'node:stream'
import { PayloadTooLargeError, ValidationError } from '../errors.js'

/** Bytes looked at to tell the type: enough for every signature file-type knows. */
const SAMPLE_BYTES = 4100

export interface InspectedUpload {
  /** The type the bytes show, never the client's claim. */
  mime_type: string
  /** A safe extension for that type (lowercase letters and digits). */
  extension: string
  /** The whole content again; it fails with PayloadTooLargeError past the limit. */
  content: Readable
}

/**
 * Text is UTF-8 without NUL or other control bytes (tab, newlines and form
 * feed allowed). A multi-byte character cut at the end of the sample is fine.
 */
function looksLikeText (sample: Buffer): boolean {
  for (const byte of sample) {
    if (byte === 0x7f || (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d)) return false
  }
  const decoder = new TextDecoder('utf-8', { fatal: true })
  for (let cut = 0; cut <= 3 && cut < sample.length; cut++) {
    try {
      decoder.decode(sample.subarray(0, sample.length - cut))
      return true
    } catch {
      // a character cut in half at the end of the sample: try a shorter prefix
    }
  }
  return false
}

function typeOfText (sample: Buffer): { mime_type: string, extension: string } {
  return looksLikeText(sample)
    ? { mime_type: 'text/plain', extension: 'txt' }
    : { mime_type: 'application/octet-stream', extension: 'bin' }
}

/**
 * Reads the first bytes of an upload to sniff its type (file-type's magic
 * numbers; otherwise text/plain or application/octet-stream), and hands back
 * a stream of the whole content that counts bytes and fails once there are
 * more than `maxBytes`, so the limit holds while streaming, never after.
 */
export async function inspectUpload (source: Readable, maxBytes: number): Promise<InspectedUpload> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const head: Buffer[] = []
  let headSize = 0
  let ended = false
  while (headSize < SAMPLE_BYTES) {
    const next = await iterator.next()
    if (next.done === true) { ended = true; break }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value)
    head.push(chunk)
    headSize += chunk.length
  }
  const sample = Buffer.concat(head)
  if (sample.length === 0) throw ValidationError.field('file', 'The file is empty.')
  // file-type loads with the first upload, not at start-up (issue #14).
  const { fileTypeFromBuffer } = await import('file-type')
  const detected = await fileTypeFromBuffer(sample)
  const type = detected !== undefined && /^[a-z0-9]{1,10}$/.test(detected.ext)
    ? { mime_type: detected.mime, extension: detected.ext }
    : typeOfText(sample)

  async function * all (): AsyncGenerator<Buffer> {
    let total = sample.length
    try {
      if (total > maxBytes) throw new PayloadTooLargeError()
      yield sample
      if (ended) return
      for (;;) {
        const next = await iterator.next()
        if (next.done === true) { ended = true; return }
        total += next.value.length
        if (total > maxBytes) throw new PayloadTooLargeError()
        yield next.value
      }
    } finally {
      // Stop reading the source whatever happened (limit, consumer gone).
      if (!ended) await iterator.return?.()
    }
  }
  return { ...type, content: Readable.from(all(), { objectMode: false }) }
}
