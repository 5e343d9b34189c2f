// Bundles the built `helpdesk` command (dist/bin.js and everything it
// imports, node_modules included) into dist/bundle/ with esbuild, run by
// `pnpm build` after tsc. A cold start used to open some 1,600 files: Node
// resolved, read and compiled each one, and that was half of `helpdesk
// serve`'s start-up. The bundle is a few dozen chunks, split at the dynamic
// imports, so `helpdesk --help` still loads only the command line and each
// command loads only what it uses.
//
// The bundle behaves as the unbundled files do:
// - Native and optional modules are not bundled (`EXTERNAL`): they are
//   required from the package that imports them.
// - A module that finds files beside itself (`import.meta.url`, `__dirname`,
//   `__filename`: Swagger UI's assets, the console's files, the precompiled
//   serializers, a lazily required library) gets its own original location.
//   It is found at run time by Node's resolution, one package at a time along
//   the chain of imports that led to it from this package, so it holds in a
//   workspace, in an npm or a pnpm install alike.
import { readFileSync, realpathSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const cliRoot = fileURLToPath(new URL('..', import.meta.url))
const repoRoot = join(cliRoot, '..', '..')
const outdir = join(cliRoot, 'dist', 'bundle')

/**
 * Not bundled but required at run time, from the package that imports them:
 * native addons, and the drivers knex and pg load only when asked for (not
 * installed unless a user wants them).
 */
const EXTERNAL = [
  'better-sqlite3', '@node-rs/argon2', 'pg-native', 'pg-query-stream',
  'mysql', 'mysql2', 'mariadb', 'sqlite3', 'tedious', 'oracledb'
]

/** The nearest directory at or above `file` whose package.json has a name: the package the file belongs to. */
const roots = new Map()
function packageRoot (file) {
  let dir = dirname(file)
  for (;;) {
    if (roots.has(dir)) return roots.get(dir)
    let found = null
    try {
      if (typeof JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === 'string') found = dir
    } catch {}
    if (found !== null) {
      roots.set(dir, found)
      return found
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`no package.json with a name above ${file}`)
    dir = parent
  }
}

/** The package name a bare specifier imports: `knex`, `@fastify/send`. */
function packageName (specifier) {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
}

/** Whether a file is an ES module (else CommonJS), by its syntax. */
function isModule (source) {
  return /\bimport\.meta\b|^\s*(import|export)\s/m.test(source)
}

/**
 * The names a CommonJS module exports (as Node's `import()` of it offers
 * them), read by requiring it here. A module that cannot be loaded fails the
 * build: its importer's named imports would otherwise be undefined.
 */
function exportNames (importer, specifier) {
  let exported
  try {
    exported = createRequire(importer)(specifier)
  } catch (error) {
    throw new Error(`${specifier}, imported by ${importer}, cannot be loaded to read its exports: ${error.message}`)
  }
  return Object.keys(exported).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default')
}

/** An ES module offering a CommonJS module's exports (`load`, an expression) as Node does: as `default`, and each by name. */
function asModule (load, names) {
  return [`const exported = ${load}`, 'export default exported', ...names.map((key) => `export const ${key} = exported.${key}`)].join('\n')
}

/** Each bundled package's root → the names to resolve, one from the other, starting at this package, to reach it. */
const chains = new Map([[realpathSync(cliRoot).replace(/\/$/, ''), []]])

const locate = {
  name: 'locate-packages',
  setup (b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.locating === true || args.path.startsWith('node:') || args.importer === '') return undefined
      const name = packageName(args.path)
      if (EXTERNAL.includes(name)) {
        // Required at run time from the importing package, as the unbundled file would.
        const chain = chains.get(packageRoot(args.importer))
        const path = `${chain.join('/')}/node_modules/${args.path}`
        if (args.kind === 'require-call') return { path, namespace: 'installed', pluginData: { chain, specifier: args.path } }
        // An ES module's import gets what Node gives it from a CommonJS module: the exports as
        // `default`, and each export by name (their names read here, where the package is installed).
        return { path, namespace: 'installed-module', pluginData: { chain, specifier: args.path, names: exportNames(args.importer, args.path) } }
      }
      const result = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { locating: true } })
      if (result.errors.length > 0 || result.external || !result.path.includes(sep)) return result
      const root = packageRoot(result.path)
      if (!chains.has(root)) {
        const from = chains.get(packageRoot(args.importer))
        if (from === undefined) throw new Error(`${args.importer} was bundled before the import that reached it`)
        chains.set(root, from.concat(name))
      }
      // esbuild's chunk for `import()` of a CommonJS module exports only `default`; Node's gives each export by name too.
      if (args.kind === 'dynamic-import' && !isModule(readFileSync(result.path, 'utf8'))) {
        return { path: relative(repoRoot, result.path), namespace: 'dynamic-commonjs', pluginData: { file: result.path, names: exportNames(args.importer, args.path) } }
      }
      return result
    })
    // The run-time require of an installed module, from the package at the end of `chain`.
    const requireInstalled = ({ chain, specifier }) => `__helpdeskRequire(${JSON.stringify(chain)}, ${JSON.stringify(specifier)})`
    b.onLoad({ filter: /.*/, namespace: 'installed' }, (args) => ({
      contents: `module.exports = ${requireInstalled(args.pluginData)}`,
      loader: 'js'
    }))
    b.onLoad({ filter: /.*/, namespace: 'installed-module' }, (args) => ({
      contents: asModule(requireInstalled(args.pluginData), args.pluginData.names),
      loader: 'js'
    }))
    b.onLoad({ filter: /.*/, namespace: 'dynamic-commonjs' }, (args) => ({
      contents: asModule(`require(${JSON.stringify(args.pluginData.file)})`, args.pluginData.names),
      loader: 'js',
      resolveDir: dirname(args.pluginData.file)
    }))
    b.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8')
      if (!/import\.meta\.url|__dirname|__filename/.test(source)) return undefined
      const root = packageRoot(args.path)
      const chain = chains.get(root)
      if (chain === undefined) throw new Error(`${args.path}: no import chain recorded for ${root}`)
      const where = `__helpdeskLocate(${JSON.stringify(chain)}, ${JSON.stringify(relative(root, args.path).split(sep).join('/'))})`
      // An ES module's import.meta.url is replaced; a CommonJS module gets the __filename and __dirname Node would give it.
      const contents = isModule(source)
        ? source.replaceAll('import.meta.url', `__helpdeskFileUrl(${where})`)
        : `var __filename = ${where}, __dirname = __helpdeskDirname(__filename);\n${source}`
      return { contents, loader: 'js', resolveDir: dirname(args.path) }
    })
  }
}

