/** A worker process for the kill -9 test: claims `crash.test` jobs, says so, and never finishes them. */
import { JobRunner, systemClock } from '@helpdesk/core'
import { createKnexStore } from '../src/index.js'

const store = createKnexStore({ url: process.argv[2]! })
const runner = new JobRunner(store, systemClock)
runner.register('crash.test', async (job) => {
  process.stdout.write(`claimed ${job.id}\n`)
  await new Promise(() => {})
}, { leaseMs: 1500 })
runner.start({ pollMs: 100 })
