import type { SystemActor } from '@helpdesk/core'

/**
 * Who the administrative commands act as: the help desk itself, through the
 * command line (core's `systemActor('cli')`, written out here so that a
 * command loads no more of core than it uses).
 */
export const CLI_ACTOR: SystemActor = Object.freeze({ kind: 'system', name: 'cli' })
