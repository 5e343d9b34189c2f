/**
 * The cold start of `helpdesk serve`, measured as docs/perf-notes-startup.md
 * describes: spawn the built CLI on a migrated and seeded database, poll
 * `GET <probe>` with a bearer token every 5 ms until it answers 200, and read
 * the server's CPU time (user + system, /proc/PID/stat) at that moment. On a
 * shared machine the CPU time is the figure to compare; the wall clock is
 * printed for the record. Linux only (/proc).
 *
 *   pnpm build && node --import tsx bench/cold-start.ts [--runs 9] [--db sqlite|postgres] [--size 10k] [--prefix /api/v1]
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { ensureDatabase, runCli, type Db } from './bench-data.js'
import { freePort } from '../packages/fastify/test/free-port.js'
import { CLI_BIN } from './paths.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    db: { type: 'string', default: 'sqlite' },
    size: { type: 'string', default: '10k' },
    prefix: { type: 'string', default: '/api/v1' },
    args: { type: 'string', default: '' }
  }
})

/** Clock ticks per second of /proc/PID/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100

function cpuMs (pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces) start at field 3: utime is field 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 1000 / TICKS
}

async function once (database: string, token: string, prefix: string, extra: string[]): Promise<{ cpu: number, wall: number }> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, [CLI_BIN, 'serve', '--database', database, '--port', String(port), '--no-rate-limit', '--prefix', prefix, ...extra], {
    env: { ...process.env, LOG_LEVEL: 'warn', HELPDESK_STORAGE_DIR: '/tmp/helpdesk-bench-storage' },
    stdio: ['ignore', 'ignore', 'ignore']
  })
  const url = `http://127.0.0.1:${port}${prefix}/tickets/1`
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`)
      const status = await fetch(url, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status, () => 0)
      if (status === 200) break
      if (status !== 0) throw new Error(`serve answered ${status}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return { cpu: cpuMs(child.pid ?? 0), wall: performance.now() - started }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}

function summary (label: string, xs: number[]): string {
  const sorted = [...xs].sort((a, b) => a - b)
  const median = sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] ?? 0 : ((sorted[sorted.length / 2 - 1] ?? 0) + (sorted[sorted.length / 2] ?? 0)) / 2
  return `${label}: min ${Math.round(sorted[0] ?? 0)} ms, median ${Math.round(median)} ms (${sorted.map(Math.round).join(', ')})`
}

async function nodeBaseline (): Promise<number> {
  // `node -e 0`'s CPU time, read from its own /proc entry just before it exits.
  return await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', `process.stdout.write(require('fs').readFileSync('/proc/self/stat','utf8'))`], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString() })
    child.on('error', reject)
    child.on('exit', () => {
      const fields = out.slice(out.lastIndexOf(')') + 2).split(' ')
      resolve((Number(fields[11]) + Number(fields[12])) * 1000 / TICKS)
    })
  })
}

const data = await ensureDatabase(values.db as Db, values.size, { reseed: false })
const token = (await runCli(['tokens:create', '--email', 'admin@example.com', '--database', data.url])).trim()
const extra = values.args === '' ? [] : values.args.split(' ')
const cpu: number[] = []
const wall: number[] = []
const node: number[] = []
for (let run = 0; run < Number(values.runs); run++) {
  const result = await once(data.url, token, values.prefix, extra)
  cpu.push(result.cpu)
  wall.push(result.wall)
  node.push(await nodeBaseline())
}
console.log(`helpdesk serve cold start, ${values.db} ${values.size}, ${values.runs} runs (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`)
console.log(summary('  CPU (user+sys) at first 200', cpu))
console.log(summary('  wall clock to first 200    ', wall))
console.log(summary('  node -e 0 CPU              ', node))
