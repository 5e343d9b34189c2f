export { run, buildProgram } from './program.js'
export { buildServer } from './server.js'
export { loadConfig, type CliConfig } from './config.js'
export { DEMO_ACCOUNTS } from './commands/seed.js'
