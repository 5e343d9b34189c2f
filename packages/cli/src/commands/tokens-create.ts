import { Command } from 'commander'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface TokensCreateOptions { database?: string, config?: string, email: string, name?: string, json?: boolean }

/** Issues an API token for a user and prints it alone on stdout (for scripts), or as JSON with its id. */
export async function tokensCreate (options: TokensCreateOptions, io: CliIo): Promise<string> {
  return await withConfiguredHelpdesk(options, async (helpdesk) => {
    const issued = await helpdesk.auth.createTokenForEmail(options.email, options.name ?? 'cli')
    io.out(options.json === true ? JSON.stringify({ id: issued.id, name: issued.name, token: issued.token }) : issued.token)
    return issued.token
  })
}

export function tokensCreateCommand (io: CliIo): Command {
  return new Command('tokens:create')
    .description('Create an API token for a user; prints the token alone')
    .requiredOption('--email <email>', 'the user\'s email')
    .option('--name <name>', 'a label for the token', 'cli')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print {"id", "name", "token"} instead of the token alone')
    .addHelpText('after', '\nExamples:\n  TOKEN=$(helpdesk tokens:create --email admin@example.com)\n  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:3000/api/v1/auth/me\n  helpdesk tokens:create --email admin@example.com --name deploy-bot --json')
    .action(async (options: TokensCreateOptions) => { await tokensCreate(options, io) })
}
