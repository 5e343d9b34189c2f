export interface EventuallyOptions {
  /** How long to keep trying, in milliseconds. Default 10 s. */
  timeoutMs?: number
  /** The pause between two tries, in milliseconds. Default 25. */
  intervalMs?: number
}

/**
 * Polls `check` until it answers something other than `undefined` or
 * `false`, and returns that; fails naming `what` once `timeoutMs` has passed.
 * For tests that wait on another process, thread or timer.
 */
export async function eventually<T> (what: string, check: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<Exclude<T, undefined | false>> {
  const { timeoutMs = 10_000, intervalMs = 25 } = options
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
