import type { FastifyInstance } from 'fastify'
import type { Helpdesk } from '@helpdesk/core'
import type { HelpdeskPluginOptions } from '../options.js'

/**
 * The one place background work starts in a server: `helpdesk.jobs` runs
 * from `onReady` to `onClose` (which waits for the jobs under way), unless the
 * `workers` option is false.
 */
export function installJobWorkers (host: FastifyInstance, helpdesk: Helpdesk, options: HelpdeskPluginOptions): void {
  const workers = options.workers ?? true
  if (workers === false) return
  helpdesk.jobs.onError = (error, job) => {
    host.log.error({ err: error, job: job === undefined ? undefined : { id: job.id, type: job.type } }, 'the job runner failed')
  }
  host.addHook('onReady', async () => {
    helpdesk.jobs.start(typeof workers === 'object' ? workers : {})
  })
  host.addHook('onClose', async () => { await helpdesk.jobs.stop() })
}
