import { Command } from 'commander'
import { CliError } from '../config-file.js'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'
import { CLI_ACTOR } from '../cli-actor.js'

export interface WebhooksCreateOptions {
  database?: string, config?: string, url: string, events?: string, description?: string, allowPrivateTargets?: boolean, json?: boolean
}

/** Creates an endpoint and prints its secret (shown this once). */
export async function createWebhook (options: WebhooksCreateOptions, io: CliIo): Promise<{ id: number, secret: string }> {
  const { checkWebhookTarget, WebhookTargetError } = await import('@helpdesk/fastify')
  try {
    await checkWebhookTarget(options.url, options.allowPrivateTargets === true)
  } catch (error) {
    if (error instanceof WebhookTargetError) throw new CliError(`url: ${error.message} (--allow-private-targets allows it)`)
    throw error
  }
  const events = (options.events ?? '*').split(',').map((e) => e.trim()).filter((e) => e !== '')
  return await withConfiguredHelpdesk(options, async (helpdesk) => {
    const { endpoint, secret } = await helpdesk.webhooks.create(CLI_ACTOR, { url: options.url, events, description: options.description ?? null })
    if (options.json === true) io.out(JSON.stringify({ ...endpoint, secret }))
    else io.out(`Webhook ${endpoint.id} created for ${endpoint.url}.\nSigning secret (shown once): ${secret}`)
    return { id: endpoint.id, secret }
  })
}

export function webhooksCreateCommand (io: CliIo): Command {
  return new Command('webhooks:create')
    .description('Create a webhook endpoint; prints its signing secret once')
    .requiredOption('--url <url>', 'where deliveries are POSTed (http or https)')
    .option('--events <list>', 'comma-separated event types, or * for all', '*')
    .option('--description <text>', 'a label for administrators')
    .option('--allow-private-targets', 'accept a loopback or private address (the server must allow them too)')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print the endpoint with its secret as JSON')
    .addHelpText('after', '\nExamples:\n  helpdesk webhooks:create --url https://crm.example.com/hooks/helpdesk --events Tickets.TicketCreated,Tickets.CommentAdded\n  helpdesk webhooks:create --url https://example.com/all --json')
    .action(async (options: WebhooksCreateOptions) => { await createWebhook(options, io) })
}
