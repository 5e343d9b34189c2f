import { Option } from 'commander'

/** `--database`, which every command that opens the database takes. */
export const databaseOption = (): Option => new Option('--database <url>', 'sqlite:PATH or postgres://... (env HELPDESK_DATABASE_URL)')

/** `--config`: the config file to read instead of ./helpdesk.config.json or ./helpdesk.config.ts. */
export const configOption = (): Option => new Option('--config <file>', 'config file (env HELPDESK_CONFIG; default ./helpdesk.config.json or .ts)')
