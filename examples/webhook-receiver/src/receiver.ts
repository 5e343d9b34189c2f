import { createServer, type Server } from 'node:http'
import { verifyWebhookSignature } from '@helpdesk/core'

export interface WebhookEvent {
  id: number
  type: string
  created_at: string
  data: Record<string, unknown>
}

export interface ReceiverOptions {
  /** The endpoint's secret; two during your own rotation (new first). */
  secrets: string[]
  onEvent: (event: WebhookEvent) => void | Promise<void>
  /** Largest body accepted. Default 1 MB. */
  maxBytes?: number
}

/**
 * Answers 204 to a correctly signed delivery (once per event id: retries and
 * redeliveries of an event already handled are acknowledged, not handled
 * again), 400 to a bad signature, 413 to an oversized body.
 */
export function createReceiver (options: ReceiverOptions): Server {
  const seen = new Set<number>()
  const maxBytes = options.maxBytes ?? 1024 * 1024
  return createServer((req, res) => {
    if (req.method !== 'POST') { res.writeHead(405).end(); return }
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) { res.writeHead(413).end(); req.destroy(); return }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (res.writableEnded) return
      const raw = Buffer.concat(chunks)
      // Verify the raw bytes, before parsing.
      const header = req.headers['helpdesk-signature']
      if (!verifyWebhookSignature({ payload: raw, header: Array.isArray(header) ? header[0] : header, secrets: options.secrets })) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('bad signature')
        return
      }
      const event = JSON.parse(raw.toString('utf8')) as WebhookEvent
      if (seen.has(event.id)) { res.writeHead(204).end(); return }
      Promise.resolve(options.onEvent(event)).then(() => {
        seen.add(event.id)
        res.writeHead(204).end()
      }, () => {
        // A 5xx: the help desk retries later.
        res.writeHead(500).end()
      })
    })
  })
}
