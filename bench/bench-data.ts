/**
 * Seeded databases for the benchmark, cached under bench/.data/ (gitignored)
 * so a 1M-ticket database is generated once: a SQLite file, or a PostgreSQL
 * database `helpdesk_bench_<size>[HELPDESK_BENCH_DB_SUFFIX]` with a marker file beside the SQLite ones.
 * The data comes from `helpdesk seed --tickets N` (the CLI's volume seed).
 */
import { spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { createKnexStore } from '../packages/store-knex/dist/index.js'
import { CLI_BIN, DATA_DIR } from './paths.js'

/** Bump when the seed's data changes, so cached databases are regenerated. */
const SEED_VERSION = 1
const SEED = 1

export type Db = 'sqlite' | 'postgres'

export interface BenchDatabase {
  db: Db
  size: string
  tickets: number
  url: string
  /** Seconds the seed took (when this run or an earlier one generated it). */
  seedSeconds: number | null
  cached: boolean
}

interface Marker { version: number, url: string, tickets: number, seedSeconds: number | null, seededAt: string, optimized?: boolean }

/** `10k` -> 10000, `1m` -> 1000000. */
export function parseSize (size: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(size.trim())
  if (match === null) throw new Error(`--size: "${size}" is not a size like 10k, 100k or 1m`)
  const unit = match[2]?.toLowerCase() === 'k' ? 1e3 : match[2]?.toLowerCase() === 'm' ? 1e6 : 1
  return Math.round(Number(match[1]) * unit)
}

export function pgAdminUrl (): string {
  return process.env.HELPDESK_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
}

function pgUrl (name: string): string {
  const url = new URL(pgAdminUrl())
  url.pathname = `/${name}`
  return url.toString()
}

async function adminQuery (sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: pgAdminUrl() })
  await client.connect()
  try {
    return await client.query(sql)
  } finally {
    await client.end()
  }
}

/** Runs the CLI with the progress bar on this terminal; resolves with its stdout. */
export async function runCli (args: string[], options: { showProgress?: boolean } = {}): Promise<string> {
  return await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio: ['ignore', 'pipe', options.showProgress === true ? 'inherit' : 'pipe'] })
    let out = ''
    let err = ''
    child.stdout?.on('data', (chunk: Buffer) => { out += chunk.toString() })
    child.stderr?.on('data', (chunk: Buffer) => { err += chunk.toString() })
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code === 0) resolve(out)
      else reject(new Error(`helpdesk ${args[0] ?? ''} exited with ${code ?? 'a signal'}: ${err || out}`))
    })
  })
}

/** A database of `size` tickets for `db`: the cached one, or a freshly seeded one. */
export async function ensureDatabase (db: Db, size: string, options: { reseed: boolean }): Promise<BenchDatabase> {
  const tickets = parseSize(size)
  mkdirSync(DATA_DIR, { recursive: true })
  const markerFile = join(DATA_DIR, `${db}-${size}.json`)
  // HELPDESK_BENCH_DB_SUFFIX keeps a second copy of the PostgreSQL databases (e.g. one per checkout
  // being compared), as each checkout's bench/.data/ does for SQLite.
  const name = `helpdesk_bench_${size.toLowerCase()}${process.env.HELPDESK_BENCH_DB_SUFFIX ?? ''}`
  const url = db === 'sqlite' ? `sqlite:${join(DATA_DIR, `sqlite-${size}.sqlite`)}` : pgUrl(name)
  const marker = existsSync(markerFile) ? JSON.parse(readFileSync(markerFile, 'utf8')) as Marker : null
  if (!options.reseed && marker?.version === SEED_VERSION && marker.tickets === tickets && await exists(db, url, name)) {
    if (marker.optimized !== true) {
      // Seeded before `helpdesk seed` compacted its indexes at the end: do it once now.
      await optimize(url)
      writeFileSync(markerFile, JSON.stringify({ ...marker, optimized: true }, null, 2))
    }
    return { db, size, tickets, url, seedSeconds: marker.seedSeconds, cached: true }
  }
  rmSync(markerFile, { force: true })
  if (db === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${url.slice('sqlite:'.length)}${suffix}`, { force: true })
  } else {
    await adminQuery(`drop database if exists "${name}" with (force)`)
    await adminQuery(`create database "${name}"`)
  }
  process.stderr.write(`Seeding ${tickets} tickets on ${db} (helpdesk seed --tickets ${tickets}); cached for later runs...\n`)
  const started = performance.now()
  const output = await runCli([
    'seed', '--database', url, '--tickets', String(tickets), '--customers', String(Math.max(1, Math.round(tickets / 5))),
    '--comments-per-ticket', '2', '--seed', String(SEED)
  ], { showProgress: true })
  const reported = /in ([\d.]+) s \(/.exec(output)?.[1]
  const seedSeconds = reported !== undefined ? Number(reported) : (performance.now() - started) / 1000
  if (db === 'postgres') await analyze(url)
  const fresh: Marker = { version: SEED_VERSION, url, tickets, seedSeconds, seededAt: new Date().toISOString(), optimized: true }
  writeFileSync(markerFile, JSON.stringify(fresh, null, 2))
  return { db, size, tickets, url, seedSeconds, cached: false }
}

async function optimize (url: string): Promise<void> {
  const store = createKnexStore({ url })
  try {
    await store.migrate()
    await store.optimize()
  } finally {
    await store.close()
  }
}

/** What autovacuum does after a bulk load, done at once so plans are stable from the first run. */
async function analyze (url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('vacuum analyze')
  } finally {
    await client.end()
  }
}

async function exists (db: Db, url: string, name: string): Promise<boolean> {
  if (db === 'sqlite') return existsSync(url.slice('sqlite:'.length))
  const result = await adminQuery(`select 1 from pg_database where datname = '${name}'`)
  return result.rowCount === 1
}

/**
 * Reads the whole database once, so every scenario (the help desk's, which
 * runs first, and then the baseline's) starts with it in the OS page cache.
 * Without this the first scenario after a seed or a reboot pays for reading
 * a million-ticket database from disk, and only the help desk pays it: the
 * ticket-by-id ratio at a million tickets moved between 44 % and 69 % with
 * the cache alone. SQLite: its files read through. PostgreSQL: every table
 * and index loaded with `pg_prewarm` (contrib, shipped with the server), or
 * read by sequential scans where the extension is not available.
 */
export async function warmDatabase (data: BenchDatabase): Promise<void> {
  if (data.db === 'sqlite') {
    const path = data.url.slice('sqlite:'.length)
    const buffer = Buffer.allocUnsafe(1 << 20)
    for (const suffix of ['', '-wal']) {
      if (!existsSync(path + suffix)) continue
      const fd = openSync(path + suffix, 'r')
      try {
        while (readSync(fd, buffer, 0, buffer.length, null) > 0) { /* into the page cache */ }
      } finally {
        closeSync(fd)
      }
    }
    return
  }
  const client = new pg.Client({ connectionString: data.url })
  await client.connect()
  try {
    const relations = await client.query<{ name: string, kind: string }>(
      "select c.oid::regclass::text as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'i')")
    const prewarm = await client.query('create extension if not exists pg_prewarm').then(() => true, () => false)
    for (const { name, kind } of relations.rows) {
      if (prewarm) await client.query('select pg_prewarm($1::regclass)', [name])
      else if (kind === 'r') await client.query(`select count(*) from ${name}`)
    }
  } finally {
    await client.end()
  }
}
