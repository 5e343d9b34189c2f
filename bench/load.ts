/**
 * Drives one server with autocannon (in this process, never the server's)
 * and measures what the report prints: successful requests per second and
 * latency percentiles at microsecond resolution (autocannon's own histogram
 * rounds to whole milliseconds), plus the server's peak RSS when asked.
 */
import autocannon from 'autocannon'
import { randomStream, type Scenario } from './scenarios.js'
import { cpuMicros, rssMiB, type RunningServer } from './servers.js'

export interface LoadResult {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  /** Non-2xx answers, timeouts and socket errors. */
  errors: number
  statusCodes: Record<string, number>
  /** Peak resident set size of the server during the run, MiB (when sampled). */
  peakRssMiB: number | null
  /** The server process's CPU time (user and system, every thread) per answered request, µs: what a request costs the server, less swayed than req/s by what else the machine does. */
  cpuMicrosPerRequest: number | null
}

export interface LoadOptions {
  duration: number
  connections: number
  tickets: number
  headers: Record<string, string>
  sampleRss?: boolean
  /** The same seed gives both servers the same request sequence. */
  seed: number
}

function percentile (sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

export async function runLoad (server: RunningServer, scenario: Scenario, options: LoadOptions): Promise<LoadResult> {
  const random = randomStream(options.seed)
  const context = { tickets: options.tickets, random }
  let latencies = new Float64Array(1 << 16)
  let count = 0
  let errors = 0
  const statusCodes: Record<string, number> = {}
  let peak: number | null = null
  const sampler = options.sampleRss === true
    ? setInterval(() => { const rss = rssMiB(server.pid); if (rss !== null) peak = Math.max(peak ?? 0, rss) }, 200)
    : null
  const cpuBefore = cpuMicros(server.pid)
  try {
    await new Promise<void>((resolve, reject) => {
      const instance = autocannon({
        url: server.url,
        connections: options.connections,
        duration: options.duration,
        timeout: 30,
        headers: options.headers,
        requests: [{
          setupRequest: (request: Record<string, unknown>) => {
            const next = scenario.next(context)
            return next.body === undefined
              ? { ...request, method: next.method, path: next.path, headers: options.headers, body: undefined }
              : { ...request, method: next.method, path: next.path, headers: { ...options.headers, 'content-type': 'application/json' }, body: next.body }
          }
        }]
      }, (error: Error | null) => { if (error !== null) reject(error); else resolve() })
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
        statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1
        if (statusCode < 200 || statusCode >= 300) { errors++; return }
        if (count === latencies.length) {
          const grown = new Float64Array(latencies.length * 2)
          grown.set(latencies)
          latencies = grown
        }
        latencies[count++] = responseTime
      })
      instance.on('reqError', () => { errors++ })
    })
  } finally {
    if (sampler !== null) clearInterval(sampler)
  }
  const cpuAfter = cpuMicros(server.pid)
  const answers = count + errors
  const sorted = latencies.subarray(0, count).sort()
  return {
    requestsPerSecond: count / options.duration,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    errors,
    statusCodes,
    peakRssMiB: peak,
    cpuMicrosPerRequest: cpuBefore !== null && cpuAfter !== null && answers > 0 ? (cpuAfter - cpuBefore) / answers : null
  }
}
