import { Command } from 'commander'
import { CliError } from '../config-file.js'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'
import { CLI_ACTOR } from '../cli-actor.js'

export interface WebhooksDeleteOptions { database?: string, config?: string, json?: boolean }

export async function deleteWebhook (id: string, options: WebhooksDeleteOptions, io: CliIo): Promise<void> {
  if (!/^\d+$/.test(id)) throw new CliError(`the webhook id must be a number, got "${id}"`)
  await withConfiguredHelpdesk(options, async (helpdesk) => {
    await helpdesk.webhooks.delete(CLI_ACTOR, Number(id))
    io.out(options.json === true ? JSON.stringify({ id: Number(id), deleted: true }) : `Webhook ${id} deleted.`)
  })
}

export function webhooksDeleteCommand (io: CliIo): Command {
  return new Command('webhooks:delete')
    .description('Delete a webhook endpoint with its deliveries')
    .argument('<id>', 'the endpoint id (from `helpdesk webhooks:list`)')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print {"id", "deleted"}')
    .addHelpText('after', '\nExample:\n  helpdesk webhooks:delete 3')
    .action(async (id: string, options: WebhooksDeleteOptions) => { await deleteWebhook(id, options, io) })
}
