import type { FastifyInstance } from 'fastify'
import type { AvatarResolver, Helpdesk } from '@helpdesk/core'
import type { HelpdeskPluginOptions } from '../options.js'
import { registerWebhookDelivery } from '@helpdesk/webhooks'

/**
 * The one place background work starts in a server: the webhook delivery
 * handler joins core's job handlers, and `helpdesk.jobs` runs from `onReady`
 * to `onClose` (which waits for the jobs under way), unless the `workers`
 * option is false (jobs are then run by another process sharing the database).
 * The runner's failures are logged with the app's logger, then handed to the
 * handler the host set on `helpdesk.jobs.onError` before, if any.
 */
export function installJobWorkers (host: FastifyInstance, helpdesk: Helpdesk, options: HelpdeskPluginOptions, avatar: AvatarResolver): void {
  const closeDelivery = registerWebhookDelivery(helpdesk, avatar, options.webhooks)
  const workers = options.workers ?? true
  if (workers !== false) {
    const previous = helpdesk.jobs.onError
    const logged: typeof previous = (error, job) => {
      host.log.error({ err: error, job: job === undefined ? undefined : { id: job.id, type: job.type } }, 'the job runner failed')
      previous(error, job)
    }
    helpdesk.jobs.onError = logged
    host.addHook('onReady', async () => {
      helpdesk.jobs.start(typeof workers === 'object' ? workers : {})
    })
    host.addHook('onClose', async () => {
      await helpdesk.jobs.stop()
      if (helpdesk.jobs.onError === logged) helpdesk.jobs.onError = previous
    })
  }
  // After the runner stopped: no delivery is under way any more.
  host.addHook('onClose', async () => { await closeDelivery() })
}
