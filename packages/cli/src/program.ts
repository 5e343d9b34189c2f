import { Command, CommanderError } from 'commander'
import { processIo, type CliIo } from './io.js'
import { doctorCommand } from './commands/doctor.js'
import { importCommand } from './commands/import.js'
import { mailRotateReplyKeyCommand } from './commands/mail-rotate-reply-key.js'
import { mailTestCommand } from './commands/mail-test.js'
import { migrateCommand } from './commands/migrate.js'
import { seedCommand } from './commands/seed.js'
import { serveCommand } from './commands/serve.js'
import { tokensCreateCommand } from './commands/tokens-create.js'
import { usersCreateCommand } from './commands/users-create.js'
import { jobsCommand } from './commands/jobs.js'
import { jobsRetryCommand } from './commands/jobs-retry.js'
import { reportsRebuildCommand } from './commands/reports-rebuild.js'
import { webhooksCreateCommand } from './commands/webhooks-create.js'
import { webhooksDeleteCommand } from './commands/webhooks-delete.js'
import { webhooksListCommand } from './commands/webhooks-list.js'
import { webhooksRotateCommand } from './commands/webhooks-rotate.js'

/**
 * Every command, one file each. A command's definition (name, options, help)
 * is cheap to load: its action imports what it runs (the domain, the store,
 * Fastify, mail) only when it runs, so `--help` and `--version` load none of it.
 */
const commands = [serveCommand, migrateCommand, seedCommand, usersCreateCommand, tokensCreateCommand, importCommand, doctorCommand,
  jobsCommand, jobsRetryCommand, webhooksListCommand, webhooksCreateCommand, webhooksDeleteCommand, webhooksRotateCommand, mailTestCommand, mailRotateReplyKeyCommand, reportsRebuildCommand]

export function buildProgram (io: CliIo = processIo): Command {
  const output = { writeOut: (s: string) => { io.out(s.replace(/\n$/, '')) }, writeErr: (s: string) => { io.err(s.replace(/\n$/, '')) } }
  const program = new Command('helpdesk')
    .description('Self-hosted help desk: serve the API and administer it')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput(output)
  for (const make of commands) program.addCommand(make(io).exitOverride().configureOutput(output).showHelpAfterError('(run with --help for usage)'))
  return program
}

/** Runs the CLI; resolves to the exit code. */
export async function run (argv: string[], io: CliIo = processIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync(argv, { from: 'user' })
    return 0
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode
    // Loaded here: it knows the domain's errors, which `--help` must not load.
    const { describeError } = await import('./describe-error.js')
    io.err(`error: ${describeError(error)}`)
    return 1
  }
}
