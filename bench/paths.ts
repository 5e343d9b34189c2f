import { fileURLToPath } from 'node:url'

/** The built CLI (`pnpm build` first): the benchmark runs the real `helpdesk` command, as installed (its bundle). */
export const CLI_BIN = fileURLToPath(new URL('../packages/cli/bin/helpdesk.js', import.meta.url))
/** Cached seeded databases (gitignored). */
export const DATA_DIR = fileURLToPath(new URL('./.data/', import.meta.url))
/** Where each run writes its JSON and markdown. */
export const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url))
export const BASELINE_SERVER = fileURLToPath(new URL('./baseline-server.ts', import.meta.url))
