import { Command } from 'commander'
import { accessSync, constants, mkdirSync } from 'node:fs'
import type { ConfigFlags, HelpdeskConfig } from '../config.js'
import { configOption, databaseOption } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface Check { name: string, ok: boolean, detail: string, fix?: string }

/** Checks configuration, database connectivity, migrations and the storage directory; says what to fix. */
export async function diagnose (flags: ConfigFlags): Promise<Check[]> {
  const [{ loadConfig, redact }, { openStore }, { describeError }] = await Promise.all([import('../config.js'), import('../open-store.js'), import('../describe-error.js')])
  const checks: Check[] = []
  let config: HelpdeskConfig
  try {
    config = loadConfig(flags)
    checks.push({ name: 'configuration', ok: true, detail: config.configFile ?? 'defaults and environment (no helpdesk.config.json)' })
  } catch (error) {
    checks.push({ name: 'configuration', ok: false, detail: describeError(error), fix: 'correct the value named above' })
    return checks
  }
  try {
    const store = await openStore(config.databaseUrl)
    try {
      checks.push({ name: 'database', ok: true, detail: `${store.dialect.name} at ${redact(config.databaseUrl)} answers` })
      const pending = await store.pendingMigrations()
      checks.push(pending.length === 0
        ? { name: 'migrations', ok: true, detail: 'up to date' }
        : { name: 'migrations', ok: false, detail: `${pending.length} pending: ${pending.join(', ')}`, fix: 'run `helpdesk migrate` (serve also migrates on start)' })
    } finally {
      await store.close()
    }
  } catch (error) {
    checks.push({ name: 'database', ok: false, detail: describeError(error), fix: 'check HELPDESK_DATABASE_URL / --database and that the server runs' })
  }
  try {
    mkdirSync(config.plugin.storageDir, { recursive: true })
    accessSync(config.plugin.storageDir, constants.W_OK | constants.R_OK)
    checks.push({ name: 'storage', ok: true, detail: `${config.plugin.storageDir} is writable` })
  } catch (error) {
    checks.push({ name: 'storage', ok: false, detail: `${config.plugin.storageDir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, fix: 'set HELPDESK_STORAGE_DIR to a writable directory' })
  }
  return checks
}

export async function doctor (flags: ConfigFlags & { json?: boolean }, io: CliIo): Promise<boolean> {
  const checks = await diagnose(flags)
  const healthy = checks.every((c) => c.ok)
  if (flags.json === true) {
    io.out(JSON.stringify({ healthy, checks }))
  } else {
    for (const c of checks) io.out(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}${c.fix !== undefined ? ` (fix: ${c.fix})` : ''}`)
  }
  return healthy
}

export function doctorCommand (io: CliIo): Command {
  return new Command('doctor')
    .description('Check configuration, database, migrations and storage, and say what to fix')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print the checks as JSON')
    .addHelpText('after', '\nExamples:\n  helpdesk doctor\n  helpdesk doctor --database postgres://postgres@127.0.0.1/helpdesk --json')
    .action(async (options: ConfigFlags & { json?: boolean }) => {
      if (!await doctor(options, io)) process.exitCode = 1
    })
}
