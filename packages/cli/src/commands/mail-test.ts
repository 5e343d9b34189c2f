import { Command } from 'commander'
import { CliError } from '../config-file.js'
import { configOption } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface MailTestOptions { to: string, config?: string, json?: boolean }

/** Sends one test mail through the configured SMTP server, now (not queued), and prints what the server answered. */
export async function mailTest (options: MailTestOptions, io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<{ response: string, messageId: string }> {
  const [{ composeTestMail }, { createSmtpTransport }, { loadConfig }] = await Promise.all([import('@helpdesk/core'), import('@helpdesk/mail'), import('../config.js')])
  const mail = loadConfig({ config: options.config }, env).plugin.mail
  if (mail?.smtpUrl === undefined) throw new CliError('no SMTP server configured: set HELPDESK_SMTP_URL and HELPDESK_MAIL_FROM (see docs/mail.md)')
  if (!/^[^\s@]+@[^\s@]+$/.test(options.to)) throw new CliError(`--to must be an email address, got "${options.to}"`)
  const transport = createSmtpTransport(mail.smtpUrl)
  const message = composeTestMail(mail, options.to)
  try {
    const { response } = await transport.send(message)
    const result = { response, messageId: message.messageId }
    io.out(options.json === true ? JSON.stringify({ to: options.to, ...result }) : `Sent to ${options.to} (${message.messageId}). The server said: ${response}`)
    return result
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\/\/[^@\s/]*@/g, '//***@')
    throw new CliError(`the SMTP server did not take the mail: ${reason}`)
  } finally {
    await transport.close?.()
  }
}

export function mailTestCommand (io: CliIo): Command {
  return new Command('mail:test')
    .description('Send a test mail through the configured SMTP server and print what it answered')
    .requiredOption('--to <address>', 'the recipient')
    .addOption(configOption())
    .option('--json', 'print {"to", "response", "messageId"} instead of text')
    .addHelpText('after', '\nExamples:\n  helpdesk mail:test --to me@example.com\n  HELPDESK_SMTP_URL=smtp://user:pass@smtp.example.com:587 HELPDESK_MAIL_FROM=support@example.com helpdesk mail:test --to me@example.com --json')
    .action(async (options: MailTestOptions) => { await mailTest(options, io) })
}
