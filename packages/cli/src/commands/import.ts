import { Command } from 'commander'
import type { ImportFormat, ImportJob } from '@helpdesk/core'
import { CliError } from '../config-file.js'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface ImportOptions { database?: string, config?: string, format?: ImportFormat, batchSize?: string, json?: boolean }

/** Imports a JSON, JSON Lines or CSV file (docs/import-format.md); resolves with the finished job. */
export async function importCommandAction (file: string, options: ImportOptions, io: CliIo): Promise<ImportJob> {
  const [{ existsSync }, { progressBar }] = await Promise.all([import('node:fs'), import('../progress.js')])
  if (!existsSync(file)) throw new CliError(`file ${file} does not exist`)
  const batchSize = options.batchSize === undefined ? undefined : Number(options.batchSize)
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100_000)) {
    throw new CliError(`--batch-size must be an integer from 1 to 100000, got "${options.batchSize}"`)
  }
  if (options.format !== undefined && !['json', 'jsonl', 'csv'].includes(options.format)) {
    throw new CliError(`--format must be json, jsonl or csv, got "${options.format}"`)
  }
  return await withConfiguredHelpdesk(options, async (helpdesk) => {
    const bar = progressBar('Importing', options.json !== true)
    const started = Date.now()
    let job: ImportJob
    try {
      job = await helpdesk.imports.importFile(file, {
        ...(options.format !== undefined ? { format: options.format } : {}),
        ...(batchSize !== undefined ? { batchSize } : {}),
        onProgress: bar.update
      })
    } finally {
      bar.stop()
    }
    const seconds = (Date.now() - started) / 1000
    if (options.json === true) {
      io.out(JSON.stringify({ ...job, seconds }))
    } else if (job.status === 'completed') {
      io.out(`Imported ${file}: ${job.processed} records, ${job.created} rows created in ${seconds.toFixed(1)} s.`)
    }
    if (job.status !== 'completed') throw new CliError(`import failed: ${job.message ?? 'unknown error'} (${job.failed} records of that batch not written)`)
    return job
  })
}

export function importCommand (io: CliIo): Command {
  return new Command('import')
    .description('Import customers, agents, categories, tickets and comments (JSON, JSON Lines or CSV)')
    .argument('<file>', 'the file to import (see docs/import-format.md)')
    .option('--format <format>', 'json, jsonl or csv (default: from the extension or content)')
    .option('--batch-size <n>', 'records per transaction (default 500)')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print the finished job as JSON (no progress bar)')
    .addHelpText('after', '\nExamples:\n  helpdesk import examples/import/sample.jsonl\n  helpdesk import customers.csv --database postgres://postgres@127.0.0.1/helpdesk')
    .action(async (file: string, options: ImportOptions) => { await importCommandAction(file, options, io) })
}
