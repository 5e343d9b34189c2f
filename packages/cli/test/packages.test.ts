import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'

const root = fileURLToPath(new URL('../../../', import.meta.url))

interface Manifest {
  name: string
  version: string
  private?: boolean
  description?: string
  license?: string
  keywords?: string[]
  type?: string
  engines?: { node?: string }
  exports?: Record<string, unknown>
  files?: string[]
  publishConfig?: { access?: string }
  dependencies?: Record<string, string>
}

const packages = readdirSync(join(root, 'packages')).map((dir) => ({
  dir: join(root, 'packages', dir),
  manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest
})).filter((p) => p.manifest.private !== true)

describe('published packages', () => {
  it('are all of them, at one version, in one fixed changesets group', () => {
    assert.deepEqual(packages.map((p) => p.manifest.name).sort(), ['@helpdesk/cli', '@helpdesk/core', '@helpdesk/fastify', '@helpdesk/mail', '@helpdesk/shapes', '@helpdesk/store-knex', '@helpdesk/web', '@helpdesk/webhooks'])
    assert.equal(new Set(packages.map((p) => p.manifest.version)).size, 1, 'versions differ')
    const changesets = JSON.parse(readFileSync(join(root, '.changeset/config.json'), 'utf8')) as { fixed: string[][], access: string }
    assert.deepEqual([...(changesets.fixed[0] ?? [])].sort(), packages.map((p) => p.manifest.name).sort())
    assert.equal(changesets.access, 'public')
  })

  for (const { dir, manifest } of packages) {
    it(`${manifest.name} has a complete manifest, a README and a LICENSE`, () => {
      assert.ok((manifest.description ?? '').length > 20, 'description')
      assert.equal(manifest.license, 'MIT')
      assert.match(readFileSync(join(dir, 'LICENSE'), 'utf8'), /^MIT License/)
      assert.ok(existsSync(join(dir, 'README.md')), 'README.md')
      assert.ok((manifest.keywords ?? []).length > 0, 'keywords')
      assert.equal(manifest.type, 'module')
      assert.equal(manifest.engines?.node, '>=20')
      assert.equal(manifest.publishConfig?.access, 'public')
      assert.deepEqual(Object.keys(manifest.exports?.['.'] as object), ['types', 'default'], 'exports: types first, then default')
      for (const file of ['dist', 'README.md', 'LICENSE']) assert.ok(manifest.files?.includes(file), `files lacks ${file}`)
      for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
        if (name.startsWith('@helpdesk/')) assert.equal(range, 'workspace:*', `${name} should be a workspace dependency`)
      }
    })

    it(`${manifest.name} passes publint, strictly`, async () => {
      const { messages, pkg } = await publint({ pkgDir: dir, level: 'suggestion', strict: true })
      assert.deepEqual(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`), [])
    })
  }
})
