#!/usr/bin/env node
// The `helpdesk` command. A committed shim so package managers can link the
// bin before the build has produced dist/. It runs the bundle `pnpm build`
// makes (dist/bundle/, see scripts/bundle.mjs: a cold start opens a few
// dozen files instead of some 1,600), or tsc's output where there is no
// bundle (a build by `tsc -b` alone, or HELPDESK_NO_BUNDLE=1).
import { existsSync } from 'node:fs'

const bundle = new URL('../dist/bundle/bin.js', import.meta.url)
const entry = process.env.HELPDESK_NO_BUNDLE !== '1' && existsSync(bundle) ? bundle : new URL('../dist/bin.js', import.meta.url)
try {
  await import(entry.href)
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    process.stderr.write('error: helpdesk is not built yet: run `pnpm build` in the repository first\n')
    process.exit(1)
  }
  throw error
}
