#!/usr/bin/env node
import { run } from './program.js'

// `helpdesk ... | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => { if (error.code === 'EPIPE') process.exit(0) })

run(process.argv.slice(2)).then((code) => {
  if (code !== 0) process.exitCode = code
}, (error: unknown) => {
  process.stderr.write(`error: ${String(error)}\n`)
  process.exitCode = 1
})
