import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { join, dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The rich-text editor's chunk (Tiptap, ProseMirror and the toolbar), with Brotli as the server
 * sends it, must stay within this. It loads only when a composer or an article form opens.
 */
const EDITOR_BUDGET_BYTES = 120 * 1024

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const appDir = join(packageDir, 'dist/app')

test(`the rich-text editor is a chunk of its own, at most ${EDITOR_BUDGET_BYTES / 1024} KB with Brotli, loaded by no screen up front`, () => {
  if (!existsSync(join(appDir, 'index.html'))) execFileSync('pnpm', ['run', 'build:app'], { cwd: packageDir, stdio: 'inherit' })
  const html = readFileSync(join(appDir, 'index.html'), 'utf8')
  const chunks = readdirSync(join(appDir, 'assets')).filter((f) => f.endsWith('.js'))
  const editor = chunks.find((f) => f.startsWith('RichTextEditor-'))
  assert.ok(editor !== undefined, 'RichTextEditor has its own chunk')
  assert.ok(!html.includes(editor), 'the editor chunk is not in the initial load')
  const bytes = readFileSync(join(appDir, 'assets', editor))
  const brotli = brotliCompressSync(bytes).length
  console.log(`editor chunk: ${(brotli / 1024).toFixed(1)} KB with Brotli, ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1)} KB gzipped, ${(bytes.length / 1024).toFixed(1)} KB minified`)
  assert.ok(brotli <= EDITOR_BUDGET_BYTES, `${(brotli / 1024).toFixed(1)} KB with Brotli`)
  // ProseMirror's own class name: only the editor chunk carries the library.
  const withProseMirror = chunks.filter((f) => readFileSync(join(appDir, 'assets', f), 'utf8').includes('ProseMirror-hideselection'))
  assert.deepEqual(withProseMirror, [editor])
  // Only a dynamic import reaches it: no other chunk imports it statically.
  for (const chunk of chunks) {
    if (chunk === editor) continue
    const text = readFileSync(join(appDir, 'assets', chunk), 'utf8')
    assert.doesNotMatch(text, new RegExp(`(?:from|import)\\s*["']\\./${editor.replace(/[.$]/g, '\\$&')}["']`), `${chunk} imports the editor statically`)
  }
})
