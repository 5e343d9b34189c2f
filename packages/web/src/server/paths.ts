import { fileURLToPath } from 'node:url'

// Both from src/server (tests, tsx) and dist/server (the built package): two levels up is the package.
/** The built single-page app (vite's output): index.html and hashed `assets/`. */
export const DEFAULT_APP_DIR = fileURLToPath(new URL('../../dist/app', import.meta.url))
/** The knowledge-base pages' stylesheet and other static files of the server-rendered pages. */
export const KB_ASSETS_DIR = fileURLToPath(new URL('../../kb-assets', import.meta.url))
