import { Command } from 'commander'
import { configOption, databaseOption } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface MigrateOptions { database?: string, config?: string, json?: boolean, unlock?: boolean }

/** Applies pending migrations; resolves with the names applied (none when the database is up to date). */
export async function migrate (options: MigrateOptions, io: CliIo): Promise<string[]> {
  const [{ databaseUrl }, { openStore }] = await Promise.all([import('../config.js'), import('../open-store.js')])
  const store = await openStore(databaseUrl(options.database, process.env, options.config))
  try {
    if (options.unlock === true) {
      await store.releaseMigrationLock()
      io.err('Released the migration lock.')
    }
    const applied = await store.migrate()
    if (options.json === true) io.out(JSON.stringify({ applied }))
    else io.out(applied.length === 0 ? 'Database is up to date.' : `Applied migrations: ${applied.join(', ')}`)
    return applied
  } finally {
    await store.close()
  }
}

export function migrateCommand (io: CliIo): Command {
  return new Command('migrate')
    .description('Apply pending database migrations')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print {"applied": [names]}')
    .option('--unlock', 'first release a migration lock left held by an interrupted migration (only when no other helpdesk is migrating)')
    .addHelpText('after', '\nExamples:\n  helpdesk migrate\n  helpdesk migrate --database postgres://postgres@127.0.0.1/helpdesk --json')
    .action(async (options: MigrateOptions) => { await migrate(options, io) })
}
