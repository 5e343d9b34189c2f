import { Command } from 'commander'
import { databaseUrl } from '../config.js'
import type { CliIo } from '../io.js'
import { withHelpdesk } from '../open-store.js'

/** Issues an API token for a user and prints it alone on stdout (for scripts). */
export async function tokensCreate (options: { database?: string, email: string, name?: string }, io: CliIo): Promise<string> {
  return await withHelpdesk(databaseUrl(options.database), async (helpdesk) => {
    const issued = await helpdesk.auth.createTokenForEmail(options.email, options.name ?? 'cli')
    io.out(issued.token)
    return issued.token
  })
}

export function tokensCreateCommand (io: CliIo): Command {
  return new Command('tokens:create')
    .description('Create an API token for a user; prints the token alone')
    .requiredOption('--email <email>', 'the user\'s email')
    .option('--name <name>', 'a label for the token', 'cli')
    .option('--database <url>', 'sqlite:PATH or postgres://... (env HELPDESK_DATABASE_URL)')
    .addHelpText('after', '\nExample:\n  TOKEN=$(helpdesk tokens:create --email admin@example.com)\n  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:3000/api/v1/auth/me')
    .action(async (options: { database?: string, email: string, name?: string }) => { await tokensCreate(options, io) })
}
