import { setFlagsFromString } from 'node:v8'
import { CliError } from './config-file.js'

/**
 * How far V8 lets the old generation grow past what the last full GC found
 * live before it collects again, as `helpdesk serve` sets it. V8's own
 * factor adapts between 1.1 and 4: on a server whose live heap is ~30 MiB
 * it lets garbage promoted under load pile up to ~100 MiB before a major
 * GC. Growing by half keeps peak RSS under the mixed benchmark at ~165
 * MiB instead of ~215 for ~3 % more CPU a request (docs/performance.md).
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50

const FLAG = '--heap-growing-percent'

/**
 * The `--heap-growing-percent` flag `serve` sets, or null to leave V8's
 * adaptive default: HELPDESK_HEAP_GROWTH_PERCENT (`0` is V8's default) over
 * DEFAULT_HEAP_GROWTH_PERCENT; an operator who passed the V8 flag itself
 * (on the command line or in NODE_OPTIONS) keeps theirs.
 */
export function heapGrowthFlag (env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): string | null {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)]
  if (given.some((arg) => arg.replaceAll('_', '-').startsWith(FLAG))) return null
  const raw = env.HELPDESK_HEAP_GROWTH_PERCENT
  if (raw !== undefined && !/^\d{1,3}$/.test(raw)) {
    throw new CliError(`HELPDESK_HEAP_GROWTH_PERCENT must be a whole percentage from 0 (V8's default) to 999, got "${raw}"`)
  }
  const percent = raw === undefined ? DEFAULT_HEAP_GROWTH_PERCENT : Number(raw)
  return percent === 0 ? null : `${FLAG}=${percent}`
}

/** Applies `heapGrowthFlag` to this process (V8 reads it at every full GC, so setting it at run time takes effect). */
export function applyHeapGrowth (env: NodeJS.ProcessEnv = process.env): void {
  const flag = heapGrowthFlag(env)
  if (flag !== null) setFlagsFromString(flag)
}
