#!/usr/bin/env node
// The `helpdesk` command. A committed shim so package managers can link the
// bin before the TypeScript build has produced dist/.
const entry = new URL('../dist/bin.js', import.meta.url)
try {
  await import(entry.href)
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    process.stderr.write('error: helpdesk is not built yet: run `pnpm build` in the repository first\n')
    process.exit(1)
  }
  throw error
}
