import { Command } from 'commander'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface MailRotateReplyKeyOptions { database?: string, config?: string, retireOlder?: boolean, json?: boolean }

/** A new key for signing reply addresses; the older ones keep verifying unless retired. The secret is never printed. */
export async function rotateReplyKey (options: MailRotateReplyKeyOptions, io: CliIo): Promise<{ id: number, retired: number }> {
  return await withConfiguredHelpdesk(options, async (helpdesk) => {
    const result = await helpdesk.mail.rotateReplyKey({ retireOlder: options.retireOlder === true })
    io.out(options.json === true
      ? JSON.stringify(result)
      : `Reply addresses are now signed with key ${result.id}${result.retired > 0 ? `; ${result.retired} older key(s) retired: replies to addresses they signed are refused` : '; the older keys still verify the addresses of mails already sent'}.`)
    return result
  })
}

export function mailRotateReplyKeyCommand (io: CliIo): Command {
  return new Command('mail:rotate-reply-key')
    .description('Sign reply addresses with a new key (kept in the database); older keys keep verifying unless --retire-older')
    .option('--retire-older', 'stop accepting reply addresses signed by every older key')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print {"id", "retired"}')
    .addHelpText('after', '\nExamples:\n  helpdesk mail:rotate-reply-key\n  helpdesk mail:rotate-reply-key --retire-older')
    .action(async (options: MailRotateReplyKeyOptions) => { await rotateReplyKey(options, io) })
}
