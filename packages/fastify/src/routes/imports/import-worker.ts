import type { FastifyBaseLogger } from 'fastify'
import type { ImportService } from '@helpdesk/core'

/** How often an instance looks for queued or abandoned import jobs besides its own uploads. */
const POLL_MS = 60_000

/**
 * Runs import jobs in the background of this instance. Jobs live in the
 * database: an upload is run by the instance that received it, and a job left
 * queued or running by an instance that stopped is picked up by the next poll
 * of any instance.
 */
export class ImportWorker {
  private running: Promise<void> | null = null
  private again = false
  private timer: NodeJS.Timeout | null = null

  constructor (private readonly imports: ImportService, private readonly log: FastifyBaseLogger) {}

  start (): void {
    this.kick()
    this.timer = setInterval(() => { this.kick() }, POLL_MS)
    this.timer.unref()
  }

  /** Runs pending jobs now, or once more after the current run when one is under way. */
  kick (): void {
    if (this.running !== null) {
      this.again = true
      return
    }
    this.running = (async () => {
      do {
        this.again = false
        try {
          await this.imports.runPending()
        } catch (error) {
          this.log.error({ err: error }, 'import job failed')
        }
      } while (this.again)
    })().finally(() => { this.running = null })
  }

  /** Stops polling and waits for the job under way. */
  async stop (): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    this.again = false
    await this.running
  }
}
