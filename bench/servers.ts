/**
 * The two servers under test, each a child process of the runner (autocannon
 * runs in the runner, never in the server's process): `helpdesk serve` as
 * shipped, and the baseline.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { freePort } from '../packages/fastify/test/free-port.js'
import { BASELINE_SERVER, CLI_BIN } from './paths.js'

export interface RunningServer {
  kind: 'helpdesk' | 'baseline'
  url: string
  pid: number
  /** Resolves once the server has worked through what earlier runs left queued (a slow scenario can leave seconds of it). */
  drain: () => Promise<void>
  /** Milliseconds from spawning the process to the first answered request. */
  coldStartMs: number
  stop: () => Promise<void>
}

/** The resident set size of a process, in MiB (Linux). */
export function rssMiB (pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match?.[1] !== undefined ? Number(match[1]) / 1024 : null
  } catch {
    return null
  }
}

/**
 * CPU time (user and system) a process has used so far, in µs (Linux:
 * `/proc/<pid>/stat`, counted in USER_HZ ticks of 10 ms), or null.
 */
export function cpuMicros (pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? ticks * 10_000 : null
  } catch {
    return null
  }
}

async function stopChild (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve() }))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

/**
 * Spawns a server and polls `probe` (with `headers`) until it answers 200;
 * the time from spawn to that answer is the cold start.
 */
async function start (
  kind: RunningServer['kind'], args: string[], env: NodeJS.ProcessEnv, port: number, probe: string, headers: Record<string, string>
): Promise<RunningServer> {
  const started = performance.now()
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000) })
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${kind} server exited with ${child.exitCode}: ${stderr}`)
    try {
      const response = await fetch(`${url}${probe}`, { headers })
      if (response.status === 200) break
      if (performance.now() - started > 120_000) throw new Error(`${kind} answered ${response.status} to ${probe}: ${await response.text()}`)
    } catch (error) {
      if (performance.now() - started > 120_000) throw error
    }
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const coldStartMs = performance.now() - started
  // A server still working through a backlog past this is not waited for: the run moves on (and the next scenario starts a fresh one).
  const drain = async (): Promise<void> => { await fetch(`${url}${probe}`, { headers, signal: AbortSignal.timeout(120_000) }).catch(() => {}) }
  return { kind, url, pid: child.pid ?? 0, coldStartMs, drain, stop: async () => { await stopChild(child) } }
}

/** How `startHelpdesk` runs the command: more settings, Node flags (`--cpu-prof`), another build of it. */
export interface HelpdeskStartOptions {
  env?: Record<string, string>
  nodeArgs?: string[]
  /** Default the built `helpdesk` of this checkout. */
  bin?: string
}

/** `helpdesk serve` on `database`, rate limits off (a benchmark is one client), request logs off. */
export async function startHelpdesk (database: string, token: string, probe: string, options: HelpdeskStartOptions = {}): Promise<RunningServer> {
  const { env = {}, nodeArgs = [], bin = CLI_BIN } = options
  const port = await freePort()
  return await start('helpdesk', [...nodeArgs, bin, 'serve', '--database', database, '--port', String(port), '--no-rate-limit'],
    { LOG_LEVEL: 'warn', HELPDESK_STORAGE_DIR: process.env.HELPDESK_STORAGE_DIR ?? '/tmp/helpdesk-bench-storage', ...env },
    port, probe, { authorization: `Bearer ${token}` })
}

export async function startBaseline (database: string, probe: string): Promise<RunningServer> {
  const port = await freePort()
  return await start('baseline', ['--import', 'tsx', BASELINE_SERVER, '--database', database, '--port', String(port)], {}, port, probe, {})
}
