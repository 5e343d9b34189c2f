import cliProgress from 'cli-progress'

/** A progress bar on stderr when it is a terminal (and not --json); silent otherwise. Built on cli-progress. */
export function progressBar (label: string, enabled: boolean): { update: (done: number, total: number | null) => void, stop: () => void } {
  if (!enabled || process.stderr.isTTY !== true) return { update: () => {}, stop: () => {} }
  const bar = new cliProgress.SingleBar({
    format: `${label} [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left`,
    stream: process.stderr,
    hideCursor: true
  }, cliProgress.Presets.shades_classic)
  let started = false
  return {
    update (done, total) {
      if (!started) { bar.start(total ?? done, 0); started = true }
      if (total !== null) bar.setTotal(total)
      bar.update(done)
    },
    stop () { if (started) bar.stop() }
  }
}
