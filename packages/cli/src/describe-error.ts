import { HelpdeskError, ValidationError } from '@helpdesk/core'
import { CliError } from './config.js'

/** A user mistake as one line (no stack trace); anything else is a bug and keeps its stack. */
export function describeError (error: unknown): string {
  if (error instanceof ValidationError) {
    return Object.entries(error.errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`).join('; ')
  }
  if (error instanceof HelpdeskError || error instanceof CliError) return error.message
  return (error as Error)?.stack ?? String(error)
}
