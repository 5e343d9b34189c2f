import { Command } from 'commander'
import { databaseUrl } from '../config.js'
import type { CliIo } from '../io.js'
import { openStore } from '../open-store.js'

export async function migrate (options: { database?: string }, io: CliIo): Promise<string[]> {
  const store = await openStore(databaseUrl(options.database))
  try {
    const applied = await store.migrate()
    io.out(applied.length === 0 ? 'Database is up to date.' : `Applied migrations: ${applied.join(', ')}`)
    return applied
  } finally {
    await store.close()
  }
}

export function migrateCommand (io: CliIo): Command {
  return new Command('migrate')
    .description('Apply pending database migrations')
    .option('--database <url>', 'sqlite:PATH or postgres://... (env HELPDESK_DATABASE_URL)')
    .addHelpText('after', '\nExample:\n  helpdesk migrate --database postgres://postgres@127.0.0.1/helpdesk')
    .action(async (options: { database?: string }) => { await migrate(options, io) })
}
