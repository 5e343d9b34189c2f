import { Command } from 'commander'
import type { WebhookEndpoint } from '@helpdesk/core'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'
import { CLI_ACTOR } from '../cli-actor.js'

export interface WebhooksListOptions { database?: string, config?: string, json?: boolean }

export async function listWebhooks (options: WebhooksListOptions, io: CliIo): Promise<WebhookEndpoint[]> {
  return await withConfiguredHelpdesk(options, async (helpdesk) => {
    const endpoints = await helpdesk.webhooks.list(CLI_ACTOR)
    if (options.json === true) io.out(JSON.stringify(endpoints))
    else if (endpoints.length === 0) io.out('No webhook endpoints.')
    else for (const e of endpoints) io.out(`${e.id}\t${e.active ? 'active' : 'off'}\t${e.url}\t${e.events.join(',')}${e.description !== null ? `\t${e.description}` : ''}`)
    return endpoints
  })
}

export function webhooksListCommand (io: CliIo): Command {
  return new Command('webhooks:list')
    .description('List webhook endpoints')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print the endpoints as one JSON array')
    .addHelpText('after', '\nExamples:\n  helpdesk webhooks:list\n  helpdesk webhooks:list --json')
    .action(async (options: WebhooksListOptions) => { await listWebhooks(options, io) })
}
