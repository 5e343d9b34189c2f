import { isIP } from 'node:net'
import type { Agent } from 'undici'
import {
  DEFAULT_WEBHOOK_DISABLE_POLICY, exponentialBackoff, formatDateTime, RetryJobError, signWebhookPayload,
  WEBHOOK_DELIVER_JOB, WEBHOOK_SIGNATURE_HEADER,
  type AvatarResolver, type Helpdesk, type Job, type WebhookDisablePolicy
} from '@helpdesk/core'
import { webhookBody } from './webhook-payload.js'
import { guardedLookup, isPublicAddress, WebhookTargetError } from './webhook-targets.js'

/** How webhooks are delivered (the plugin's `webhooks` option). */
export interface WebhookDeliveryOptions {
  /**
   * Allow endpoints on loopback, private, link-local, unique-local and other
   * non-public addresses. Default false: such targets are refused when an
   * endpoint is created and, after DNS resolution, on every delivery.
   */
  allowPrivateTargets?: boolean
  /** Per attempt, connection to response. Default 10000 ms. */
  timeoutMs?: number
  /** Deliveries sent at once by this process. Default 64. */
  concurrency?: number
  /** Milliseconds before retry number `attempt`. Default 30 s doubling, capped at 4 h, ±25 % jitter (15 attempts: about a day). */
  backoff?: (attempt: number) => number
  /** When an endpoint is switched off. Default: failing for 24 h, or 100 failed attempts in a row. */
  disable?: Partial<WebhookDisablePolicy>
}

interface AttemptResult {
  ok: boolean
  status: number | null
  error: string | null
  retryable: boolean
  /** From a 429's Retry-After, in ms. */
  retryAfterMs: number | null
}

const USER_AGENT = 'Helpdesk-Webhooks/1'

function retryAfterOf (value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value
  if (text === undefined || !/^\d+$/.test(text.trim())) return null
  return Math.min(Number(text) * 1000, 3_600_000)
}

/** One POST: no redirects followed, connections only to checked addresses, `timeoutMs` overall. */
async function post (agent: Agent, url: string, headers: Record<string, string>, body: string, options: Required<Pick<WebhookDeliveryOptions, 'timeoutMs' | 'allowPrivateTargets'>>): Promise<AttemptResult> {
  const target = new URL(url)
  const host = target.hostname.replace(/^\[|\]$/g, '')
  // IP literals never reach the lookup: check them here.
  if (!options.allowPrivateTargets && isIP(host) !== 0 && !isPublicAddress(host)) {
    return { ok: false, status: null, error: `${host} is not a public address.`, retryable: false, retryAfterMs: null }
  }
  try {
    const response = await agent.request({
      origin: target.origin, path: `${target.pathname}${target.search}`, method: 'POST', headers, body,
      signal: AbortSignal.timeout(options.timeoutMs)
    })
    await response.body.dump({ limit: 64 * 1024 }).catch(() => {})
    const status = response.statusCode
    if (status >= 200 && status < 300) return { ok: true, status, error: null, retryable: false, retryAfterMs: null }
    if (status >= 300 && status < 400) {
      return { ok: false, status, error: `Redirect to ${String(response.headers.location ?? '?')} not followed.`, retryable: false, retryAfterMs: null }
    }
    const retryable = status === 429 || status >= 500
    return { ok: false, status, error: `HTTP ${status}`, retryable, retryAfterMs: status === 429 ? retryAfterOf(response.headers['retry-after']) : null }
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause
    const refused = error instanceof WebhookTargetError || cause instanceof WebhookTargetError || (error as { code?: string }).code === 'EHELPDESKPRIVATE'
    if (refused) return { ok: false, status: null, error: (cause instanceof Error ? cause : error as Error).message, retryable: false, retryAfterMs: null }
    const name = (error as Error).name
    const message = name === 'TimeoutError' || name === 'AbortError' ? `No response within ${options.timeoutMs} ms.` : (error as Error).message
    return { ok: false, status: null, error: message, retryable: true, retryAfterMs: null }
  }
}

