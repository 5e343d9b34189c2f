import { Command, Option } from 'commander'
import type { Job, JobStatus } from '@helpdesk/core'
import { CliError } from '../config-file.js'
import { configOption, databaseOption, withConfiguredHelpdesk } from '../command-options.js'
import type { CliIo } from '../io.js'

export interface JobsOptions { database?: string, config?: string, status?: string, type?: string, limit?: string, json?: boolean }

const STATUSES: JobStatus[] = ['pending', 'running', 'done', 'failed']

/**
 * Lists background jobs, newest first: by default those waiting or given up (pending, running,
 * failed). Reads the jobs list (`jobList`) by cursor pages until `--limit` jobs are in.
 */
export async function listJobs (options: JobsOptions, io: CliIo): Promise<Job[]> {
  const status = (options.status ?? 'pending,running,failed').split(',').map((s) => s.trim()).filter((s) => s !== '') as JobStatus[]
  const limit = Number(options.limit ?? 50)
  if (!Number.isSafeInteger(limit) || limit < 1) throw new CliError(`the limit must be a positive whole number, got "${options.limit}"`)
  return await withConfiguredHelpdesk(options, async (helpdesk) => {
    const { jobList, PAGE_MAX_SIZE, parseListQuery } = await import('@helpdesk/core')
    const filters: Record<string, string> = {}
    if (status.length > 0) filters.status = status.join(',')
    if (options.type !== undefined) filters.type = options.type
    const jobs: Job[] = []
    for (let cursor: string | null = ''; cursor !== null && jobs.length < limit;) {
      const page = await helpdesk.jobs.list(parseListQuery(jobList, { filters, per_page: Math.min(PAGE_MAX_SIZE, limit - jobs.length), cursor }))
      jobs.push(...page.items)
      cursor = page.cursors?.next ?? null
    }
    if (options.json === true) {
      io.out(JSON.stringify(jobs))
    } else if (jobs.length === 0) {
      io.out('No jobs.')
    } else {
      for (const job of jobs) {
        const error = job.last_error !== null ? `  ${job.last_error.split('\n')[0]}` : ''
        io.out(`${job.id}\t${job.type}\t${job.status}\tattempts ${job.attempts}/${job.maxAttempts}\trun at ${job.run_at}${error}`)
      }
    }
    return jobs
  })
}

export function jobsCommand (io: CliIo): Command {
  return new Command('jobs')
    .description('List background jobs (pending, running and failed by default)')
    .addOption(new Option('--status <list>', 'comma-separated statuses').default('pending,running,failed'))
    .option('--type <type>', 'only jobs of this type (e.g. webhook.deliver, import.run)')
    .option('--limit <n>', 'at most this many, newest first', '50')
    .addOption(databaseOption())
    .addOption(configOption())
    .option('--json', 'print the jobs as one JSON array')
    .addHelpText('after', `\nStatuses: ${STATUSES.join(', ')}.\n\nExamples:\n  helpdesk jobs\n  helpdesk jobs --status failed --type webhook.deliver --json`)
    .action(async (options: JobsOptions) => { await listJobs(options, io) })
}
