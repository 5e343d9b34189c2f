import { Command } from 'commander'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface ReportsRebuildOptions { database?: string, config?: string, json?: boolean }

/** Empties the report rollups and computes them again from every ticket (docs/reports.md), with a progress bar. */
export async function rebuildReportsCommand (options: ReportsRebuildOptions, io: CliIo): Promise<void> {
  const [{ progressBar }, { SYSTEM }] = await Promise.all([import('../progress.js'), import('@helpdesk/core')])
  await withConfiguredHelpdesk(options, async (helpdesk) => {
    const bar = progressBar('Rebuilding reports', options.json !== true)
    const started = Date.now()
    try {
      const { tickets } = await helpdesk.reports.rebuild(SYSTEM, (done, total) => { bar.update(done, total) })
      bar.stop()
      const seconds = (Date.now() - started) / 1000
      io.out(options.json === true ? JSON.stringify({ tickets, seconds }) : `Rebuilt the reports of ${tickets} tickets in ${seconds.toFixed(1)} s.`)
    } finally {
      bar.stop()
    }
  })
}

export function reportsRebuildCommand (io: CliIo): Command {
  return new Command('reports:rebuild')
    .description('Compute the report rollups again from every ticket (after a restore, or to repair them); safe while the help desk runs')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print {"tickets", "seconds"} (no progress bar)')
    .addHelpText('after', '\nExample:\n  helpdesk reports:rebuild --database sqlite:./helpdesk.db')
    .action(async (options: ReportsRebuildOptions) => { await rebuildReportsCommand(options, io) })
}
