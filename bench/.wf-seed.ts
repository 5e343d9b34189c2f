import { ensureDatabase } from '/work/wt/workflow/bench/bench-data.ts'
for (const size of ['10k', '100k']) for (const db of ['sqlite', 'postgres'] as const) {
  const t = performance.now()
  const d = await ensureDatabase(db, size, { reseed: false })
  console.log(db, size, d.url, ((performance.now() - t) / 1000).toFixed(1), 's')
}