// Every chunk starts with this: `require` for the CommonJS code, and the
// function that finds a package's installed location along its import chain.
const banner = `import { createRequire as __helpdeskCreateRequire } from 'node:module';
import { existsSync as __helpdeskExists, realpathSync as __helpdeskRealpath } from 'node:fs';
import { dirname as __helpdeskDirname, join as __helpdeskJoin } from 'node:path';
import { fileURLToPath as __helpdeskToPath, pathToFileURL as __helpdeskToUrl } from 'node:url';
const require = __helpdeskCreateRequire(import.meta.url);
const __helpdeskRoots = new Map();
function __helpdeskLocate(chain, file) {
  let dir = __helpdeskToPath(new URL('../../', import.meta.url));
  for (const name of chain) {
    const key = dir + '\\0' + name;
    let next = __helpdeskRoots.get(key);
    if (next === undefined) {
      const candidates = __helpdeskCreateRequire(__helpdeskJoin(dir, 'package.json')).resolve.paths(name) ?? [];
      const found = candidates.map((d) => __helpdeskJoin(d, name)).find((d) => __helpdeskExists(__helpdeskJoin(d, 'package.json')));
      if (found === undefined) throw new Error('helpdesk: cannot find the package ' + name + ' from ' + dir + ': reinstall @helpdesk/cli');
      next = __helpdeskRealpath(found);
      __helpdeskRoots.set(key, next);
    }
    dir = next;
  }
  return __helpdeskJoin(dir, file);
}
function __helpdeskFileUrl(file) { return __helpdeskToUrl(file).href; }
function __helpdeskRequire(chain, id) { return __helpdeskCreateRequire(__helpdeskLocate(chain, 'package.json'))(id); }`

rmSync(outdir, { recursive: true, force: true })
const result = await build({
  entryPoints: { bin: join(cliRoot, 'dist', 'bin.js') },
  outdir,
  // The `// path` comment above each bundled module is relative to the repository (packages/cli/test/startup.test.ts reads them).
  absWorkingDir: repoRoot,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: banner },
  plugins: [locate],
  metafile: true,
  logLevel: 'warning',
  legalComments: 'inline'
})
const outputs = Object.entries(result.metafile.outputs)
const bytes = outputs.reduce((sum, [, o]) => sum + o.bytes, 0)
process.stdout.write(`helpdesk bundle: ${outputs.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB, from ${Object.keys(result.metafile.inputs).length} modules, in ${relative(process.cwd(), outdir)}\n`)
