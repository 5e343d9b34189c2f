import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../free-port.js'

/**
 * A throwaway PostgreSQL cluster of its own (initdb in a temporary directory,
 * on a free port), for tests that stop and start the database. The shared
 * server other tests use is never touched.
 */
export interface PrivatePostgres {
  url: string
  stop: () => void
  start: () => void
  /** Stops the cluster if it runs and removes its directory. */
  remove: () => void
}

/** The directory of PostgreSQL's server binaries (initdb, pg_ctl), newest version first; null when none is installed. */
export function postgresBinaries (): string | null {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
  for (const version of versions) {
    const bin = join(root, version, 'bin')
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin
  }
  return null
}


/** PostgreSQL refuses to run as root: as root, its binaries run as the `postgres` user, who owns the directory. */
function runner (): { wrap: (command: string, args: string[]) => [string, string[]], uid: number | null, gid: number | null } {
  if (process.getuid?.() !== 0) return { wrap: (command, args) => [command, args], uid: null, gid: null }
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
  return { wrap: (command, args) => ['runuser', ['-u', 'postgres', '--', command, ...args]], uid, gid }
}

export async function startPrivatePostgres (bin: string): Promise<PrivatePostgres> {
  const { wrap, uid, gid } = runner()
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-pg-'))
  if (uid !== null && gid !== null) chownSync(dir, uid, gid)
  const data = join(dir, 'data')
  const port = await freePort()
  const run = (command: string, args: string[]): void => {
    const [file, argv] = wrap(join(bin, command), args)
    execFileSync(file, argv, { stdio: 'pipe', timeout: 60_000 })
  }
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`
  const start = (): void => { run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']) }
  const running = (): boolean => existsSync(join(data, 'postmaster.pid'))
  start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // `immediate`: every connection drops at once, as when the database host dies.
    stop: () => { run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']) },
    start,
    remove: () => {
      try {
        if (running()) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}
