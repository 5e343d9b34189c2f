import type { FastifyInstance } from 'fastify'
import type { Helpdesk } from '@helpdesk/core'
import type { HelpdeskPluginOptions } from '../options.js'

/**
 * Subscribes the host's `onEvent` to committed domain events (never to a
 * change that rolled back) and unsubscribes when the app closes. Host apps may
 * also call `app.helpdesk.events.subscribe(fn)` themselves.
 */
export function installEventSubscription (host: FastifyInstance, helpdesk: Helpdesk, options: HelpdeskPluginOptions): void {
  const onEvent = options.onEvent
  if (onEvent === undefined) return
  const unsubscribe = helpdesk.events.subscribe(async (event) => {
    try {
      await onEvent(event)
    } catch (error) {
      host.log.error({ err: error, event: event.type }, 'the onEvent subscriber failed')
    }
  })
  host.addHook('onClose', async () => { unsubscribe() })
}