/**
 * Registers the `webhook.deliver` job handler on `helpdesk.jobs`: builds the
 * body once (the presenters of @helpdesk/shapes), signs it, POSTs it, records the attempt,
 * and asks for a retry on network errors, 5xx and 429. Returns a function that
 * closes the connection pool.
 */
export function registerWebhookDelivery (helpdesk: Helpdesk, avatar: AvatarResolver, options: WebhookDeliveryOptions = {}): () => Promise<void> {
  const settings = { allowPrivateTargets: options.allowPrivateTargets ?? false, timeoutMs: options.timeoutMs ?? 10_000 }
  const backoff = options.backoff ?? ((attempt: number) => exponentialBackoff(attempt, 30_000, 4 * 3_600_000))
  const policy: WebhookDisablePolicy = { ...DEFAULT_WEBHOOK_DISABLE_POLICY, ...options.disable }
  // undici loads, and the pool is made, with the first delivery, not at start-up (issue #14).
  let agent: Promise<Agent> | undefined
  // A failed load is not kept: the next delivery tries again.
  const agentOf = async (): Promise<Agent> => await (agent ??= import('undici').then(({ Agent }) => new Agent({
    connect: { lookup: guardedLookup(settings.allowPrivateTargets) as never, timeout: settings.timeoutMs },
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs
  }), (error: unknown) => { agent = undefined; throw error }))
  const { webhooks, clock } = helpdesk

  helpdesk.jobs.register(WEBHOOK_DELIVER_JOB, async (job: Job) => {
    const deliveryId = Number(job.payload.delivery_id)
    const work = await webhooks.work(deliveryId)
    // Deleted with its endpoint, or already settled by an earlier run of this job.
    if (work === null || work.delivery.status !== 'pending') return
    if (!work.endpoint.active) {
      await webhooks.abandon(deliveryId, 'Dropped unsent: the endpoint is switched off.', 'cancelled')
      return
    }
    let body = work.body
    const firstBody = body === null
    if (body === null) {
      const event = await webhooks.eventOf(work)
      if (event === null) {
        await webhooks.abandon(deliveryId, 'The event is no longer in the event log.')
        return
      }
      // Built from the logged event, so a rebuild after a crash gives the same bytes; kept with the first outcome.
      body = await webhookBody(event, helpdesk, avatar)
    }
    const timestamp = Math.floor(clock.now().getTime() / 1000)
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'helpdesk-event-id': String(work.delivery.event_id),
      'helpdesk-event-type': work.delivery.event_type,
      'helpdesk-delivery-id': String(work.delivery.id),
      'helpdesk-delivery-attempt': String(work.delivery.attempts + 1),
      [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signWebhookPayload(body, work.secrets, timestamp)
    }
    const started = performance.now()
    const result = await post(await agentOf(), work.endpoint.url, headers, body, settings)
    const durationMs = Math.round(performance.now() - started)
    const retry = !result.ok && result.retryable && job.attempts < job.maxAttempts
    const delay = retry ? Math.max(backoff(job.attempts), result.retryAfterMs ?? 0) : null
    const stopped = await webhooks.recordAttempt(work, {
      ok: result.ok,
      response_status: result.status,
      duration_ms: durationMs,
      error: result.error,
      next_attempt_at: delay === null ? null : formatDateTime(new Date(clock.now().getTime() + delay)),
      ...(firstBody ? { body } : {})
    }, policy)
    // Switched off (by this failure or another): the retry was dropped with the endpoint's pending deliveries.
    if (delay !== null && !stopped) throw new RetryJobError(result.error ?? 'failed', delay)
  }, { concurrency: options.concurrency ?? 64 })

  return async () => { await agent?.then(async (made) => { await made.close() }, () => {}) }
}
