import { defineConfig } from 'vite'
import preact from '@preact/preset-vite'

// The console is served under a prefix chosen by the host (`/` by default), so
// asset URLs are relative to index.html's <base>, which the server plugin may rewrite.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    target: 'es2022',
    // No modulepreload polyfill: it would be an extra script, and every target browser supports modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false
  }
})
