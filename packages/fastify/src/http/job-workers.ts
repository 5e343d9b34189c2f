import type { FastifyInstance } from 'fastify'
import type { AvatarResolver, Helpdesk } from '@helpdesk/core'
import type { ImapPoller, SmtpListener } from '@helpdesk/mail'
import { registerWebhookDelivery } from '@helpdesk/webhooks'
import type { HelpdeskPluginOptions, InboundMailWorkerOptions } from '../options.js'

/** The inbound mail doors running in this process, once the app is ready (null: not configured). */
export interface HelpdeskInbound {
  smtp: SmtpListener | null
  imap: ImapPoller | null
  /** Stops new mail (the listener, then the poller); the app's close does it too. For a host that stops mail before its HTTP grace period. */
  close: () => Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The SMTP listener and IMAP poller the plugin started (`inboundMail`), for the host (the listener's port). */
    helpdeskInbound: HelpdeskInbound
  }
}

/**
 * The inbound mail doors of `options`, started in order (a failure closes the ones already started, then throws).
 * The mail package's listener and poller (SMTP server, MIME parser, IMAP client) load only when configured.
 */
async function startInboundMail (host: FastifyInstance, helpdesk: Helpdesk, options: InboundMailWorkerOptions, inbound: HelpdeskInbound): Promise<void> {
  const mail = await import('@helpdesk/mail')
  if (options.smtp !== undefined) {
    inbound.smtp = await mail.startSmtpListener({
      ...options.smtp,
      inbound: helpdesk.mail.inbound,
      onError: (error) => { host.log.error({ err: error }, 'inbound mail') }
    })
  }
  if (options.imap !== undefined) {
    try {
      inbound.imap = await mail.startImapPoller({
        ...options.imap,
        inbound: helpdesk.mail.inbound,
        onError: (error) => { host.log.error({ err: error }, 'inbound mail (IMAP)') }
      })
    } catch (error) {
      await inbound.smtp?.close()
      inbound.smtp = null
      throw error
    }
  }
}

/**
 * The one place background work starts in a server, for `helpdesk serve` and an embedding host alike. Core's job
 * handlers were registered by `createHelpdesk` (`registerCoreJobs`); the channels' join them here (webhook delivery,
 * `@helpdesk/webhooks`). Then, from `onReady` to `onClose`:
 *
 * - `helpdesk.jobs` runs (its `onClose` waits for the jobs under way), unless the `workers` option is false (jobs are
 *   then run by another process sharing the database). The runner's failures are logged with the app's logger, then
 *   handed to the handler the host set on `helpdesk.jobs.onError` before, if any.
 * - the inbound mail doors of `inboundMail` (SMTP listener, IMAP poller) receive mail, whatever `workers` says: they
 *   are doors. New mail stops first on close (a sender whose message was cut off retries it).
 */
export function installJobWorkers (host: FastifyInstance, helpdesk: Helpdesk, options: HelpdeskPluginOptions, avatar: AvatarResolver): void {
  const closeDelivery = registerWebhookDelivery(helpdesk, avatar, options.webhooks)
  const inbound: HelpdeskInbound = {
    smtp: null,
    imap: null,
    close: async () => {
      const { smtp, imap } = inbound
      inbound.smtp = null
      inbound.imap = null
      await smtp?.close()
      await imap?.close()
    }
  }
  host.decorate('helpdeskInbound', inbound)
  const inboundMail = options.inboundMail
  if (inboundMail?.smtp !== undefined || inboundMail?.imap !== undefined) {
    host.addHook('onReady', async () => { await startInboundMail(host, helpdesk, inboundMail, inbound) })
    host.addHook('preClose', async () => { await inbound.close() })
  }
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
