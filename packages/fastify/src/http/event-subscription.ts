import type { FastifyInstance } from 'fastify'
import { loggedIdOf, type Helpdesk } from '@helpdesk/core'
import type { HelpdeskPluginOptions } from '../options.js'

/**
 * Subscribes the host's `onEvent` to committed domain events (never to a
 * change that rolled back) and unsubscribes when the app closes. Host apps may
 * also call `app.helpdesk.events.subscribe(fn)` themselves.
 *
 * A subscriber that throws (`onEvent` or the host's own) is counted by the
 * bus (`helpdesk.events.subscriberErrors`, shown by `/ready`) and logged here
 * once, with the app's logger bound to the event: subscribers run after the
 * commit, detached from the request, and reaching the request's logger would
 * take AsyncLocalStorage, a cost on every request. A handler the host set on
 * the bus before still runs after the log line; on close it is put back
 * unless something else replaced the plugin's meanwhile.
 */
export function installEventSubscription (host: FastifyInstance, helpdesk: Helpdesk, options: HelpdeskPluginOptions): void {
  const bus = helpdesk.events
  const previous = bus.onError
  const logged: typeof bus.onError = (error, event) => {
    host.log.error({ err: error, event: { type: event.type, actor_id: event.actor_id, id: loggedIdOf(event) } }, 'an event subscriber failed')
    previous(error, event)
  }
  bus.onError = logged
  const onEvent = options.onEvent
  const unsubscribe = onEvent === undefined ? () => {} : bus.subscribe(onEvent)
  host.addHook('onClose', async () => {
    unsubscribe()
    if (bus.onError === logged) bus.onError = previous
  })
}
