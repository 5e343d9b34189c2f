import { Command } from 'commander'
import { CliError } from '../config-file.js'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface UsersCreateOptions {
  database?: string
  config?: string
  role: string
  email: string
  password: string
  firstName?: string
  lastName?: string
  json?: boolean
}

/** Creates an Active user through the same services the API uses. */
export async function usersCreate (options: UsersCreateOptions, io: CliIo): Promise<number> {
  const { createUserOfRole, roleFromType } = await import('@helpdesk/core')
  const role = roleFromType(options.role)
  if (role === null) throw new CliError(`unknown role "${options.role}" (use admin, agent or customer)`)
  const input = {
    first_name: options.firstName ?? options.role.charAt(0).toUpperCase() + options.role.slice(1),
    last_name: options.lastName ?? 'User',
    email: options.email,
    password: options.password
  }
  return await withConfiguredHelpdesk(options, async (helpdesk) => {
    const user = await createUserOfRole(helpdesk, role, input)
    if (options.json === true) io.out(JSON.stringify({ id: user.id, role: options.role, email: user.email }))
    else io.out(`Created ${options.role} #${user.id} ${user.email}`)
    return user.id
  })
}

export function usersCreateCommand (io: CliIo): Command {
  return new Command('users:create')
    .description('Create an administrator, agent or customer')
    .requiredOption('--role <role>', 'admin, agent or customer')
    .requiredOption('--email <email>', 'email address (unique)')
    .requiredOption('--password <password>', 'password (at least 6 characters)')
    .option('--first-name <name>', 'first name')
    .option('--last-name <name>', 'last name')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print {"id", "role", "email"} of the created user')
    .addHelpText('after', '\nExamples:\n  helpdesk users:create --role admin --email ann@example.com --password s3cret! --first-name Ann --last-name Lee\n  helpdesk users:create --role agent --email bo@example.com --password s3cret! --json')
    .action(async (options: UsersCreateOptions) => { await usersCreate(options, io) })
}
