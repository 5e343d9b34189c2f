import { Command } from 'commander'
import { CliError } from '../config-file.js'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'
import { CLI_ACTOR } from '../cli-actor.js'

export interface WebhooksRotateOptions { database?: string, config?: string, overlap?: string, json?: boolean }

/** A new signing secret; the old one keeps signing during the overlap. */
export async function rotateWebhook (id: string, options: WebhooksRotateOptions, io: CliIo): Promise<string> {
  if (!/^\d+$/.test(id)) throw new CliError(`the webhook id must be a number, got "${id}"`)
  if (options.overlap !== undefined && !/^\d+$/.test(options.overlap)) throw new CliError(`--overlap must be a number of seconds, got "${options.overlap}"`)
  return await withConfiguredHelpdesk(options, async (helpdesk) => {
    const { endpoint, secret } = await helpdesk.webhooks.rotateSecret(CLI_ACTOR, Number(id), options.overlap !== undefined ? Number(options.overlap) : undefined)
    io.out(options.json === true ? JSON.stringify({ id: endpoint.id, secret }) : `New signing secret of webhook ${endpoint.id} (shown once): ${secret}`)
    return secret
  })
}

export function webhooksRotateCommand (io: CliIo): Command {
  return new Command('webhooks:rotate')
    .description('Rotate a webhook endpoint\'s signing secret; prints the new one once')
    .argument('<id>', 'the endpoint id')
    .option('--overlap <seconds>', 'how long the old secret keeps signing too (default 86400)')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print {"id", "secret"}')
    .addHelpText('after', '\nExamples:\n  helpdesk webhooks:rotate 3\n  helpdesk webhooks:rotate 3 --overlap 0')
    .action(async (id: string, options: WebhooksRotateOptions) => { await rotateWebhook(id, options, io) })
}
