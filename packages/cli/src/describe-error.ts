import { HelpdeskError, ValidationError } from '@helpdesk/core'
import { CliError } from './config.js'

/**
 * A user mistake or an environment problem as one line that says how to fix
 * it (no stack trace); anything else is a bug and keeps its stack.
 */
export function describeError (error: unknown): string {
  if (error instanceof ValidationError) {
    return Object.entries(error.errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`).join('; ')
  }
  if (error instanceof HelpdeskError || error instanceof CliError) return error.message
  return startupProblem(error) ?? (error as Error)?.stack ?? String(error)
}

interface SystemError { code?: unknown, syscall?: unknown, address?: unknown, port?: unknown, name?: unknown, message?: unknown }

/** Errors of the environment a server meets at start-up (the port, the migration lock), with the fix. */
function startupProblem (error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null
  const e = error as SystemError
  if (e.name === 'MigrationLocked') {
    return 'the database\'s migration lock is held: another helpdesk process is migrating it, so wait for it to finish; ' +
      'if none is running (a migration was interrupted), release the lock with `helpdesk migrate --unlock`'
  }
  if (e.syscall === 'listen') {
    const where = e.port === undefined ? String(e.address ?? 'the address') : `${String(e.address ?? '')}:${String(e.port)}`
    switch (e.code) {
      case 'EADDRINUSE':
        return `cannot listen on ${where}: the port is already in use; stop the other server or choose another port with --port (env PORT; 0 picks a free one)`
      case 'EACCES':
        return `cannot listen on ${where}: permission denied (ports below 1024 need privileges); use a port from 1024 up with --port (env PORT), behind a reverse proxy`
      case 'EADDRNOTAVAIL':
        return `cannot listen on ${where}: the address is not one of this machine's; use --host 127.0.0.1, or 0.0.0.0 for every interface (env HOST)`
      default:
        return `cannot listen on ${where}: ${String(e.message ?? e.code)}; check --host and --port (env HOST, PORT)`
    }
  }
  return null
}
