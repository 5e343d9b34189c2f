/** The benchmark's output: one JSON file per run, and a markdown table per database and size. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LoadResult } from './load.js'
import { RESULTS_DIR } from './paths.js'

/** Throughput under every connection, and latency with one. */
export type Measured = LoadResult & { latency: { p50Ms: number, p99Ms: number, requestsPerSecond: number } | null }

export interface ScenarioResult {
  scenario: string
  title: string
  helpdesk: Measured
  baseline: Measured | null
  /** helpdesk req/s divided by baseline req/s (with `--repeat`, the median of the rounds' ratios). */
  ratio: number | null
  /** Each round's ratio, with `--repeat` more than 1. */
  ratios?: number[]
}

export interface RunResult {
  db: 'sqlite' | 'postgres'
  size: string
  tickets: number
  seedSeconds: number | null
  /** The median of `coldStartsMs`. */
  coldStartMs: number
  /** Every start of `helpdesk serve` in the run (one per scenario and round), spawn to first answer, ms. */
  coldStartsMs?: number[]
  /** Peak RSS of `helpdesk serve` during the mixed workload, MiB. */
  mixedPeakRssMiB: number | null
  scenarios: ScenarioResult[]
}

export interface BenchReport {
  startedAt: string
  machine: { cpus: number, cpuModel: string, memoryGiB: number, node: string, platform: string }
  settings: { duration: number, connections: number, latencyDuration: number, repeat?: number }
  runs: RunResult[]
}

const num = (value: number, digits = 0): string => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const ms = (value: number): string => value < 10 ? num(value, 2) : num(value, 1)

/** With several rounds, their lowest and highest ratio: ` (52–63%)`. */
function ratioRange (ratios: number[] | undefined): string {
  if (ratios === undefined || ratios.length < 2) return ''
  return ` (${num(Math.min(...ratios) * 100)}–${num(Math.max(...ratios) * 100)}%)`
}

/** With several starts: ` (median of 9 starts, 612–1,020 ms)`. */
function startRange (starts: number[] | undefined): string {
  if (starts === undefined || starts.length < 2) return ''
  return ` (median of ${starts.length} starts, ${num(Math.min(...starts))}–${num(Math.max(...starts))} ms)`
}

export function markdownTable (run: RunResult): string {
  const lines = [
    `### ${run.db}, ${num(run.tickets)} tickets`,
    '',
    `cold start ${num(run.coldStartMs)} ms${startRange(run.coldStartsMs)}; peak RSS under the mixed workload ${run.mixedPeakRssMiB === null ? 'n/a' : `${num(run.mixedPeakRssMiB)} MiB`}` +
      (run.seedSeconds !== null ? `; seeded in ${num(run.seedSeconds, 1)} s` : ''),
    '',
    '| scenario | req/s | CPU µs/req | p50 ms | p99 ms | 1 conn: p50 | p99 | errors | baseline req/s | CPU µs/req | p50 | p99 | 1 conn: p50 | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
  ]
  // A server that answered nothing in the run's time gets "none", not a latency of 0.
  const answered = (m: Measured | { requestsPerSecond: number } | null | undefined): boolean => m != null && m.requestsPerSecond > 0
  const latency = (m: Measured | null, key: 'p50Ms' | 'p99Ms'): string => m?.latency == null ? '-' : answered(m.latency) ? ms(m.latency[key]) : 'none'
  const load = (m: Measured | null, value: (m: Measured) => string): string => m === null ? '-' : answered(m) ? value(m) : 'none'
  // Results written before the column existed have no CPU figure.
  const cpu = (m: Measured | null): string => load(m, (x) => x.cpuMicrosPerRequest == null ? '-' : num(x.cpuMicrosPerRequest, x.cpuMicrosPerRequest < 100 ? 1 : 0))
  for (const s of run.scenarios) {
    const b = s.baseline
    lines.push(`| ${s.title} | ${num(s.helpdesk.requestsPerSecond)} | ${cpu(s.helpdesk)} | ${ms(s.helpdesk.p50Ms)} | ${ms(s.helpdesk.p99Ms)} | ` +
      `${latency(s.helpdesk, 'p50Ms')} | ${latency(s.helpdesk, 'p99Ms')} | ${num(s.helpdesk.errors)} | ` +
      `${load(b, (m) => num(m.requestsPerSecond))} | ${cpu(b)} | ${load(b, (m) => ms(m.p50Ms))} | ${load(b, (m) => ms(m.p99Ms))} | ${latency(b, 'p50Ms')} | ` +
      `${s.ratio === null ? '-' : `${num(s.ratio * 100)}%${ratioRange(s.ratios)}`} |`)
  }
  return lines.join('\n')
}

/** Writes `bench/results/<timestamp>.json` and `.md`; returns their paths. */
export function writeReport (report: BenchReport): { json: string, markdown: string } {
  mkdirSync(RESULTS_DIR, { recursive: true })
  const stamp = report.startedAt.replace(/[:.]/g, '-').slice(0, 19)
  const json = join(RESULTS_DIR, `${stamp}.json`)
  const markdown = join(RESULTS_DIR, `${stamp}.md`)
  writeFileSync(json, JSON.stringify(report, null, 2) + '\n')
  const header = `Benchmark of ${report.startedAt} on ${report.machine.cpus} CPUs (${report.machine.cpuModel}), node ${report.machine.node}; ` +
    `${report.settings.connections} connections for ${report.settings.duration} s per scenario (req/s, p50, p99 under that load), ` +
    `then 1 connection for ${report.settings.latencyDuration} s (latency). Ratio: req/s against the baseline's` +
    ((report.settings.repeat ?? 1) > 1
      ? `; ${report.settings.repeat ?? 1} alternating rounds per scenario: the median round's figures, the median ratio and (in brackets) the rounds' range.`
      : '.')
  writeFileSync(markdown, [header, '', ...report.runs.map((run) => markdownTable(run) + '\n')].join('\n'))
  return { json, markdown }
}
