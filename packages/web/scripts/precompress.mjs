// Precompresses the console's hashed assets after `vite build` (the `build:app` step): a `.br`
// (Brotli, best quality) and a `.gz` (gzip -9) next to each JavaScript, CSS, SVG and JSON
// file of dist/app/assets above the threshold, kept only when smaller. The server sends them
// as they are to a browser that accepts the encoding, so no request pays for compressing them.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const THRESHOLD = 1024
const dir = join(import.meta.dirname, '..', 'dist', 'app', 'assets')
const compressible = /\.(?:js|mjs|css|svg|json|html|txt)$/

let files = 0
let before = 0
let after = 0
for (const name of readdirSync(dir)) {
  const path = join(dir, name)
  if (!compressible.test(name) || !statSync(path).isFile()) continue
  const content = readFileSync(path)
  if (content.length < THRESHOLD) continue
  const br = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length }
  })
  const gz = gzipSync(content, { level: 9 })
  if (br.length < content.length) writeFileSync(`${path}.br`, br)
  if (gz.length < content.length) writeFileSync(`${path}.gz`, gz)
  files++
  before += content.length
  after += Math.min(br.length, content.length)
}
console.log(`precompressed ${files} assets: ${(before / 1024).toFixed(1)} KB, ${(after / 1024).toFixed(1)} KB with Brotli`)
