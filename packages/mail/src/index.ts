export { parseAuthenticationResults, parseMail, receiveRaw, type MailEnvelope } from './parse-mail.js'
export { createSmtpTransport } from './smtp-transport.js'
export { SMTP_LISTENER_DEFAULTS, startSmtpListener, type SmtpListener, type SmtpListenerOptions } from './smtp-listener.js'
export { startImapPoller, type ImapPoller, type ImapPollerOptions } from './imap-poller.js'
