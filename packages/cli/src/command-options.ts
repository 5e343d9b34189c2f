import { Option } from 'commander'
import type { Helpdesk } from '@helpdesk/core'

/** `--database`, which every command that opens the database takes. */
export const databaseOption = (): Option => new Option('--database <url>', 'sqlite:PATH or postgres://... (env HELPDESK_DATABASE_URL)')

/** `--config`: the config file to read instead of ./helpdesk.config.json or ./helpdesk.config.ts. */
export const configOption = (): Option => new Option('--config <file>', 'config file (env HELPDESK_CONFIG; default ./helpdesk.config.json or .ts)')

/** What `--database` and `--config` give a command. */
export interface DatabaseOptions { database?: string, config?: string }

/**
 * Runs `fn` with the help desk on the database the command names (`--database`,
 * then the environment, then the config file), closed afterwards. The store and
 * the domain load here, when the command runs, never for `--help`.
 */
export async function withConfiguredHelpdesk<T> (options: DatabaseOptions, fn: (helpdesk: Helpdesk) => Promise<T>): Promise<T> {
  const [{ databaseUrl }, { withHelpdesk }] = await Promise.all([import('./config.js'), import('./open-store.js')])
  return await withHelpdesk(databaseUrl(options.database, process.env, options.config), fn)
}
