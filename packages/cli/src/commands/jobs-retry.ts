import { Command } from 'commander'
import { CliError } from '../config-file.js'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface JobsRetryOptions { database?: string, config?: string, json?: boolean }

/** Makes a failed (or waiting) job run again now, with its attempts reset; a running server's workers pick it up. */
export async function retryJob (id: string, options: JobsRetryOptions, io: CliIo): Promise<void> {
  if (!/^\d+$/.test(id)) throw new CliError(`the job id must be a number, got "${id}"`)
  await withConfiguredHelpdesk(options, async (helpdesk) => {
    const retried = await helpdesk.jobs.retry(Number(id))
    if (!retried) throw new CliError(`no failed or pending job ${id}`)
    io.out(options.json === true ? JSON.stringify({ id: Number(id), status: 'pending' }) : `Job ${id} will run again now.`)
  })
}

export function jobsRetryCommand (io: CliIo): Command {
  return new Command('jobs:retry')
    .description('Run a failed job again now (its attempts start over)')
    .argument('<id>', 'the job id (from `helpdesk jobs`)')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print {"id", "status"}')
    .addHelpText('after', '\nExamples:\n  helpdesk jobs --status failed\n  helpdesk jobs:retry 42')
    .action(async (id: string, options: JobsRetryOptions) => { await retryJob(id, options, io) })
}
